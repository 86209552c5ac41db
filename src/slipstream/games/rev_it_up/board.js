// Rev it Up: the track as a stadium of spaces with item spaces and traps, the racers on it, and each
// racer's rev track (the chips pushed so far), bag and ready items.
// Reads only the seat's view (see slipstream/games/rev_it_up, view()); every field is optional here.
// Chips, items and characters are shown by name, each with its effect as a tip (hover, focus or tap),
// from the match's glossary (ctx.glossary), or the one the view carries (view.terms) in its absence.
import { boardGlossary, esc, term, termName, tipAttrs } from "/static/common.js";
import { crowd, label, space, stadium } from "/static/track.js";

const CHIP = {
  exhaust: "#8a8f99", coin: "#f5c400", ecoboost: "#3cb44b", coolant: "#42a5f5", nitrous: "#ff7a1a",
  upgrade: "#a259ff", recall: "#26c6b0", debris: "#7a5230", bomb: "#222222",
};

const PHASES = {
  draw: "drawing chips", "item-die": "rolling the item die", reroll: "keep or reroll the item die",
  "gain-item": "gaining an item", boost: "a Boost item after the move", "stop-or-go": "stop or keep going",
  "use-items": "using items", buy: "buying", over: "race over",
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

// A chip token (its level on its colour) with its name and effect as a tip.
function chipToken(gl, chip) {
  return `<span class="chip" data-chip="${esc(chip)}" style="background:${chipColour(chip)};color:${chipInk(chip)}"${tipAttrs(gl, chip)} aria-label="${esc(termName(gl, chip))}">${esc(chipValue(chip))}</span>`;
}

function revTrack(r, gl, width) {
  const n = r.rev_length || 10;
  const cell = Math.min(30, (width - 10) / n);
  const h = cell + 8;
  let svg = `<svg viewBox="0 0 ${n * cell + 10} ${h}" class="rev" style="max-width:${n * cell + 10}px" role="img" aria-label="Rev Track">`;
  for (let i = 0; i < n; i++) {
    const hot = i >= n - 3 ? "#5a2a2a" : "#30353f";
    svg += `<rect x="${5 + i * cell}" y="4" width="${cell - 2}" height="${cell - 2}" rx="4" fill="${hot}" stroke="#222"/>`;
  }
  for (const [chip, pos] of r.rev || []) {
    const i = Math.max(0, Math.min(n - 1, Number(pos) - 1));
    const x = 5 + i * cell + (cell - 2) / 2, y = 4 + (cell - 2) / 2;
    svg += `<g class="rev-chip"${tipAttrs(gl, chip)}><circle cx="${x}" cy="${y}" r="${cell * 0.38}" fill="${chipColour(chip)}" stroke="#111"><title>${esc(termName(gl, chip))}</title></circle>`;
    svg += `<text x="${x}" y="${y + 4}" font-size="11" text-anchor="middle" font-weight="700" fill="${chipInk(chip)}">${esc(chipValue(chip))}</text></g>`;
  }
  return svg + "</svg>";
}

function readyItems(r, ctx, gl) {
  const ready = r.ready || [];
  if (!ready.length) return "–";
  return ready.map((item) => {
    const action = r.seat === ctx.seat ? itemAction(item, ctx) : undefined;
    const shown = term(gl, item, termName(gl, item));
    return action ? `<span class="item-chip" data-action="${esc(action)}">${shown}</span>` : `<span class="item-chip">${shown}</span>`;
  }).join(", ");
}

function chips(counts, gl) {
  const items = Object.entries(counts || {}).filter(([, k]) => k);
  if (!items.length) return "–";
  return items.map(([c, k]) => `${chipToken(gl, c)}×${k}`).join(" ");
}

// The shop's price and effect of each chip, read from the seat's hints (the game's own shop lines:
// "*  Exhaust 1   1 coin    moves 1, heat 1   12", a chip by its name), and the coins left after the cart.
function shopInfo(hints, gl) {
  const ids = {};
  for (const [id, t] of Object.entries(gl)) if (t.kind === "chip") ids[t.name] = id;
  const chips = {};
  let coins = null;
  for (const line of hints || []) {
    const row = /^[* ] {2}(.+?) {2,}(\d+) coins? {2,}(.+?) {2,}(\d+)$/.exec(line);
    if (row && ids[row[1]]) chips[ids[row[1]]] = { price: Number(row[2]), effect: row[3] };
    const left = /left after your cart: (\d+)/.exec(line);
    if (left) coins = Number(left[1]);
  }
  return { chips, coins };
}

// Rev it Up's buying phase as a shop: each chip with its price, effect and supply (a card to click
// when it can be bought now), the item die and the items, the coins left, the cart, and "finish".
function shop(view, ctx, gl) {
  const mine = `${ctx.seat}:`;
  const legal = new Set(ctx.legal.filter((a) => a.startsWith(mine)));
  if (![...legal].some((a) => a.includes(":buy:") || a.endsWith(":done"))) return "";
  const info = shopInfo(ctx.hints, gl);
  const cards = Object.entries(view.supply || {}).filter(([chip]) => info.chips[chip]).map(([chip, left]) => {
    const action = `${mine}buy:${chip}`;
    const can = legal.has(action);
    const { price, effect } = info.chips[chip];
    return `<div class="shop-item${can ? "" : " off"}"${can ? ` data-action="${esc(action)}"` : ""} data-chip="${esc(chip)}">
      ${chipToken(gl, chip)} <b>${term(gl, chip, termName(gl, chip))}</b>
      <span class="price">${price} coin${price === 1 ? "" : "s"}</span><div class="muted">${esc(effect)} · ${left} left${can ? "" : " · cannot buy now"}</div></div>`;
  }).join("");
  const items = [...legal].filter((a) => a.includes(":item:")).map((a) => {
    const what = a.split(":").pop();
    const text = what === "roll" ? "roll the item die (1 coin)" : `take ${term(gl, what, termName(gl, what))} (3 coins)`;
    return `<div class="shop-item" data-action="${esc(a)}">⚄ ${text}</div>`;
  }).join("");
  const cart = cartText(view, gl);
  const done = legal.has(`${mine}done`) ? `<div class="shop-item finish" data-action="${esc(`${mine}done`)}">✔ finish buying</div>` : "";
  return `<section class="shop" aria-label="shop"><h4>Shop · coins left: ${info.coins ?? "?"} · your cart: ${cart}</h4>
    <div class="shop-grid">${cards}${items}${done}</div></section>`;
}

// The cart's steps in words: chips bought (by token), upgrades and the item.
function cartText(view, gl) {
  const steps = view.my_cart || [];
  if (!steps.length) return "empty";
  return steps.map((step) => {
    const [verb, what, target] = step.split(":");
    if (verb === "buy") return `${chipToken(gl, what)}${target !== undefined ? ` for P${Number(target) + 1}` : ""}`;
    if (verb === "up") return `upgrade ${term(gl, what, termName(gl, what))}`;
    if (step === "item:roll") return "the item die";
    return term(gl, what, termName(gl, what));
  }).join(" ");
}

// A ready item is clicked to use or drop it; a racer's card to give it a sticky bomb.
function itemAction(item, ctx) {
  return ctx.legal.find((a) => a === `${ctx.seat}:use:${item}` || a === `drop:${item}` || a === `boost:${item}`);
}

export function draw(view, ctx) {
  const gl = boardGlossary(view, ctx);
  const track = view.track || {};
  const n = track.length || 30;
  const [W, H] = ctx.narrow ? [540, 420] : [760, 360];
  const pad = 34;
  const g = stadium(n, W, H, pad);
  const size = Math.min(15, g.step * 0.45);
  const items = new Set(track.item_spaces || []);
  const traps = new Map((view.traps || []).map((t) => [t[0], t]));
  let svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(termName(gl, track.id))} track">`;
  svg += `<rect width="${W}" height="${H}" rx="16" fill="#23202e"/>`;
  g.points.forEach((p, i) => {
    let inner = "";
    const both = items.has(i) && traps.has(i); // an item space with a trap: side by side, not one over the other
    if (items.has(i)) inner += `<text x="${both ? -5 : 0}" y="5" text-anchor="middle" font-size="14" font-weight="700" fill="#ffb400"><title>item space ${i}: roll the item die when you pass it</title>?</text>`;
    if (traps.has(i)) {
      const [, item, owner] = traps.get(i);
      inner += `<g class="trap"${tipAttrs(gl, item)}><text x="${both ? 6 : 0}" y="5" text-anchor="middle" font-size="${both ? 10 : 13}" fill="#ff5a5a"><title>${esc(termName(gl, item))} of ${esc(ctx.names[owner] || `P${owner + 1}`)}</title>⚠</text></g>`;
    }
    svg += `<g class="track-space" data-space="${i}">${space(p, size, items.has(i) ? "#4b3d1a" : "#4a4f5c", traps.has(i) ? "#ff5a5a" : "#2b2f36", traps.has(i) ? 2 : 1, inner)}</g>`;
    if (i % 5 === 0) svg += label(p, W, H, i === 0 ? "start" : i); // the spaces as the texts count them: the start line is 0
  });
  const [fx, fy] = g.points[0];
  svg += `<line x1="${fx - size - 2}" y1="${fy - size - 6}" x2="${fx - size - 2}" y2="${fy + size + 6}" stroke="#fff" stroke-width="4" stroke-dasharray="3 3"/>`;
  const racers = view.racers || [];
  const here = new Map();
  for (const r of racers) if (r.space !== null && r.space !== undefined) here.set(r.space, [...(here.get(r.space) || []), r]);
  for (const [i, rs] of here) {
    const [x, y, angle] = g.points[i % n];
    const spread = crowd(rs.length, size * 0.8, angle); // racers on one space side by side, none covering another
    rs.forEach((r, k) => {
      const [dx, dy] = spread.at[k];
      const colour = ctx.colours[r.seat % ctx.colours.length];
      const me = r.seat === ctx.seat ? " me" : "";
      const distance = typeof r.lap === "number" ? ` data-distance="${(r.lap - 1) * n + r.space}"` : "";
      svg += `<g class="racer${me}" data-seat="${r.seat}" data-space="${i % n}"${distance}><circle cx="${(x + dx).toFixed(1)}" cy="${(y + dy).toFixed(1)}" r="${spread.r.toFixed(1)}" fill="${colour}" stroke="#111" stroke-width="1.5"/>`;
      svg += `<text x="${(x + dx).toFixed(1)}" y="${(y + dy + 4).toFixed(1)}" text-anchor="middle" font-size="${Math.round(spread.r)}" font-weight="700" fill="#fff">${r.seat + 1}</text></g>`;
    });
  }
  svg += `<text x="${W / 2}" y="${H / 2 - 6}" text-anchor="middle" font-size="20" font-weight="700" fill="#e9ecf2">Round ${view.round ?? "–"}</text>`;
  svg += `<text x="${W / 2}" y="${H / 2 + 18}" text-anchor="middle" font-size="13" fill="#aab">${esc(PHASES[view.phase] || view.phase || "")} · ${track.laps ?? "?"} laps</text>`;
  svg += `</svg>`;
  const width = ctx.narrow ? 300 : 320;
  const cards = racers.map((r) => {
    const colour = ctx.colours[r.seat % ctx.colours.length];
    const me = r.seat === ctx.seat ? " me" : "";
    const chosen = r.chosen === undefined ? "" : r.chosen ? ' <span class="tag">chosen</span>' : ' <span class="tag">choosing…</span>';
    const odds = typeof r.overheat_chance === "number" && r.overheat_chance > 0 ? ` · overheat ${Math.round(r.overheat_chance * 100)}%` : "";
    const drawn = r.drawn ? ` · drew ${chipToken(gl, r.drawn)} ${term(gl, r.drawn, termName(gl, r.drawn))}` : "";
    const give = ctx.legal.includes(`give:${r.seat}`) ? ` data-action="give:${r.seat}" title="give the Bomb to ${esc(ctx.names[r.seat])}"` : "";
    const character = r.character ? term(gl, r.character, termName(gl, r.character)) : "";
    return `<div class="racer-card${me}"${give}><div><span class="swatch" style="background:${colour}"></span>
      <b>${esc(ctx.names[r.seat])}</b> <span class="muted">${character}</span> · lap ${r.lap ?? "–"} · ${esc(r.status || "")}${chosen}${odds}${drawn}</div>
      ${revTrack(r, gl, width)}
      <div class="muted">bag: ${chips(r.bag, gl)} · discard: ${chips(r.discard, gl)}</div>
      <div class="muted">coins: ${r.coins_to_spend ?? 0} to spend, ${r.collected_coins ?? 0} collected · items: ${readyItems(r, ctx, gl)}${r.emp ? ` · EMP ${r.emp}` : ""}</div></div>`;
  }).join("");
  const rolled = view.rolled ? `<p class="rolled">The item die shows ${term(gl, view.rolled, termName(gl, view.rolled))} · rerolls left: ${view.rerolls_left ?? 0}</p>` : "";
  let html = `${svg}${rolled}${shop(view, ctx, gl)}<div class="racer-cards">${cards}</div>`;
  if (view.items_in_play) html += `<p class="muted items-in-play">Items in play: ${view.items_in_play.map((i) => term(gl, i, termName(gl, i))).join(", ")}</p>`;
  if (view.my_cart && view.my_cart.length) html += `<p>Your cart: ${cartText(view, gl)}</p>`;
  return html;
}
