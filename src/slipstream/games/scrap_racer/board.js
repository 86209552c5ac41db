// Scrap Racer: the track as a stadium oval of spaces (read clockwise from the finish line at the top
// left), boost markers on their spaces, the racers on the track, and each racer's dashboard.
// Reads only the seat's view (see slipstream/games/scrap_racer/game.py, view()). A racer is drawn in
// its player's seat colour (the page's one colour per seat) with its racer's letter, ringed in the
// racer's own colour.
import { esc } from "/static/common.js";
import { stadium } from "/static/track.js";

const COLOUR = { swifty: "#f5d000", jackal: "#e6194b", crusher: "#d633c9", hover: "#2ed0e6", twister: "#3cb44b", "steel-jacket": "#4363d8" };
const LETTER = { swifty: "W", jackal: "J", crusher: "C", hover: "H", twister: "T", "steel-jacket": "S" };
const BOOST = { "plus-minus": "±1", reroll: "re-roll", turn: "turn over" };

function seatColour(ctx, seat) {
  return ctx.colours[seat % ctx.colours.length];
}

export function draw(view, ctx) {
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
    svg += `<g transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${deg.toFixed(1)})">`;
    svg += `<rect x="${-size}" y="${-size}" width="${2 * size}" height="${2 * size}" rx="3" fill="${curve ? "#5a4a3a" : "#555c66"}" stroke="${boostSpaces.has(i) ? "#ffb400" : "#2b2f36"}" stroke-width="${boostSpaces.has(i) ? 2 : 1}"/>`;
    if (filled.has(i)) svg += `<text y="5" text-anchor="middle" font-size="14" fill="#ffb400">★</text>`;
    svg += `</g>`;
    if ((i + 1) % 4 === 1) {
      const [ox, oy] = [x + (x - W / 2) * 0.09, y + (y - H / 2) * 0.16];
      svg += `<text x="${ox.toFixed(1)}" y="${(oy + 4).toFixed(1)}" font-size="10" fill="#9aa" text-anchor="middle">${i + 1}</text>`;
    }
  });
  const [fx, fy] = g.points[0];
  svg += `<line x1="${fx - size - 2}" y1="${fy - size - 6}" x2="${fx - size - 2}" y2="${fy + size + 6}" stroke="#fff" stroke-width="4" stroke-dasharray="3 3"/>`;
  const here = new Map();
  for (const r of view.racers) if (r.space !== null && r.id) here.set(r.space, [...(here.get(r.space) || []), r]);
  for (const [space, racers] of here) {
    const [x, y] = g.points[space];
    racers.forEach((r, k) => {
      const dx = (k - (racers.length - 1) / 2) * 11, dy = -k * 3;
      const ring = view.active === r.slot ? ' stroke="#fff" stroke-width="3"' : ` stroke="${COLOUR[r.id] || "#111"}" stroke-width="2.5"`;
      const me = r.seat === ctx.seat ? " me" : "";
      svg += `<g class="racer${me}" data-seat="${r.seat}"><title>${esc(r.name || "")} (${esc(ctx.names[r.seat] || "")})</title><circle cx="${(x + dx).toFixed(1)}" cy="${(y + dy).toFixed(1)}" r="${size * 0.8}" fill="${seatColour(ctx, r.seat)}"${ring}/>`;
      svg += `<text x="${(x + dx).toFixed(1)}" y="${(y + dy + 4).toFixed(1)}" text-anchor="middle" font-size="12" font-weight="700" fill="#fff">${esc(LETTER[r.id] || "?")}</text></g>`;
    });
  }
  const waiting = view.racers.filter((r) => r.space === null && r.id);
  waiting.forEach((r, k) => {
    svg += `<circle cx="${fx - 30 - k * 22}" cy="${fy + 36}" r="9" fill="${seatColour(ctx, r.seat)}" stroke="${COLOUR[r.id] || "#111"}" stroke-width="2"/>`;
  });
  svg += `<text x="${W / 2}" y="${H / 2 - 16}" text-anchor="middle" font-size="20" font-weight="700" fill="#e9ecf2">${esc(track.name)}</text>`;
  svg += `<text x="${W / 2}" y="${H / 2 + 8}" text-anchor="middle" font-size="13" fill="#aab">Round ${view.round} · ${esc(view.phase)}${view.end_round ? " · final round" : ""}</text>`;
  const dice = [...view.dice, ...(view.die ? [view.die] : [])];
  if (view.active !== null && dice.length) {
    const who = view.racers[view.active];
    svg += `<text x="${W / 2}" y="${H / 2 + 34}" text-anchor="middle" font-size="15" fill="#fff">${esc(who.name)} (${esc(ctx.names[who.seat] ?? "")}): ${dice.map((d) => ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"][d] || d).join(" ")} = ${dice.reduce((a, b) => a + b, 0)}</text>`;
  }
  svg += `</svg>`;
  const rows = view.standings.map((slot, place) => {
    const r = view.racers[slot];
    const boosts = Object.entries(r.boost_markers).filter(([, k]) => k).map(([t, k]) => `${k}× ${BOOST[t] || t}`).join(", ") || "–";
    const me = r.seat === ctx.seat ? ' class="me"' : "";
    return `<tr${me}><td>${place + 1}</td><td><span class="swatch" style="background:${seatColour(ctx, r.seat)}"></span> ${esc(r.name || "?")} (${esc(LETTER[r.id] || "?")})</td>
      <td>${esc(ctx.names[r.seat] ?? view.seats[r.seat])}</td><td>${r.laps}</td><td>${r.space === null ? "–" : r.space + 1}</td>
      <td>${esc(boosts)}</td><td>${r.bonus_markers}</td><td>${view.bonus_cards_held[String(r.seat)] ?? 0}</td></tr>`;
  }).join("");
  let html = `${svg}<table class="view-table dash"><tr><th>#</th><th>racer</th><th>player</th><th>laps</th><th>space</th><th>boost markers</th><th>bonus mk</th><th>cards</th></tr>${rows}</table>`;
  const mine = Object.entries(view.my_bonus_cards || {});
  // a bonus card the seat may play now is clicked to play it (the button stays for the keyboard)
  const card = (c, k) => {
    const play = ctx.legal.includes(`play:${c}`) ? ` data-action="play:${esc(c)}" title="play ${esc(c)}"` : "";
    return `<span class="playing-card"${play}>${k}× ${esc(c)}</span>`;
  };
  if (mine.length) html += `<p>Your bonus cards: ${mine.map(([c, k]) => card(c, k)).join(" ")}</p>`;
  html += `<p class="muted">Decks: ${Object.entries(view.decks).map(([d, k]) => `${esc(d)} ${k}`).join(" · ")} · supply: ${view.supply.bonus_markers} bonus, ${view.supply.boost_markers} boost markers</p>`;
  return html;
}
