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

// The ink on a chip: white on the dark ones (bomb, debris), else black.
function chipInk(name) {
  return ["bomb", "debris"].includes(String(name).split("-")[0]) ? "#fff" : "#111";
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
    svg += `<text x="${x}" y="${y + 4}" font-size="11" text-anchor="middle" font-weight="700" fill="${chipInk(chip)}">${esc(chipValue(chip))}</text>`;
  }
  return svg + "</svg>";
}

function readyItems(r, ctx) {
  const ready = r.ready || [];
  if (!ready.length) return "–";
  return ready.map((item) => {
    const action = r.seat === ctx.seat ? itemAction(item, ctx) : undefined;
    return action ? `<span class="item-chip" data-action="${esc(action)}" title="${esc(action)}">${esc(item)}</span>` : esc(item);
  }).join(", ");
}

function chips(counts) {
  const items = Object.entries(counts || {}).filter(([, k]) => k);
  if (!items.length) return "–";
  return items.map(([c, k]) => `<span class="chip" style="background:${chipColour(c)};color:${chipInk(c)}" title="${esc(c)}">${esc(chipValue(c))}</span>×${k}`).join(" ");
}

// The shop's price and effect of each chip, read from the seat's hints (the game's own shop lines:
// "*  exhaust-1   1 coin    moves 1, heat 1   12"), and the coins left after the cart.
function shopInfo(hints) {
  const chips = {};
  let coins = null;
  for (const line of hints || []) {
    const row = /^\*?\s+([a-z]+-\d)\s+(\d+) coins?\s+(.+?)\s+(\d+)$/.exec(line);
    if (row) chips[row[1]] = { price: Number(row[2]), effect: row[3] };
    const left = /left after your cart: (\d+)/.exec(line);
    if (left) coins = Number(left[1]);
  }
  return { chips, coins };
}

// Rev it Up's buying phase as a shop: each chip with its price, effect and supply (a card to click
// when it can be bought now), the item die and the items, the coins left, the cart, and "finish".
function shop(view, ctx) {
  const mine = `${ctx.seat}:`;
  const legal = new Set(ctx.legal.filter((a) => a.startsWith(mine)));
  if (![...legal].some((a) => a.includes(":buy:") || a.endsWith(":done"))) return "";
  const info = shopInfo(ctx.hints);
  const cards = Object.entries(view.supply || {}).filter(([chip]) => info.chips[chip]).map(([chip, left]) => {
    const action = `${mine}buy:${chip}`;
    const can = legal.has(action);
    const { price, effect } = info.chips[chip];
    return `<div class="shop-item${can ? "" : " off"}"${can ? ` data-action="${esc(action)}"` : ""} title="${can ? "buy" : "cannot buy now"} ${esc(chip)}">
      <span class="chip" style="background:${chipColour(chip)};color:${chipInk(chip)}">${esc(chipValue(chip))}</span> <b>${esc(chip)}</b>
      <span class="price">${price} coin${price === 1 ? "" : "s"}</span><div class="muted">${esc(effect)} · ${left} left</div></div>`;
  }).join("");
  const items = [...legal].filter((a) => a.includes(":item:")).map((a) => {
    const what = a.split(":").pop();
    const text = what === "roll" ? "roll the item die (1 coin)" : `take ${esc(what)} (3 coins)`;
    return `<div class="shop-item" data-action="${esc(a)}">⚄ ${text}</div>`;
  }).join("");
  const cart = (view.my_cart || []).length ? chips(Object.fromEntries(view.my_cart.map((c) => [c, 1]))) : "empty";
  const done = legal.has(`${mine}done`) ? `<div class="shop-item finish" data-action="${esc(`${mine}done`)}">✔ finish buying</div>` : "";
  return `<section class="shop" aria-label="shop"><h4>Shop · coins left: ${info.coins ?? "?"} · your cart: ${cart}</h4>
    <div class="shop-grid">${cards}${items}${done}</div></section>`;
}

// A ready item is clicked to use or drop it; a racer's card to give it a sticky bomb.
function itemAction(item, ctx) {
  return ctx.legal.find((a) => a === `${ctx.seat}:use:${item}` || a === `drop:${item}` || a === `boost:${item}`);
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
    const both = items.has(i) && traps.has(i); // an item space with a trap: side by side, not one over the other
    if (items.has(i)) inner += `<text x="${both ? -5 : 0}" y="5" text-anchor="middle" font-size="14" font-weight="700" fill="#ffb400">?</text>`;
    if (traps.has(i)) inner += `<text x="${both ? 6 : 0}" y="5" text-anchor="middle" font-size="${both ? 10 : 13}" fill="#ff5a5a"><title>${esc(traps.get(i))}</title>⚠</text>`;
    svg += `<g class="track-space" data-space="${i}">${space(p, size, items.has(i) ? "#4b3d1a" : "#4a4f5c", traps.has(i) ? "#ff5a5a" : "#2b2f36", traps.has(i) ? 2 : 1, inner)}</g>`;
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
      const distance = typeof r.lap === "number" ? ` data-distance="${(r.lap - 1) * n + r.space}"` : "";
      svg += `<g class="racer${me}" data-seat="${r.seat}" data-space="${i % n}"${distance}><circle cx="${(x + dx).toFixed(1)}" cy="${(y + dy).toFixed(1)}" r="${size * 0.8}" fill="${colour}" stroke="#111" stroke-width="1.5"/>`;
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
    const drawn = r.drawn ? ` · drew <span class="chip" style="background:${chipColour(r.drawn)};color:${chipInk(r.drawn)}">${esc(chipValue(r.drawn))}</span> ${esc(r.drawn)}` : "";
    const give = ctx.legal.includes(`give:${r.seat}`) ? ` data-action="give:${r.seat}" title="give the sticky bomb to ${esc(ctx.names[r.seat])}"` : "";
    return `<div class="racer-card${me}"${give}><div><span class="swatch" style="background:${colour}"></span>
      <b>${esc(ctx.names[r.seat])}</b> <span class="muted">${esc(r.character || "")}</span> · lap ${r.lap ?? "–"} · ${esc(r.status || "")}${chosen}${odds}${drawn}</div>
      ${revTrack(r, ctx, width)}
      <div class="muted">bag: ${chips(r.bag)} · discard: ${chips(r.discard)}</div>
      <div class="muted">coins: ${r.coins_to_spend ?? 0} to spend, ${r.collected_coins ?? 0} collected · items: ${readyItems(r, ctx)}${r.emp ? ` · EMP ${r.emp}` : ""}</div></div>`;
  }).join("");
  let html = `${svg}${shop(view, ctx)}<div class="racer-cards">${cards}</div>`;
  if (view.items_in_play) html += `<p class="muted">Items in play: ${esc(view.items_in_play.join(", "))}</p>`;
  if (view.my_cart && view.my_cart.length) html += `<p>Your cart: ${chips(Object.fromEntries(view.my_cart.map((c) => [c, 1])))}</p>`;
  return html;
}
