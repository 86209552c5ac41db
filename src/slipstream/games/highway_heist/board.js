// Highway Heist: the road (12 columns West to East, 6 lanes), the vehicles, Wrecks, the Main Enemy,
// Enemy and Player Pegs, Cargo and Ramsey; the Enemy-card row and the Stunt row; each seat's boards.
// Reads only the seat's view (see slipstream/games/highway_heist, HeistState._view). Squares and
// vehicles are clickable: a square carries the move to it (drive, to), a vehicle its first action and a
// small badge for each other action on it (ram, force, leap, stunt, slam, hit, peg, remove, ramsey).
import { esc } from "/static/common.js";

const CELL = 56;
const PAD = 26;
const ENEMY = { "enemy-suv": "#c0392b", tank: "#556b2f", "semi-cab": "#7f8c8d", "semi-trailer": "#95a5a6", "shaw-car": "#2c3e50" };
const LETTER = { "enemy-suv": "SUV", tank: "TANK", "semi-cab": "CAB", "semi-trailer": "TRAILER", "shaw-car": "SHAW", wreck: "WRECK", abandoned: "OLD" };
const MOVE_VERBS = ["to", "drive"];
const PIECE_VERBS = ["slam", "hit", "peg", "remove", "ramsey", "ram", "force", "leap", "stunt", "act"];
const BADGE = { slam: "!", hit: "!", peg: "P", remove: "x", ramsey: "R", ram: "⚔", force: "F", leap: "L", stunt: "★", act: "A" };

