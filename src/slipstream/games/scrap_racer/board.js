// Scrap Racer: the track as a stadium oval of spaces (read clockwise from the finish line at the top
// left), boost markers on their spaces, the racers on the track, and each racer's dashboard.
// Reads only the seat's view (see slipstream/games/scrap_racer/game.py, view()). A racer is drawn in
// its player's seat colour (the page's one colour per seat) with its racer's letter, ringed in one dark
// colour no seat has (white for the racer on turn). Racers, cards and boost markers are shown by name,
// each with its effect as a tip (hover, focus or tap), from the match's glossary (ctx.glossary), or the
// one the view carries (view.terms) in its absence.
import { boardGlossary, esc, term, termName, tipAttrs } from "/static/common.js";
import { crowd, label, stadium } from "/static/track.js";

const LETTER = { swifty: "W", jackal: "J", crusher: "C", hover: "H", twister: "T", "steel-jacket": "S" };
const RING = "#0b0d10"; // a racer token's ring: no seat's colour
const PHASES = { setup: "dealing the dashboards", order: "choosing the order", roll: "rolling", decide: "roll again or stop",
  cards: "bonus cards before the move", "cards-after": "bonus cards after the move", resolving: "moving",
  "fight-choice": "choosing a fight's winner", over: "race over" };

// The boost marker types and the moves each plays (``boost:<use>``, notation.py), as shown on a chip.
const BOOST_USES = { "plus-minus": [["boost:up", "+1"], ["boost:down", "−1"]], reroll: [["boost:reroll", "re-roll"]], turn: [["boost:turn", "turn over"]] };
const BOOST_TITLES = { "boost:up": "boost marker: +1 on this die", "boost:down": "boost marker: −1 on this die",
  "boost:reroll": "boost marker: re-roll this die", "boost:turn": "boost marker: turn this die over" };
const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

function seatColour(ctx, seat) {
  return ctx.colours[seat % ctx.colours.length];
}

