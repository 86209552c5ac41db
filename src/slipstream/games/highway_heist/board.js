// Highway Heist: the road (12 columns West to East, 6 lanes North to South, each labelled along the top
// and the left side as the texts say a place: "column 5, lane 3"), the vehicles, Wrecks, the Main Enemy,
// Enemy and Player Pegs, Cargo and Ramsey; the Enemy-card row with both effects of every card (the one
// that activates next marked) and the Stunt row with each card's roll, Condition and Reward; each seat's
// boards. Reads only the seat's view (see slipstream/games/highway_heist, HeistState._view) and the
// match's glossary (ctx.term: every card, power, vehicle, character and enemy shows its effect on hover,
// focus and tap). Squares and vehicles are clickable: a square carries the move to it (drive, to), a
// vehicle its first action and a small badge for each other action on it (ram, force, leap, stunt, slam,
// hit, peg, remove, ramsey).
import { esc } from "/static/common.js";

const CELL = 56;
const LEFT = 50; // room for "lane 6"
const TOP = 30; // room for "column" and the column numbers
const PAD = 16;
const ENEMY = { "enemy-suv": "#c0392b", tank: "#556b2f", "semi-cab": "#7f8c8d", "semi-trailer": "#95a5a6", "shaw-car": "#2c3e50" };
const LETTER = { "enemy-suv": "SUV", tank: "TANK", "semi-cab": "CAB", "semi-trailer": "TRAILER", "shaw-car": "SHAW", wreck: "WRECK", abandoned: "OLD" };
const MOVE_VERBS = ["to", "drive"];
const PIECE_VERBS = ["slam", "hit", "peg", "remove", "ramsey", "ram", "force", "leap", "stunt", "act"];
const BADGE = { slam: "!", hit: "!", peg: "P", remove: "x", ramsey: "R", ram: "⚔", force: "F", leap: "L", stunt: "★", act: "A" };
// What a click on a square or a badge does, in words (the buttons below the board say it in full).
const VERB_WORDS = { drive: "drive here", to: "move it here", slam: "the slam hits this vehicle", hit: "the hit lands here",
  peg: "the peg goes onto this vehicle", remove: "knock its Enemy Peg off", ramsey: "Ramsey moves here", ram: "Ram it",
  force: "Force it", leap: "leap onto it" };