function place(space) {
  const m = /^c(\d+)l(\d+)$/.exec(space || "");
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

function centre(col, lane) {
  return [PAD + col * CELL + CELL / 2, PAD + lane * CELL + CELL / 2];
}

// The legal actions aimed at each space: "drive:c5l3", "stunt:ta-s1a@c5l3", ... -> {c5l3: [...]}.
function actionsBySpace(legal) {
  const out = new Map();
  for (const a of legal) {
    const m = /^(?:\d+:)?([a-z-]+):(?:[a-z0-9-]+@)?(c\d+l\d+)$/.exec(a);
    if (!m) continue;
    const [, verb, space] = m;
    if (!out.has(space)) out.set(space, []);
    out.get(space).push([verb, a]);
  }
  return out;
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
  let svg = `<g transform="translate(${x},${y})"><rect x="${-w / 2}" y="${-h / 2}" width="${w}" height="${h}" rx="8" fill="${fill}" stroke="${stroke}" stroke-width="2"/>`;
  svg += `<text y="4" text-anchor="middle" font-size="11" font-weight="700" fill="#fff">${esc(label)}</text>`;
  if (piece.enemy_peg) svg += `<circle cx="${w / 2 - 6}" cy="${-h / 2 - 2}" r="6" fill="#e74c3c" stroke="#111"><title>Enemy Peg</title></circle>`;
  (piece.player_pegs || []).forEach((s, i) => {
    svg += `<circle cx="${-w / 2 + 6 + i * 13}" cy="${-h / 2 - 2}" r="6" fill="${ctx.colours[s % ctx.colours.length]}" stroke="#fff"><title>P${s + 1} on top</title></circle>`;
  });
  for (let i = 0; i < (piece.cargo || 0); i++) {
    svg += `<rect x="${-w / 2 + 4 + i * 9}" y="${h / 2 - 3}" width="7" height="7" fill="#f1c40f" stroke="#111"><title>Cargo</title></rect>`;
  }
  return svg + `</g>`;
}

function road(view, ctx) {
  const cols = view.road?.columns || 12, lanes = view.road?.lanes || 6;
  const W = PAD * 2 + cols * CELL, H = PAD * 2 + lanes * CELL;
  const seats = view.seats || [];
  const aimed = actionsBySpace(ctx.legal || []);
  let svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="road">`;
  svg += `<rect width="${W}" height="${H}" rx="12" fill="#2d3036"/>`;
  for (let c = 0; c < cols; c++) {
    svg += `<text x="${PAD + c * CELL + CELL / 2}" y="${PAD - 8}" text-anchor="middle" font-size="11" fill="#aab">${c + 1}</text>`;
    for (let l = 0; l < lanes; l++) {
      const space = `c${c + 1}l${l + 1}`;
      const move = (aimed.get(space) || []).find(([verb]) => MOVE_VERBS.includes(verb));
      const attr = move ? ` data-action="${esc(move[1])}"` : "";
      const panel = Math.floor(c / 4) % 2 ? "#3a3e45" : "#34373e";
      svg += `<rect${attr} class="square" data-space="${space}" x="${PAD + c * CELL + 1}" y="${PAD + l * CELL + 1}" width="${CELL - 2}" height="${CELL - 2}" fill="${panel}" stroke="#4a4f58"><title>${space}${move ? `: ${esc(move[1])}` : ""}</title></rect>`;
    }
  }
  for (let l = 0; l < lanes; l++) {
    svg += `<text x="${PAD - 12}" y="${PAD + l * CELL + CELL / 2 + 4}" text-anchor="middle" font-size="11" fill="#aab">${l + 1}</text>`;
  }
  svg += `<text x="${W - PAD}" y="${H - 6}" text-anchor="end" font-size="11" fill="#aab">East ▶</text>`;
  for (const piece of view.pieces || []) {
    const at = place(piece.space);
    if (!at) continue;
    const [x, y] = centre(...at);
    const acts = (aimed.get(piece.space) || []).filter(([verb]) => PIECE_VERBS.includes(verb));
    const attr = acts.length ? ` data-action="${esc(acts[0][1])}"` : "";
    svg += `<g class="piece" data-piece="${piece.id}"${attr}><title>${esc(piece.kind)} at ${esc(piece.space)}${acts.length ? `: ${esc(acts[0][1])}` : ""}</title>${vehicleShape(piece, x, y, ctx, seats)}</g>`;
    acts.forEach(([verb, a], i) => {
      const bx = x - CELL / 2 + 9 + i * 15, by = y + CELL / 2 - 9;
      svg += `<g data-action="${esc(a)}"><title>${esc(a)}</title><circle cx="${bx}" cy="${by}" r="7" fill="#f5f5f5" stroke="#111"/>` +
        `<text x="${bx}" y="${by + 4}" text-anchor="middle" font-size="9" font-weight="700" fill="#111">${BADGE[verb] || "?"}</text></g>`;
    });
    if (view.ramsey && view.ramsey === piece.space) {
      svg += `<text x="${x + CELL / 2 - 8}" y="${y + 4}" font-size="12" fill="#ff66cc" font-weight="700"><title>Ramsey</title>R</text>`;
    }
  }
  const chopper = place(view.chopper);
  if (chopper) {
    const [x, y] = centre(...chopper);
    svg += `<g><title>the Chopper (hovers; shares a space)</title><circle cx="${x}" cy="${y}" r="${CELL * 0.42}" fill="none" stroke="#00bcd4" stroke-width="3" stroke-dasharray="6 4"/>` +
      `<text x="${x}" y="${y - CELL * 0.28}" text-anchor="middle" font-size="10" font-weight="700" fill="#00bcd4">CHOPPER</text></g>`;
  }
  return svg + "</svg>";
}

function cardRows(view, ctx) {
  const legal = new Set(ctx.legal || []);
  const enemy = (view.enemy_row || []).map((card, i, row) => {
    const spot = i === row.length - 1 ? "ACTIVATE!" : `spot ${i + 1}`;
    const name = card && view.enemy_row_names ? view.enemy_row_names[i] : null;
    if (!name) return `<div class="hh-card enemy"><div class="muted">${spot}</div><b>${esc(card || "–")}</b></div>`;
    return `<div class="hh-card enemy"><div class="muted">${spot}</div><b>${esc(name)}</b><div class="muted">${esc(card)}</div></div>`;
  }).join("");
  const stunts = (view.stunt_row || []).map((card, i) => {
    if (!card) return `<div class="hh-card stunt"><div class="muted">spot ${i + 1}</div>–</div>`;
    const plain = `stunt:${card.card}`;
    const attr = legal.has(plain) ? ` data-action="${esc(plain)}"` : "";
    const tokens = card.level === 3 ? "repeatable" : `${card.tokens} Boost token(s)`;
    return `<div class="hh-card stunt"${attr}><div class="muted">spot ${i + 1} · level ${card.level}</div><b>${esc(card.name)}</b><div class="muted">${esc(card.card)} · ${tokens}</div></div>`;
  }).join("");
  return `<div class="hh-row"><span class="muted">Enemy cards (deck ${view.enemy_deck_size ?? "?"}):</span>${enemy}</div>` +
    `<div class="hh-row"><span class="muted">Stunts, East to West (deck ${view.stunt_deck_size ?? "?"}):</span>${stunts}</div>`;
}

function seatCards(view, ctx) {
  return (view.seats || []).map((s) => {
    const colour = ctx.colours[s.seat % ctx.colours.length];
    const me = s.seat === ctx.seat ? " me" : "";
    const r = s.ratings || {};
    const strength = s.vehicle ? `strength ${s.strength - s.damage}/${s.strength}` : "no vehicle";
    const peg = s.peg === "wheel" ? "behind the wheel" : s.peg ? `on top of ${s.peg}` : "off the road";
    const state = s.exhausted ? "exhausted" : view.active === s.seat ? "playing" : "ready";
    return `<div class="racer-card${me}"><div><span class="swatch" style="background:${colour}"></span>
      <b>${esc(ctx.names[s.seat] || `P${s.seat + 1}`)}</b> <span class="muted">${esc(s.character)} (${esc(s.power)})</span> · ${esc(state)}</div>
      <div class="muted">${esc(s.vehicle || "")} ${esc(s.vehicle_space || "")} · ${esc(strength)} · ${esc(peg)}</div>
      <div class="muted">Speed ${r.speed ?? "–"} · Control ${r.control ?? "–"} · Athletics ${r.athletics ?? "–"} · Defense ${r.defense ?? "–"} · Boost ${s.boost}/${s.boost_cap}</div></div>`;
  }).join("");
}

function status(view) {
  const t = view.track || {};
  let text = `${esc(view.scenario || "")} · ${esc(view.difficulty || "")} · round ${view.round ?? "–"} · ${esc(String(t.name || "").replace(/_/g, " "))} ${t.value ?? 0}/${t.goal ?? "?"}`;
  if (view.scenario === "semi-heist") {
    text += ` · Cargo in the Semi ${view.cargo_in_semi} · lost ${view.lost_cargo} · door ${view.door_open ? "open" : "closed"}`;
  }
  const roll = view.roll;
  if (roll) {
    text += roll.kind === "action"
      ? ` · P${roll.seat + 1} rolls ${roll.dice} dice for ${esc(roll.action)} (needs ${roll.need})`
      : ` · P${roll.seat + 1} defends against ${roll.damage} with ${roll.dice} dice`;
  }
  if (view.outcome) text += ` · the team ${view.outcome === "win" ? "wins" : "loses"}: ${esc(view.reason)}`;
  return `<p><b>${text}</b></p>`;
}

// What an open window of several seats is (the page's banner says it, instead of "everyone chooses at
// once"): the team picking who plays next (Playing the Game: any player not yet Exhausted may take the
// turn, the first to take it plays), the Assist window, or a power used on another player's roll.
const POWER_WINDOWS = { tech: "may spend a Tej token on this roll (Tech Support) or pass",
  family: "may take this slam for a team mate (Family First) or pass" };

export function banner(view, ctx) {
  if (view.stage === "choose-turn") {
    return "the team picks who plays next: any player not yet Exhausted may take the next turn (the first to take it plays it)";
  }
  if (view.stage === "assist") {
    const roller = view.roll ? ctx.names[view.roll.seat] : "the roller";
    return `the team may Assist ${roller}'s roll: each player with a Boost token assists or passes, in any order`;
  }
  if (view.stage === "power" && view.power) {
    const power = String(view.power.power || "");
    const what = Object.entries(POWER_WINDOWS).find(([key]) => power.includes(key));
    return `${ctx.names[view.power.seat] ?? "a player"} ${what ? what[1] : `may use ${power} now or pass`}`;
  }
  return null;
}

export function draw(view, ctx) {
  const style = `<style>.hh-row{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0}
    .hh-card{border:1px solid #888;border-radius:6px;padding:4px 8px;min-width:110px;background:#f7f7f7;color:#111}
    .hh-card.enemy{border-color:#c0392b}.hh-card.stunt{border-color:#2980b9}</style>`;
  return `${style}${status(view)}${road(view, ctx)}${cardRows(view, ctx)}<div class="racer-cards">${seatCards(view, ctx)}</div>`;
}
