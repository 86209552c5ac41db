// BRC Grand Prix: the circuit as a stadium of spaces with its flag spaces, the pit lane with its
// boxes, the cars (seat colour, tyre compound letter) and the timing screen.
// Reads only the seat's view (see slipstream/games/brc_grand_prix/state.py, view()). Flag cards, the
// effects a car holds, flag spaces and tyres are shown by name, each with its effect as a tip (hover,
// focus or tap), from the match's glossary (ctx.glossary), or the one the view carries (view.terms).
// A flag space is marked by a striped pennant with its letter (G, Y, B), never a plain disc or a plain
// colour: the cars are discs in the seats' colours, and two of those are a green and a blue.
import { boardGlossary, esc, term, termName, tipAttrs } from "/static/common.js";
import { crowd, label, space, stadium } from "/static/track.js";

const FLAG = { blue: "#3b7bff", green: "#2fbf4f", yellow: "#ffd21f", red: "#e6194b", white: "#ffffff", black: "#111111" };
const STEPS = { tyres: "starting tyres", "grid-roll-off": "grid roll-off", qualifying: "qualifying", roll: "rolling",
  "pit-choice": "pit or stay out", overtake: "overtake or play safe", attack: "the Attack Die", flag: "a flag card",
  "pit-box": "at the pit box", over: "race over" };

// The striped fills of the flag pennants (one per colour), defined once in the board's drawing.
function flagPatterns() {
  return `<defs>${Object.entries({ green: FLAG.green, yellow: FLAG.yellow, blue: FLAG.blue }).map(([name, colour]) =>
    `<pattern id="flag-${name}" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">`
    + `<rect width="4" height="4" fill="#f4f4f4"/><rect width="2" height="4" fill="${colour}"/></pattern>`).join("")}</defs>`;
}

// A flag space's mark: a striped pennant on a pole, with the colour's letter beside it.
function flagMark(flag) {
  return `<path d="M-7 10 L-7 -10" stroke="#f4f4f4" stroke-width="1.5"/><path d="M-7 -10 L9 -4.5 L-7 1 Z" fill="url(#flag-${flag})" stroke="#111" stroke-width=".8"/>`
    + `<text x="5" y="10" font-size="9" font-weight="700" fill="#f4f4f4" text-anchor="middle">${esc(flag[0].toUpperCase())}</text>`;
}
const TYRE = { soft: "#e6194b", medium: "#ffd21f", hard: "#f0f0f0", wet: "#3b7bff", inter: "#2fbf4f", intermediate: "#2fbf4f" };

function car(x, y, c, ctx, size, active, action = null, defender = false) {
  const colour = ctx.colours[c.seat % ctx.colours.length];
  const tyre = String(c.tyre || "?");
  const ring = active ? ' stroke="#fff" stroke-width="3"' : ' stroke="#111" stroke-width="1.5"';
  const me = c.seat === ctx.seat ? " me" : "";
  const where = c.space !== null && c.space !== undefined && (c.pit === null || c.pit === undefined)
    ? ` data-space="${c.space}" data-distance="${c.dist}"` : "";
  const click = action ? ` data-action="${action}"` : "";
  return `<g class="racer${me}${defender ? " defender" : ""}" data-seat="${c.seat}"${where}${click}>${action ? `<title>${OVERTAKE_TITLES[action]}</title>` : ""}<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${size}" fill="${colour}"${ring}/>`
    + `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${size * 0.5}" fill="${TYRE[tyre] || "#999"}" stroke="#111"/>`
    + `<text x="${x.toFixed(1)}" y="${(y + 3.5).toFixed(1)}" text-anchor="middle" font-size="9" font-weight="700" fill="#111">${esc(tyre[0].toUpperCase())}</text></g>`;
}

const OVERTAKE_TITLES = { attempt: "attempt the overtake (the Attack Die)", safe: "play it safe: stop behind the Defender" };

// Before a Defender (Challenger's Choice): the Defender's car and the space ahead of it attempt the
// overtake; the space directly behind it plays it safe (where the rule stops the car). Space -> action.
function overtakeSpaces(view, ctx, n) {
  const out = new Map();
  const pending = view.pending || {};
  if (!ctx.legal.includes("attempt") || pending.defender === undefined || pending.defender === null) return out;
  const defender = view.cars.find((c) => c.seat === pending.defender);
  if (!defender || defender.space === null || defender.space === undefined) return out;
  out.set((defender.space + 1) % n, "attempt");
  if (ctx.legal.includes("safe")) out.set((defender.space - 1 + n) % n, "safe");
  return out;
}