export function draw(view, ctx) {
  const gl = boardGlossary(view, ctx);
  const track = view.track;
  const n = track.length;
  const [W, H] = ctx.narrow ? [540, 420] : [760, 380];
  const pad = 34;
  const g = stadium(n, W, H, pad);
  const size = Math.min(15, g.step * 0.46);
  let svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(track.name)}">`;
  svg += `<rect width="${W}" height="${H}" rx="16" fill="#1b2a1b"/>`;
  svg += `<rect x="${g.cx1}" y="${g.cy - g.R + size + 6}" width="${g.L}" height="${2 * (g.R - size - 6)}" rx="${g.R - size - 6}" fill="#233523"/>`;
  const filled = new Set(view.boost_spaces_filled);
  const boostSpaces = new Set(track.boost_spaces);
  g.points.forEach(([x, y, a], i) => {
    const curve = track.kinds[i] === "C";
    const deg = (a * 180) / Math.PI;
    svg += `<g class="track-space" data-space="${i}" transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${deg.toFixed(1)})">`;
    svg += `<rect x="${-size}" y="${-size}" width="${2 * size}" height="${2 * size}" rx="3" fill="${curve ? "#5a4a3a" : "#555c66"}" stroke="${boostSpaces.has(i) ? "#ffb400" : "#2b2f36"}" stroke-width="${boostSpaces.has(i) ? 2 : 1}"/>`;
    if (filled.has(i)) svg += `<text y="5" text-anchor="middle" font-size="14" fill="#ffb400">★</text>`;
    svg += `</g>`;
    if ((i + 1) % 4 === 1) svg += label([x, y], W, H, i + 1);
  });
  const [fx, fy] = g.points[0];
  svg += `<line x1="${fx - size - 2}" y1="${fy - size - 6}" x2="${fx - size - 2}" y2="${fy + size + 6}" stroke="#fff" stroke-width="4" stroke-dasharray="3 3"/>`;
  const here = new Map();
  for (const r of view.racers) if (r.space !== null && r.id) here.set(r.space, [...(here.get(r.space) || []), r]);
  for (const [space, racers] of here) {
    const [x, y] = g.points[space];
    const spread = crowd(racers.length, size * 0.8, g.points[space][2]); // side by side, none covering another
    racers.forEach((r, k) => {
      const [dx, dy] = spread.at[k];
      const ring = view.active === r.slot ? ' stroke="#fff" stroke-width="3"' : ` stroke="${RING}" stroke-width="2.5"`;
      const me = r.seat === ctx.seat ? " me" : "";
      const drive = r.slot === view.active ? driveAction(ctx) : null;
      const click = drive ? ` data-action="${drive}"` : "";
      svg += `<g class="racer${me}" data-seat="${r.seat}" data-space="${space}" data-distance="${r.progress}"${click}><title>${esc(r.name || "")} (${esc(ctx.names[r.seat] || "")})</title><circle cx="${(x + dx).toFixed(1)}" cy="${(y + dy).toFixed(1)}" r="${spread.r.toFixed(1)}" fill="${seatColour(ctx, r.seat)}"${ring}/>`;
      svg += `<text x="${(x + dx).toFixed(1)}" y="${(y + dy + 4).toFixed(1)}" text-anchor="middle" font-size="${Math.round(spread.r)}" font-weight="700" fill="#fff">${esc(LETTER[r.id] || "?")}</text></g>`;
    });
  }
  // Racers not yet on the track wait in a row inside the oval, just after the finish line, one beside the other.
  const waiting = view.racers.filter((r) => r.space === null && r.id);
  if (waiting.length) svg += `<text x="${fx - 4}" y="${fy + size + 20}" font-size="11" fill="#aab" text-anchor="end">before the line</text>`;
  waiting.forEach((r, k) => {
    const drive = r.slot === view.active ? driveAction(ctx) : null;
    const me = r.seat === ctx.seat ? " me" : "";
    const [cx, cy] = [fx + 8 + k * 24, fy + size + 16];
    const ring = view.active === r.slot ? ' stroke="#fff" stroke-width="3"' : ` stroke="${RING}" stroke-width="2"`;
    svg += `<g class="racer waiting${me}" data-seat="${r.seat}"${drive ? ` data-action="${drive}"` : ""}><title>${esc(r.name || "")} (${esc(ctx.names[r.seat] || "")}), before the line</title>`
      + `<circle cx="${cx}" cy="${cy}" r="10" fill="${seatColour(ctx, r.seat)}"${ring}/>`
      + `<text x="${cx}" y="${cy + 4}" text-anchor="middle" font-size="11" font-weight="700" fill="#fff">${esc(LETTER[r.id] || "?")}</text></g>`;
  });
  svg += `<text x="${W / 2}" y="${H / 2 - 16}" text-anchor="middle" font-size="20" font-weight="700" fill="#e9ecf2">${esc(track.name)}</text>`;
  svg += `<text x="${W / 2}" y="${H / 2 + 8}" text-anchor="middle" font-size="13" fill="#aab">Round ${view.round} · ${esc(PHASES[view.phase] || view.phase)}${view.end_round ? " · final round" : ""}</text>`;
  svg += diceTray(view, ctx, gl, W, H / 2 + 32);
  svg += `</svg>`;
  const rows = view.standings.map((slot, place) => {
    const r = view.racers[slot];
    const boosts = Object.entries(r.boost_markers).filter(([, k]) => k).map(([t, k]) => boostCell(gl, t, k, slot === view.active ? ctx.legal : [])).join(", ") || "–";
    const me = r.seat === ctx.seat ? ' class="me"' : "";
    return `<tr${me}><td>${place + 1}</td><td><span class="swatch" style="background:${seatColour(ctx, r.seat)}"></span> ${r.id ? term(gl, r.id, r.name) : "?"} (${esc(LETTER[r.id] || "?")})</td>
      <td>${esc(ctx.names[r.seat] ?? view.seats[r.seat])}</td><td>${r.laps}</td><td>${r.space === null ? "–" : r.space + 1}</td>
      <td class="boosts">${boosts}</td><td>${r.bonus_markers}</td><td>${view.bonus_cards_held[String(r.seat)] ?? 0}</td></tr>`;
  }).join("");
  let html = `${svg}<table class="view-table dash"><tr><th>#</th><th>racer</th><th>player</th><th>laps</th><th>space</th><th>boost markers</th><th>bonus mk</th><th>cards</th></tr>${rows}</table>`;
  const mine = Object.entries(view.my_bonus_cards || {});
  // a bonus card the seat may play now is clicked to play it (the button stays for the keyboard)
  const card = (c, k) => {
    const play = ctx.legal.includes(`play:${c}`) ? ` data-action="play:${esc(c)}"` : "";
    return `<span class="playing-card bonus-card" data-card="${esc(c)}"${play}>${k}× ${term(gl, c, termName(gl, c))}</span>`;
  };
  if (mine.length) html += `<p class="bonus-hand">Your bonus cards: ${mine.map(([c, k]) => card(c, k)).join(" ")}</p>`;
  html += `<p class="muted decks">Decks: ${Object.entries(view.decks).map(([d, k]) => `${term(gl, d, termName(gl, d))} ${k}`).join(" · ")} · supply: ${view.supply.bonus_markers} bonus, ${view.supply.boost_markers} boost markers</p>`;
  return html;
}

// The move that drives the racer now: stop and move by the dice, or (after the bonus cards) move.
function driveAction(ctx) {
  return ["stop", "move"].find((a) => ctx.legal.includes(a)) || null;
}

