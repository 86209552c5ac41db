// Rev it Up: the track as a stadium of spaces with item spaces and traps, the racers on it, and each
// racer's rev track (the chips pushed so far), bag and ready items.
// Reads only the seat's view (see slipstream/games/rev_it_up, view()); every field is optional here.
import { esc } from "/static/common.js";
import { fan, label, space, stadium } from "/static/track.js";

const CHIP = {
  exhaust: "#8a8f99", coin: "#f5c400", ecoboost: "#3cb44b", coolant: "#42a5f5", nitrous: "#ff7a1a",
  upgrade: "#a259ff", recall: "#26c6b0", debris: "#7a5230", bomb: "#222222",
};

function chipColour(name) {
  return CHIP[String(name).split("-")[0]] || "#cccccc";
}

function chipValue(name) {
  const tail = String(name).split("-").pop();
  return /^\d+$/.test(tail) ? tail : String(name)[0].toUpperCase();
}

function revTrack(r, ctx, width) {
  const n = r.rev_length || 10;
  const cell = Math.min(30, (width - 10) / n);
  const h = cell + 8;
  let svg = `<svg viewBox="0 0 ${n * cell + 10} ${h}" class="rev" style="max-width:${n * cell + 10}px" role="img" aria-label="rev track">`;
  for (let i = 0; i < n; i++) {
    const hot = i >= n - 3 ? "#5a2a2a" : "#30353f";
    svg += `<rect x="${5 + i * cell}" y="4" width="${cell - 2}" height="${cell - 2}" rx="4" fill="${hot}" stroke="#222"/>`;
  }
  for (const [chip, pos] of r.rev || []) {
    const i = Math.max(0, Math.min(n - 1, Number(pos) - 1));
    const x = 5 + i * cell + (cell - 2) / 2, y = 4 + (cell - 2) / 2;
    svg += `<circle cx="${x}" cy="${y}" r="${cell * 0.38}" fill="${chipColour(chip)}" stroke="#111"><title>${esc(chip)}</title></circle>`;
    svg += `<text x="${x}" y="${y + 4}" font-size="11" text-anchor="middle" font-weight="700" fill="#111">${esc(chipValue(chip))}</text>`;
  }
  return svg + "</svg>";
}

function chips(counts) {
  const items = Object.entries(counts || {}).filter(([, k]) => k);
  if (!items.length) return "–";
  return items.map(([c, k]) => `<span class="chip" style="background:${chipColour(c)}" title="${esc(c)}">${esc(chipValue(c))}</span>×${k}`).join(" ");
}

export function draw(view, ctx) {
  const track = view.track || {};
  const n = track.length || 30;
  const [W, H] = ctx.narrow ? [540, 420] : [760, 360];
  const pad = 34;
  const g = stadium(n, W, H, pad);
  const size = Math.min(15, g.step * 0.45);
  const items = new Set(track.item_spaces || []);
  const traps = new Map((view.traps || []).map((t) => [t[0], t[1]]));
  let svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="track">`;
  svg += `<rect width="${W}" height="${H}" rx="16" fill="#23202e"/>`;
  g.points.forEach((p, i) => {
    let inner = "";
    if (items.has(i)) inner += `<text y="5" text-anchor="middle" font-size="14" font-weight="700" fill="#ffb400">?</text>`;
    if (traps.has(i)) inner += `<text y="5" text-anchor="middle" font-size="13" fill="#ff5a5a"><title>${esc(traps.get(i))}</title>⚠</text>`;
    svg += space(p, size, items.has(i) ? "#4b3d1a" : "#4a4f5c", traps.has(i) ? "#ff5a5a" : "#2b2f36", traps.has(i) ? 2 : 1, inner);
    if (i % 5 === 0) svg += label(p, W, H, i + 1);
  });
  const [fx, fy] = g.points[0];
  svg += `<line x1="${fx - size - 2}" y1="${fy - size - 6}" x2="${fx - size - 2}" y2="${fy + size + 6}" stroke="#fff" stroke-width="4" stroke-dasharray="3 3"/>`;
  const racers = view.racers || [];
  const here = new Map();
  for (const r of racers) if (r.space !== null && r.space !== undefined) here.set(r.space, [...(here.get(r.space) || []), r]);
  for (const [i, rs] of here) {
    const [x, y] = g.points[i % n];
    rs.forEach((r, k) => {
      const [dx, dy] = fan(k, rs.length);
      const colour = ctx.colours[r.seat % ctx.colours.length];
      const me = r.seat === ctx.seat ? " me" : "";
      svg += `<g class="racer${me}" data-seat="${r.seat}"><circle cx="${(x + dx).toFixed(1)}" cy="${(y + dy).toFixed(1)}" r="${size * 0.8}" fill="${colour}" stroke="#111" stroke-width="1.5"/>`;
      svg += `<text x="${(x + dx).toFixed(1)}" y="${(y + dy + 4).toFixed(1)}" text-anchor="middle" font-size="12" font-weight="700" fill="#fff">${r.seat + 1}</text></g>`;
    });
  }
  svg += `<text x="${W / 2}" y="${H / 2 - 6}" text-anchor="middle" font-size="20" font-weight="700" fill="#e9ecf2">Round ${view.round ?? "–"}</text>`;
  svg += `<text x="${W / 2}" y="${H / 2 + 18}" text-anchor="middle" font-size="13" fill="#aab">${esc(view.phase || "")} · ${track.laps ?? "?"} laps</text>`;
  svg += `</svg>`;
  const width = ctx.narrow ? 300 : 320;
  const cards = racers.map((r) => {
    const colour = ctx.colours[r.seat % ctx.colours.length];
    const me = r.seat === ctx.seat ? " me" : "";
    const chosen = r.chosen === undefined ? "" : r.chosen ? ' <span class="tag">chosen</span>' : ' <span class="tag">choosing…</span>';
    const odds = typeof r.overheat_chance === "number" && r.overheat_chance > 0 ? ` · overheat ${Math.round(r.overheat_chance * 100)}%` : "";
    const drawn = r.drawn ? ` · drew <span class="chip" style="background:${chipColour(r.drawn)}">${esc(chipValue(r.drawn))}</span> ${esc(r.drawn)}` : "";
    return `<div class="racer-card${me}"><div><span class="swatch" style="background:${colour}"></span>
      <b>${esc(ctx.names[r.seat])}</b> <span class="muted">${esc(r.character || "")}</span> · lap ${r.lap ?? "–"} · ${esc(r.status || "")}${chosen}${odds}${drawn}</div>
      ${revTrack(r, ctx, width)}
      <div class="muted">bag: ${chips(r.bag)} · discard: ${chips(r.discard)}</div>
      <div class="muted">coins: ${r.coins_to_spend ?? 0} to spend, ${r.collected_coins ?? 0} collected · items: ${esc((r.ready || []).join(", ") || "–")}${r.emp ? ` · EMP ${r.emp}` : ""}</div></div>`;
  }).join("");
  let html = `${svg}<div class="racer-cards">${cards}</div>`;
  if (view.items_in_play) html += `<p class="muted">Items in play: ${esc(view.items_in_play.join(", "))}</p>`;
  if (view.my_cart && view.my_cart.length) html += `<p>Your cart: ${chips(Object.fromEntries(view.my_cart.map((c) => [c, 1])))}</p>`;
  return html;
}