export function draw(view, ctx) {
  const gl = boardGlossary(view, ctx);
  const n = view.track_length;
  const [W, H] = ctx.narrow ? [540, 440] : [780, 400];
  const pad = 34;
  const g = stadium(n, W, H, pad);
  const size = Math.min(14, g.step * 0.45);
  const board = view.board || {};
  const flags = board.flags || [];
  const active = view.pending && view.pending.seat;
  let svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="circuit">${flagPatterns()}`;
  svg += `<rect width="${W}" height="${H}" rx="16" fill="#1d2230"/>`;
  const overtake = overtakeSpaces(view, ctx, n);
  g.points.forEach((p, i) => {
    const flag = flags[i];
    const inner = flag ? `<g class="flag-mark">${flagMark(flag)}</g>` : "";
    const choice = overtake.get(i);
    const click = choice ? ` data-action="${choice}"` : "";
    const title = choice ? `<title>${OVERTAKE_TITLES[choice]}</title>` : flag ? `<title>${esc(termName(gl, flag))}, space ${i}</title>` : "";
    const fill = choice === "safe" ? "#2f6b3a" : choice === "attempt" ? "#7a3030" : "#4a505c";
    const marked = flag ? ` data-flag="${esc(flag)}"${tipAttrs(gl, flag)}` : ""; // a flag space tells what landing there does
    svg += `<g class="track-space" data-space="${i}"${marked}${click}>${title}${space(p, size, fill, "#2b2f36", 1, inner)}</g>`;
    if (i % 5 === 0) svg += label(p, W, H, i); // the spaces as the texts count them: 0 at the line
  });
  const [fx, fy] = g.points[0];
  svg += `<line x1="${fx - size - 2}" y1="${fy - size - 6}" x2="${fx - size - 2}" y2="${fy + size + 6}" stroke="#fff" stroke-width="4" stroke-dasharray="3 3"/>`;
  // the pit lane: a row of spaces inside the oval, boxes marked
  const pitN = board.pit_spaces || 0;
  const pitBoxes = new Set(board.pit_boxes || []);
  const pitY = g.cy - g.R + 2 * size + 26;
  // the pit lane stays inside the oval at its height: clear of every track space, on a phone too
  const inner = g.R - 2 * size - 6;
  const reach = g.L / 2 + Math.sqrt(Math.max(0, inner * inner - (pitY - g.cy) ** 2));
  const pitStep = pitN > 1 ? Math.min(2.4 * size, (2 * reach - 2 * size) / (pitN - 1)) : 0;
  const pitSize = Math.min(size * 0.85, pitStep * 0.45 || size * 0.85);
  const pitX0 = (g.cx1 + g.cx2) / 2 - ((pitN - 1) * pitStep) / 2;
  const pitPoint = (k) => [pitX0 + k * pitStep, pitY, 0];
  if (pitN) {
    if (ctx.legal.includes("pit")) {
      // click the pit lane to pit (the same as the "pit" button)
      svg += `<rect data-action="pit" x="${pitX0 - size - 4}" y="${pitY - size - 18}" width="${(pitN - 1) * pitStep + 2 * size + 8}" height="${2 * size + 24}" rx="6" fill="#ffb40022"><title>enter the pit lane</title></rect>`;
    }
    svg += `<text class="pit-label" x="${(g.cx1 + g.cx2) / 2}" y="${pitY - size - 5}" font-size="11" fill="#9aa" text-anchor="middle">pit lane</text>`;
    for (let k = 0; k < pitN; k++) svg += `<g class="pit-space">${space(pitPoint(k), pitSize, pitBoxes.has(k) ? "#6b5b2b" : "#3a404c", "#222", 1)}</g>`;
  }
  const onSpace = new Map(), inPit = new Map();
  const finished = (view.finish || []).map((s) => view.cars.find((c) => c.seat === s)).filter(Boolean);
  for (const c of view.cars) {
    if (c.finished) continue; // drawn apart, in finishing order
    if (c.pit !== null && c.pit !== undefined) inPit.set(c.pit, [...(inPit.get(c.pit) || []), c]);
    else if (c.space !== null && c.space !== undefined) onSpace.set(c.space, [...(onSpace.get(c.space) || []), c]);
  }
  // cars sharing a space (the pit lane allows it; the grid before the start, too) stand side by side
  for (const [i, cars] of onSpace) {
    const [x, y, angle] = g.points[i];
    const attempt = overtake.size ? view.pending.defender : null;
    // a car on a space that plays the choice plays it too (it covers most of the space)
    const choose = (c) => (c.seat === attempt ? "attempt" : overtake.get(i) || null);
    const spread = crowd(cars.length, size * 0.8, angle);
    cars.forEach((c, k) => { const [dx, dy] = spread.at[k]; svg += car(x + dx, y + dy, c, ctx, spread.r, c.seat === active, choose(c), c.seat === attempt); });
  }
  for (const [i, cars] of inPit) {
    const [x, y] = pitPoint(Math.min(i, Math.max(0, pitN - 1)));
    const spread = crowd(cars.length, size * 0.75, 0);
    cars.forEach((c, k) => { const [dx, dy] = spread.at[k]; svg += car(x + dx, y + dy, c, ctx, spread.r, c.seat === active); });
  }
  // the finishers in a row just past the line, inside the oval, in finishing order (none covering another)
  if (finished.length) {
    const r = size * 0.75;
    svg += `<text class="finished-label" x="${fx + 4}" y="${g.cy - g.R + 2 * size + 60}" font-size="11" fill="#9aa">finished</text>`;
    finished.forEach((c, k) => { svg += car(fx + 12 + r + k * (2 * r + 4), g.cy - g.R + 2 * size + 76, { ...c, space: null }, ctx, r, false); });
  }
  const laps = view.laps;
  const leader = view.cars.find((c) => c.position === 1);
  svg += `<text x="${W / 2}" y="${H / 2 + 10}" text-anchor="middle" font-size="20" font-weight="700" fill="#e9ecf2">Lap ${Math.min(leader ? leader.lap : 1, laps)} / ${laps}</text>`;
  const step = view.pending && view.pending.step ? ` · ${STEPS[view.pending.step] || view.pending.step}` : "";
  svg += `<text x="${W / 2}" y="${H / 2 + 32}" text-anchor="middle" font-size="13" fill="#aab">Weather ${esc(view.weather)} · round ${view.round}${esc(step)}${view.sprint ? " · sprint" : ""}</text>`;
  if (view.pit_window) svg += `<text x="${W / 2}" y="${H / 2 + 52}" text-anchor="middle" font-size="12" fill="#889">pit window: laps ${view.pit_window[0]}–${view.pit_window[1]}</text>`;
  // tyre choices as clickable tyres
  const tyreActions = ctx.legal.filter((a) => TYRE[a.split(":").pop()] || a.endsWith(":keep"));
  tyreActions.forEach((a, k) => {
    const x = W / 2 + (k - (tyreActions.length - 1) / 2) * 54, y = H / 2 + 86;
    const t = a.split(":").pop();
    const said = t === "keep" ? "keep the tyres" : termName(gl, t);
    svg += `<g data-action="${esc(a)}"${tipAttrs(gl, t)}><title>${esc(said)}</title><circle cx="${x}" cy="${y}" r="20" fill="#111" stroke="${TYRE[t] || "#aaa"}" stroke-width="6"/>`;
    svg += `<text x="${x}" y="${y + 4}" text-anchor="middle" font-size="10" font-weight="700" fill="#fff">${esc(t)}</text></g>`;
  });
  svg += `</svg>`;
  const byPos = [...view.cars].sort((a, b) => (a.position ?? 99) - (b.position ?? 99));
  const rows = byPos.map((c) => {
    const status = [c.finished ? "finished" : "", c.pit !== null && c.pit !== undefined ? "in pit" : "", c.off_track ? "off track" : "",
      c.penalty ? "penalty" : "", c.miss ? `misses ${c.miss}` : ""].filter(Boolean).join(", ") || "racing";
    const me = c.seat === ctx.seat ? ' class="me"' : "";
    return `<tr${me}><td>${c.position ?? "–"}</td><td><span class="swatch" style="background:${ctx.colours[c.seat % ctx.colours.length]}"></span> ${esc(ctx.names[c.seat] || c.name)}</td>
      <td>${Math.min(c.lap, laps)}/${laps}</td><td><span class="swatch" style="background:${TYRE[c.tyre] || "#999"}"></span> ${c.tyre && gl[c.tyre] ? term(gl, c.tyre, c.tyre) : esc(c.tyre ?? "–")}</td>
      <td>${c.dist}</td><td>${esc(status)}</td><td>${(c.perks || []).map((k) => term(gl, `effect:${k}`, k)).join(", ") || "–"}</td></tr>`;
  }).join("");
  let html = `${svg}<table class="view-table dash"><tr><th>pos</th><th>driver</th><th>lap</th><th>tyre</th><th>distance</th><th>status</th><th>perks</th></tr>${rows}</table>`;
  if (view.flag_card) {
    const { card, colour } = view.flag_card;
    html += `<p class="flag-card" data-card="${esc(card)}">Last flag card: <b>${term(gl, card, termName(gl, card))}</b> (${esc(colour)} line)</p>`;
  }
  const next = view.flag_deck && (view.flag_deck.known_order || [])[0];
  if (view.flag_deck) html += `<p class="muted">Flag deck: ${view.flag_deck.unseen} unseen, ${view.flag_deck.used} used${next ? ` · next: ${term(gl, next, termName(gl, next))}` : ""}${view.finish && view.finish.length ? ` · finished: ${view.finish.map((s) => esc(ctx.names[s])).join(", ")}` : ""}</p>`;
  return html;
}