// One die as a drawing: a face with its pips (``extra`` holds the attributes of a clickable die).
function dieFace(x, y, s, face, fill, extra = "", title = "") {
  let out = `<g class="sr-die" data-face="${esc(face)}"${extra}>${title ? `<title>${esc(title)}</title>` : ""}<rect x="${x}" y="${y}" width="${s}" height="${s}" rx="5" fill="${fill}" stroke="#111" stroke-width="1.5"/>`;
  for (const [px, py] of PIPS[face] || []) out += `<circle cx="${x + s / 2 + px * s * 0.26}" cy="${y + s / 2 + py * s * 0.26}" r="${s * 0.09}" fill="#111"/>`;
  if (!PIPS[face]) out += `<text x="${x + s / 2}" y="${y + s / 2 + 6}" text-anchor="middle" font-size="${s * 0.6}" font-weight="700" fill="#111">${esc(face)}</text>`;
  return out + "</g>";
}

// A chip of text on the board; clickable (data-action) when it plays a legal move.
function chipWidth(text) {
  return Math.max(44, 18 + text.length * 8);
}

function chip(x, y, text, action, title, tip = "") {
  const w = chipWidth(text);
  return `<g class="sr-chip" data-action="${esc(action)}"${tip}><title>${esc(title)}</title><rect x="${x - w / 2}" y="${y}" width="${w}" height="24" rx="12" fill="#ffb400"/>`
    + `<text x="${x}" y="${y + 16}" text-anchor="middle" font-size="13" font-weight="700" fill="#111">${esc(text)}</text></g>`;
}

// The dice of the racer rolling now, centred at y: the kept dice, the die just rolled (click it to take
// the crash card of a double), a blank die to roll another, "stop" with the total, and the boost markers
// the seat may use on this die. Every move here is also a button below the board.
function diceTray(view, ctx, gl, W, y) {
  if (view.active === null || view.active === undefined) return "";
  const dice = [...view.dice, ...(view.die ? [view.die] : [])];
  const legal = new Set(ctx.legal);
  if (!dice.length && !legal.has("roll")) return "";
  const who = view.racers[view.active];
  const s = 30, gap = 8;
  const total = dice.reduce((a, b) => a + b, 0);
  const more = legal.has("roll") ? 1 : 0;
  const width = (dice.length + more) * (s + gap) - gap;
  let x = W / 2 - width / 2;
  let out = `<text x="${W / 2}" y="${y}" text-anchor="middle" font-size="13" fill="#dde">${esc(who.name)} (${esc(ctx.names[who.seat] ?? "")}) · total ${total}</text>`;
  const top = y + 8;
  view.dice.forEach((d) => { out += dieFace(x, top, s, d, "#f2f2f2"); x += s + gap; });
  let dieX = null;
  if (view.die) {
    const crash = legal.has("crash") ? ' data-action="crash"' : "";
    const double = view.dice.includes(view.die);
    out += dieFace(x, top, s, view.die, double ? "#ff8a8a" : "#ffe08a", crash, crash ? "a double: accept the crash card" : "the die just rolled");
    dieX = x + s / 2;
    x += s + gap;
  }
  if (more) {
    out += `<g class="sr-die" data-action="roll"><title>roll another die</title><rect x="${x}" y="${top}" width="${s}" height="${s}" rx="5" fill="#2b3140" stroke="#ffb400" stroke-width="2" stroke-dasharray="4 3"/>`
      + `<text x="${x + s / 2}" y="${top + s / 2 + 7}" text-anchor="middle" font-size="20" font-weight="700" fill="#ffb400">+</text></g>`;
  }
  const boosts = Object.entries(BOOST_USES).flatMap(([type, uses]) => uses.map(([a, text]) => [a, text, type])).filter(([a]) => legal.has(a));
  const row = top + s + 8;
  if (boosts.length) {
    const widths = boosts.map(([, text]) => chipWidth(text));
    const span = widths.reduce((a, b) => a + b, 0) + 6 * (boosts.length - 1);
    let bx = Math.max(40, Math.min(W - 40 - span, (dieX ?? W / 2) - span / 2));
    boosts.forEach(([a, text, type], k) => { out += chip(bx + widths[k] / 2, row, text, a, BOOST_TITLES[a], tipAttrs(gl, type)); bx += widths[k] + 6; });
  }
  const drive = driveAction(ctx);
  if (drive) out += chip(W / 2, row + (boosts.length ? 30 : 0), `${drive === "stop" ? "stop" : "move"}: ${total} space${total === 1 ? "" : "s"}`, drive, drive === "stop" ? "stop and move by the dice" : "move by the dice total");
  return out;
}

// A racer's boost markers in the dashboard; the rolling racer's (``legal``: its seat's moves, else none)
// are clicked to use them on the die.
function boostCell(gl, type, count, legal) {
  const uses = (BOOST_USES[type] || []).filter(([a]) => legal.includes(a));
  const name = `${count}× ${term(gl, type, termName(gl, type))}`;
  if (!uses.length) return name;
  return `${name} ${uses.map(([a, text]) => `<button type="button" class="boost-use" data-action="${a}" title="${esc(BOOST_TITLES[a])}">${esc(text)}</button>`).join(" ")}`;
}