function place(space) {
  const m = /^c(\d+)l(\d+)$/.exec(space || "");
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

// A space as the board labels it and the texts say it: "column 5, lane 3".
export function placeWords(space) {
  const at = place(space);
  return at ? `column ${at[0] + 1}, lane ${at[1] + 1}` : "";
}

function centre(col, lane) {
  return [LEFT + col * CELL + CELL / 2, TOP + lane * CELL + CELL / 2];
}

// The context's glossary helpers, or plain names when a page gives none.
function terms(ctx) {
  const glossary = ctx.glossary || {};
  const term = ctx.term || ((id, fallback) => esc(fallback ?? id));
  // The data-tip attributes of a thing of the glossary, for an SVG shape (installTips reads them).
  const tipAttrs = (id, fallback) => {
    const t = glossary[id];
    if (!t || !t.text) return ` aria-label="${esc(fallback || id)}"`;
    return ` data-tip="${esc(t.text)}" data-tip-kind="${esc(t.kind || "")}" data-tip-name="${esc(t.name)}" tabindex="0" aria-label="${esc(t.name)}"`;
  };
  return { glossary, term, tipAttrs };
}

// The legal actions aimed at each space: "drive:c5l3", "stunt:ta-s1a@c5l3", ... -> {c5l3: [[verb, action, card]]}.
function actionsBySpace(legal) {
  const out = new Map();
  for (const a of legal) {
    const m = /^(?:\d+:)?([a-z-]+):(?:([a-z0-9-]+)@)?(c\d+l\d+)$/.exec(a);
    if (!m) continue;
    const [, verb, card, space] = m;
    if (!out.has(space)) out.set(space, []);
    out.get(space).push([verb, a, card || ""]);
  }
  return out;
}

function verbWords(verb, card, glossary) {
  if (verb === "stunt" || verb === "act") return `attempt ${glossary[card] ? glossary[card].name : "it"}`;
  return VERB_WORDS[verb] || verb;
}

function vehicleShape(piece, x, y, ctx, seats) {
  const kind = piece.kind;
  const w = CELL * 0.78, h = CELL * 0.5;
  let fill = ENEMY[kind] || "#666";
  let label = LETTER[kind] || "?";
  let stroke = "#111";
  if (kind === "player-vehicle" || kind === "hijacked-suv") {
    fill = ctx.colours[piece.owner % ctx.colours.length];
    const manned = seats[piece.owner] && seats[piece.owner].peg === "wheel";
    label = `P${piece.owner + 1}${kind === "hijacked-suv" ? " SUV" : ""}`;
    stroke = manned ? "#fff" : "#111";
  }
  if (kind === "wreck") {
    return `<g transform="translate(${x},${y})"><rect x="${-w / 2}" y="${-h / 2}" width="${w}" height="${h}" rx="4" fill="#3b3b3b" stroke="#ff8c00" stroke-dasharray="4 3"/>` +
      `<text y="4" text-anchor="middle" font-size="10" fill="#ff8c00">WRECK</text></g>`;
  }
  const { tipAttrs } = terms(ctx);
  let svg = `<g transform="translate(${x},${y})"><rect x="${-w / 2}" y="${-h / 2}" width="${w}" height="${h}" rx="8" fill="${fill}" stroke="${stroke}" stroke-width="2"/>`;
  svg += `<text y="4" text-anchor="middle" font-size="11" font-weight="700" fill="#fff">${esc(label)}</text>`;
  if (piece.enemy_peg) svg += `<circle class="enemy-peg" cx="${w / 2 - 6}" cy="${-h / 2 - 2}" r="6" fill="#e74c3c" stroke="#111"${tipAttrs("enemy-peg", "Enemy Peg")}/>`;
  (piece.player_pegs || []).forEach((s, i) => {
    const name = (ctx.names && ctx.names[s]) || `P${s + 1}`;
    svg += `<circle cx="${-w / 2 + 6 + i * 13}" cy="${-h / 2 - 2}" r="6" fill="${ctx.colours[s % ctx.colours.length]}" stroke="#fff"><title>${esc(name)} on top</title></circle>`;
  });
  for (let i = 0; i < (piece.cargo || 0); i++) {
    svg += `<rect x="${-w / 2 + 4 + i * 9}" y="${h / 2 - 3}" width="7" height="7" fill="#f1c40f" stroke="#111"${tipAttrs("cargo", "Cargo")}/>`;
  }
  return svg + `</g>`;
}

// The tip of a piece: an enemy's own effect; a Player Vehicle's board (name, ratings and power).
function pieceTip(piece, view, ctx) {
  const { tipAttrs } = terms(ctx);
  if (piece.kind === "player-vehicle" || piece.kind === "hijacked-suv") {
    const seat = (view.seats || [])[piece.owner];
    return seat && seat.vehicle ? tipAttrs(seat.vehicle, piece.name) : ` aria-label="${esc(piece.name || "")}"`;
  }
  return tipAttrs(piece.kind, piece.name);
}

function road(view, ctx) {
  const cols = view.road?.columns || 12, lanes = view.road?.lanes || 6;
  const W = LEFT + PAD + cols * CELL, H = TOP + PAD + lanes * CELL;
  const seats = view.seats || [];
  const { glossary, tipAttrs } = terms(ctx);
  const aimed = actionsBySpace(ctx.legal || []);
  let svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="the road, columns 1 to ${cols} West to East, lanes 1 to ${lanes} North to South">`;
  svg += `<rect width="${W}" height="${H}" rx="12" fill="#2d3036"/>`;
  svg += `<text class="axis" x="${LEFT - 6}" y="${TOP - 10}" text-anchor="end" font-size="11" fill="#aab">column</text>`;
  for (let c = 0; c < cols; c++) {
    svg += `<text class="axis" x="${LEFT + c * CELL + CELL / 2}" y="${TOP - 10}" text-anchor="middle" font-size="12" font-weight="700" fill="#cdd">${c + 1}</text>`;
    for (let l = 0; l < lanes; l++) {
      const space = `c${c + 1}l${l + 1}`;
      const move = (aimed.get(space) || []).find(([verb]) => MOVE_VERBS.includes(verb));
      const attr = move ? ` data-action="${esc(move[1])}"` : "";
      const panel = Math.floor(c / 4) % 2 ? "#3a3e45" : "#34373e";
      const words = placeWords(space) + (move ? `: ${verbWords(move[0], move[2], glossary)}` : "");
      svg += `<rect${attr} class="square" data-space="${space}" x="${LEFT + c * CELL + 1}" y="${TOP + l * CELL + 1}" width="${CELL - 2}" height="${CELL - 2}" fill="${panel}" stroke="#4a4f58"><title>${esc(words)}</title></rect>`;
    }
  }
  for (let l = 0; l < lanes; l++) {
    svg += `<text class="axis" x="${LEFT - 6}" y="${TOP + l * CELL + CELL / 2 + 4}" text-anchor="end" font-size="11" fill="#cdd">lane ${l + 1}</text>`;
  }
  svg += `<text x="${W - PAD}" y="${H - 3}" text-anchor="end" font-size="11" fill="#aab">East ▶</text>`;
  for (const piece of view.pieces || []) {
    const at = place(piece.space);
    if (!at) continue;
    const [x, y] = centre(...at);
    const acts = (aimed.get(piece.space) || []).filter(([verb]) => PIECE_VERBS.includes(verb));
    const attr = acts.length ? ` data-action="${esc(acts[0][1])}"` : "";
    svg += `<g class="piece" data-piece="${piece.id}"${attr}${pieceTip(piece, view, ctx)}>${vehicleShape(piece, x, y, ctx, seats)}</g>`;
    acts.forEach(([verb, a, card], i) => {
      const bx = x - CELL / 2 + 9 + i * 15, by = y + CELL / 2 - 9;
      svg += `<g data-action="${esc(a)}"><title>${esc(verbWords(verb, card, glossary))}</title><circle cx="${bx}" cy="${by}" r="7" fill="#f5f5f5" stroke="#111"/>` +
        `<text x="${bx}" y="${by + 4}" text-anchor="middle" font-size="9" font-weight="700" fill="#111">${BADGE[verb] || "?"}</text></g>`;
    });
    if (view.ramsey && view.ramsey === piece.space) {
      svg += `<text class="ramsey" x="${x + CELL / 2 - 8}" y="${y + 4}" font-size="12" fill="#ff66cc" font-weight="700"${tipAttrs("ramsey", "Ramsey")}>R</text>`;
    }
  }
  const chopper = place(view.chopper);
  if (chopper) {
    const [x, y] = centre(...chopper);
    svg += `<g class="chopper"${tipAttrs("chopper", "Chopper")}><circle cx="${x}" cy="${y}" r="${CELL * 0.42}" fill="none" stroke="#00bcd4" stroke-width="3" stroke-dasharray="6 4"/>` +
      `<text x="${x}" y="${y - CELL * 0.28}" text-anchor="middle" font-size="10" font-weight="700" fill="#00bcd4">CHOPPER</text></g>`;
  }
  return svg + "</svg>";
}

function cardRows(view, ctx) {
  const legal = new Set(ctx.legal || []);
  const { term } = terms(ctx);
  const cards = view.enemy_row_cards || [];
  const enemy = (view.enemy_row || []).map((id, i, row) => {
    const last = i === row.length - 1;
    const next = i === row.length - 2;
    const spot = last ? "ACTIVATE!" : `spot ${i + 1}${next ? " · activates next" : ""}`;
    const card = cards[i];
    if (!card) return `<div class="hh-card enemy${next ? " next" : ""}"><div class="muted">${spot}</div><b>–</b></div>`;
    const reveal = last ? "" : `<div class="hh-effect"><span class="muted">Revealed:</span> ${esc(card.reveal)}</div>`;
    const when = last ? "Has done" : "At ACTIVATE!";
    const activated = `<div class="hh-effect activated"><span class="muted">${when}:</span> ${esc(card.activated || "nothing")}</div>`;
    return `<div class="hh-card enemy${next ? " next" : ""}" data-card="${esc(card.card)}"><div class="muted">${spot}</div><b>${term(card.card, card.name)}</b>${reveal}${activated}</div>`;
  }).join("");
  const stunts = (view.stunt_row || []).map((card, i) => {
    if (!card) return `<div class="hh-card stunt"><div class="muted">spot ${i + 1}</div>–</div>`;
    const plain = `stunt:${card.card}`;
    const attr = legal.has(plain) ? ` data-action="${esc(plain)}"` : "";
    let tokens = card.level === 3 ? "may be tried again and again" : `${card.tokens} Boost token${card.tokens === 1 ? "" : "s"}`;
    if (card.level !== 3 && !card.tokens) tokens = "used up";
    return `<div class="hh-card stunt"${attr} data-card="${esc(card.card)}"><div class="muted">spot ${i + 1} · level ${card.level} · ${tokens}</div><b>${term(card.card, card.name)}</b>` +
      `<div class="hh-effect"><span class="muted">${esc(card.roll || "")}:</span> ${esc(card.text || "")}</div></div>`;
  }).join("");
  return `<div class="hh-row"><span class="muted">Enemy cards (deck ${view.enemy_deck_size ?? "?"}), moving toward ACTIVATE!:</span>${enemy}</div>` +
    `<div class="hh-row"><span class="muted">Stunts, East to West (deck ${view.stunt_deck_size ?? "?"}):</span>${stunts}</div>`;
}

function seatCards(view, ctx) {
  const { term } = terms(ctx);
  return (view.seats || []).map((s) => {
    const colour = ctx.colours[s.seat % ctx.colours.length];
    const me = s.seat === ctx.seat ? " me" : "";
    const r = s.ratings || {};
    const strength = s.vehicle ? `strength ${s.strength - s.damage} of ${s.strength}` : "no vehicle";
    const state = s.exhausted ? "Exhausted" : view.active === s.seat ? "playing" : "ready";
    const power = s.power_name ? ` · ${term(s.power, s.power_name)}` : "";
    const vehicle = s.vehicle ? `${term(s.vehicle, s.vehicle_name)}${s.vehicle_power_name ? ` (${term(s.vehicle_power, s.vehicle_power_name)})` : ""} in ${esc(s.vehicle_place || "")} · ` : "";
    return `<div class="racer-card${me}"><div><span class="swatch" style="background:${colour}"></span>
      <b>${esc((ctx.names || [])[s.seat] || `P${s.seat + 1}`)}</b> ${term(s.character, s.character_name)}${power} · ${esc(state)}</div>
      <div class="muted">${vehicle}${esc(strength)} · ${esc(s.peg_place || "")}</div>
      <div class="muted">Speed ${r.speed ?? "–"} · Control ${r.control ?? "–"} · Athletics ${r.athletics ?? "–"} · Defense ${r.defense ?? "–"} · Boost tokens ${s.boost} of ${s.boost_cap}</div></div>`;
  }).join("");
}

function status(view, ctx) {
  const { term } = terms(ctx);
  const t = view.track || {};
  const names = ctx.names || [];
  let text = `${term(view.scenario, view.scenario_name)} · ${esc(view.difficulty_name || "")} · round ${view.round ?? "–"} · ${term(t.name, t.label)} ${t.value ?? 0} of ${t.goal ?? "?"}`;
  if (view.scenario === "semi-heist") {
    text += ` · Cargo in the Semi ${view.cargo_in_semi} · lost ${view.lost_cargo} · door ${view.door_open ? "open" : "closed"}`;
  }
  const roll = view.roll;
  if (roll) {
    const who = esc(names[roll.seat] || `P${roll.seat + 1}`);
    text += roll.kind === "action"
      ? ` · ${who} rolls ${roll.dice} dice for ${esc(roll.label)} (needs ${roll.need})`
      : ` · ${who} defends against ${roll.damage} damage with ${roll.dice} dice`;
  }
  if (view.outcome) text += ` · the team ${view.outcome === "win" ? "wins" : "loses"}: ${esc(view.reason)}`;
  let out = `<p><b>${text}</b></p>`;
  if (view.choice) out += `<p class="hh-choice">${esc(view.choice.text || "")}</p>`;
  return out;
}

// The pieces on the road now, each with its effect one tap away (the terminal's key).
function key(view, ctx) {
  const { term } = terms(ctx);
  const items = (view.key || []).map((k) => term(k.kind, k.name));
  return items.length ? `<div class="hh-row"><span class="muted">On the road:</span> ${items.join(" · ")}</div>` : "";
}

// What an open window of several seats is (the page's banner says it, instead of "everyone chooses at
// once"): the team picking who plays next (Playing the Game: any player not yet Exhausted may take the
// turn, the first to take it plays), the Assist window, or a power used on another player's roll.
const POWER_WINDOWS = { tech: ["tech_support", "Tech Support", "may spend a Tej token on this roll"],
  family: ["family_first", "Family First", "may take this slam for a team mate"] };

export function banner(view, ctx) {
  if (view.stage === "choose-turn") {
    return "the team picks who plays next: any player not yet Exhausted may take the next turn (the first to take it plays it)";
  }
  if (view.stage === "assist") {
    const roller = view.roll ? ctx.names[view.roll.seat] : "the roller";
    return `the team may Assist ${roller}'s roll: each player with a Boost token assists or passes, in any order`;
  }
  if (view.stage === "power" && view.power) {
    const what = POWER_WINDOWS[String(view.power.power || "")];
    if (!what) return `${ctx.names[view.power.seat] ?? "a player"} may use a Special Power now or pass`;
    const name = (ctx.glossary && ctx.glossary[what[0]] && ctx.glossary[what[0]].name) || what[1];
    return `${ctx.names[view.power.seat] ?? "a player"} ${what[2]} (${name}) or pass`;
  }
  return null;
}

export function draw(view, ctx) {
  const style = `<style>.hh-row{display:flex;flex-wrap:wrap;gap:6px;align-items:flex-start;margin:6px 0}
    .hh-row>.muted:first-child{flex-basis:100%}
    .hh-card{border:1px solid #888;border-radius:6px;padding:4px 8px;min-width:110px;max-width:240px;flex:1 1 180px;background:#f7f7f7;color:#111;font-size:.85rem}
    .hh-card .muted{color:#555}.hh-card.enemy{border-color:#c0392b}.hh-card.enemy.next{box-shadow:0 0 0 2px #e67e22}
    .hh-card.stunt{border-color:#2980b9}.hh-effect{margin-top:2px}.hh-effect.activated{color:#8e1b10}
    .hh-choice{margin:.2rem 0}</style>`;
  return `${style}${status(view, ctx)}${road(view, ctx)}${key(view, ctx)}${cardRows(view, ctx)}<div class="racer-cards">${seatCards(view, ctx)}</div>`;
}
