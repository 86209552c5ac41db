// Rush 'n' Crush: the course as its tiles laid end to end (travel left to right, lane 0 on top), each
// lane's squares drawn to their length in ranks (a curve's inner lane has fewer, longer squares), the
// cars, wrecks, mines and fixed obstructions on it, then every car's dashboard.
// Clicking a square the active car can step to (straight ahead, diagonally left or right, or the side
// of a compulsory lane change) sends the plain step; clicking the finish line (an open course) sends the
// step across it. A step's variants to the same place (+bumper, +saw, +mine) are buttons under the
// course. Reads only the seat's view (see slipstream/games/rush_n_crush/state.py, _view():
// course.tiles[t].lanes holds the squares' lengths).
import { esc } from "/static/common.js";

const RANK = 20;
const LANE = 24;
const GAP = 6;
const HEAD = 16;
const LANES = 4;

// The course's squares by lane, unrolled: {tile, lane, index, start, end} with start/end in ranks.
function tileLanes(course) {
  return ((course && course.tiles) || []).map((tile) => tile.lanes || []);
}

export function geometry(course) {
  const tiles = tileLanes(course);
  const lanes = Array.from({ length: LANES }, () => []);
  let offset = 0;
  const tileStart = [];
  tiles.forEach((tile, t) => {
    tileStart.push(offset);
    tile.forEach((spans, lane) => {
      let at = offset;
      spans.forEach((span, i) => {
        lanes[lane].push({ tile: t, lane, index: i, start: at, end: at + span, name: `${t}.${lane}.${i}` });
        at += span;
      });
    });
    offset += (tile[0] || []).reduce((a, b) => a + b, 0);
  });
  const total = offset;
  function find(lane, rank) {
    if (lane < 0 || lane >= LANES) return null;
    if (rank >= total || rank < 0) {
      if (!course.closed) return null;
      rank = ((rank % total) + total) % total;
    }
    return lanes[lane].find((sq) => sq.start <= rank && rank < sq.end) || null;
  }
  const byName = new Map();
  for (const lane of lanes) for (const sq of lane) byName.set(sq.name, sq);
  return { lanes, total, tileStart, find, byName };
}

// The squares a step from `name` reaches: {ahead, left, right} (names, or null).
export function targets(geo, name) {
  const sq = geo.byName.get(name);
  if (!sq) return { ahead: null, left: null, right: null };
  const at = (lane) => {
    const found = geo.find(lane, sq.end);
    return found ? found.name : null;
  };
  return { ahead: at(sq.lane), left: at(sq.lane - 1), right: at(sq.lane + 1) };
}

export const FINISH = "finish";
const SIDE = { ahead: "ahead", left: "left", right: "right", "swerve-left": "left", "swerve-right": "right" };
const ARROW = { ahead: "→", left: "↗", right: "↘" };
const EXTRA = { bumper: "Side Bumper", saw: "Lateral Circular Saw", mine: "drop a mine" };

// The viewer's legal steps by where they go: square name (or FINISH, the line of an open course) ->
// its actions, the plain step first. Empty unless the viewer is the car to play.
export function stepChoices(view, ctx, geo) {
  const out = new Map();
  if (view.active === null || view.active === undefined || ctx.seat !== view.active) return out;
  const car = (view.cars || [])[view.active];
  if (!car || !car.square) return out;
  const t = targets(geo, car.square);
  const here = geo.byName.get(car.square);
  const last = here && !(view.course || {}).closed && here.end === geo.total;
  for (const action of ctx.legal || []) {
    const side = SIDE[action.split("+")[0]];
    if (!side || (view.phase === "swerve") !== action.startsWith("swerve-")) continue;
    const square = t[side] || (side === "ahead" && last ? FINISH : null);
    if (!square) continue;
    if (!out.has(square)) out.set(square, []);
    out.get(square).push(action);
  }
  for (const actions of out.values()) actions.sort((a, b) => a.split("+").length - b.split("+").length || (a < b ? -1 : 1));
  return out;
}

// The button text of a step variant: its direction, where it goes and what it adds.
function variantLabel(action, square) {
  const [head, ...extras] = action.split("+");
  const where = square === FINISH ? "across the finish line" : square;
  return `${ARROW[SIDE[head]] || ""} ${where} + ${extras.map((e) => EXTRA[e] || e).join(" + ")}`;
}

function variantButtons(choices) {
  const buttons = [];
  for (const [square, actions] of choices) {
    for (const action of actions.slice(1)) {
      buttons.push(`<button type="button" class="step-variant" data-action="${esc(action)}" title="${esc(action)}">${esc(variantLabel(action, square))}</button>`);
    }
  }
  return buttons.length ? `<p class="step-variants">Click a highlighted square for the plain step, or: ${buttons.join(" ")}</p>` : "";
}

// A tile's length in ranks (its first lane's squares).
function tileRanks(tile) {
  return (tile[0] || []).reduce((a, b) => a + b, 0);
}

function bands(view, width) {
  const tiles = tileLanes(view.course);
  const out = [[]];
  let used = 0;
  tiles.forEach((tile, t) => {
    const w = tileRanks(tile) * RANK;
    if (out[out.length - 1].length && used + w > width) {
      out.push([]);
      used = 0;
    }
    out[out.length - 1].push(t);
    used += w + GAP;
  });
  return out;
}

function bar(value, top, colour, title) {
  const share = top > 0 ? Math.max(0, Math.min(1, value / top)) : 0;
  return `<span class="bar" title="${esc(title)}" style="display:inline-block;width:70px;height:8px;background:#30353f;border-radius:4px;vertical-align:middle">`
    + `<span style="display:block;width:${(share * 100).toFixed(0)}%;height:100%;background:${colour};border-radius:4px"></span></span>`;
}

function dashboards(view, ctx) {
  const order = view.order || [];
  return (view.cars || []).map((c) => {
    if (c.car_name === null || c.car_name === undefined) return `<div class="racer-card"><b>${esc(ctx.names[c.seat])}</b> <span class="muted">waits for its car and driver</span></div>`;
    const colour = ctx.colours[c.seat % ctx.colours.length];
    const me = c.seat === ctx.seat ? " me" : "";
    const turn = c.destroyed ? '<span class="tag">wreck</span>' : view.active === c.seat ? '<span class="tag">to play</span>'
      : order.includes(c.seat) ? `<span class="muted">${order.indexOf(c.seat) + 1}. in turn order</span>` : "";
    const speed = c.node === "zero" ? "zero spot" : `${esc(c.node)} · speed ${c.speed} · ${esc(c.zone)}`;
    const armed = new Set(c.armed || []);
    const pieces = (c.pieces || []).map((p) => `<span class="chip" style="background:${armed.has(p) ? "#3cb44b" : "#555"}" title="${armed.has(p) ? "armed" : "disarmed"}">${esc(p)}</span>`).join(" ");
    const mines = (c.fixed || []).includes("minelayer") ? ` · mines ${c.mines_left}` : "";
    return `<div class="racer-card${me}"><div><span class="swatch" style="background:${colour}"></span>
      <b>${esc(ctx.names[c.seat])}</b> <span class="muted">${esc(c.car_name)} / ${esc(c.driver_name)}</span> ${turn}</div>
      <div>${speed} · at ${esc(c.square || "–")}${view.course && view.course.closed ? ` · lap ${c.lap + 1}` : ""}</div>
      <div>structure ${c.structure} · heat ${c.heat}/${c.heat_capacity} ${bar(c.heat, c.heat_capacity + 1, "#ff7a1a", "heat: destroyed above the capacity")}</div>
      <div class="muted">steering ${c.steering} · brake ${c.brake} · turbo ${c.turbo}${mines} · ${esc((c.fixed || []).join(", "))}</div>
      <div>${pieces}</div></div>`;
  }).join("");
}

export function draw(view, ctx) {
  const course = view.course || { tiles: [] };
  const lanesOf = tileLanes(course);
  const geo = geometry(course);
  const W = ctx.narrow ? 540 : 780;
  const pad = 12;
  const rows = bands(view, W - 2 * pad);
  const bandH = HEAD + LANES * LANE + 14;
  const H = pad * 2 + rows.length * bandH;
  const here = new Map();
  for (const sq of view.obstructions || []) here.set(sq, { kind: "rock" });
  for (const m of view.mines || []) here.set(m.square, { kind: "mine", owner: m.owner });
  for (const w of view.wrecks || []) here.set(w, { kind: "wreck" });
  const cars = new Map();
  for (const c of view.cars || []) if (c.square && !c.destroyed) cars.set(c.square, c);
  const choices = stepChoices(view, ctx, geo);
  const click = new Map([...choices].map(([square, actions]) => [square, actions[0]]));
  let svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="course">`;
  svg += `<rect width="${W}" height="${H}" rx="14" fill="#1f2229"/>`;
  let end = pad; // where the last band's last tile ends: the finish line of an open course
  rows.forEach((band, b) => {
    const y0 = pad + b * bandH;
    let x = pad;
    for (const t of band) {
      const tile = lanesOf[t];
      const ranks = tileRanks(tile);
      const curve = new Set(tile.map((l) => l.length)).size > 1;
      svg += `<text x="${x}" y="${y0 + 11}" font-size="11" fill="#aab">T${t} ${esc((course.faces || [])[t] || "")}${curve ? " (curve)" : ""}</text>`;
      svg += `<rect x="${x - 1}" y="${y0 + HEAD - 1}" width="${ranks * RANK + 2}" height="${LANES * LANE + 2}" fill="${curve ? "#3a3348" : "#33373f"}" rx="3"/>`;
      tile.forEach((spans, lane) => {
        let rx = x;
        spans.forEach((span, i) => {
          const name = `${t}.${lane}.${i}`;
          const w = span * RANK;
          const y = y0 + HEAD + lane * LANE;
          const thing = here.get(name);
          const fill = thing && thing.kind === "rock" ? "#777" : "#4a4f5c";
          const action = click.get(name);
          const attrs = action ? ` data-action="${esc(action)}" style="cursor:pointer"` : "";
          svg += `<g data-square="${name}"${attrs}><title>${name}${action ? ": " + esc(action) : ""}</title>`;
          svg += `<rect x="${rx + 1}" y="${y + 1}" width="${w - 2}" height="${LANE - 2}" rx="3" fill="${fill}" stroke="${action ? "#ffd21f" : "#2b2f36"}" stroke-width="${action ? 2.5 : 1}"/>`;
          const cx = rx + w / 2;
          const cy = y + LANE / 2;
          if (thing && thing.kind === "rock") svg += `<text x="${cx}" y="${cy + 4}" text-anchor="middle" font-size="11" fill="#222">▲</text>`;
          if (thing && thing.kind === "wreck") svg += `<text x="${cx}" y="${cy + 5}" text-anchor="middle" font-size="15" font-weight="700" fill="#111">✖</text>`;
          if (thing && thing.kind === "mine") svg += `<circle cx="${cx}" cy="${cy}" r="4" fill="#e6194b" stroke="#111"><title>mine of P${thing.owner + 1}</title></circle>`;
          const c = cars.get(name);
          if (c) {
            const colour = ctx.colours[c.seat % ctx.colours.length];
            const ring = view.active === c.seat ? ' stroke="#fff" stroke-width="2.5"' : ' stroke="#111" stroke-width="1.2"';
            const me = c.seat === ctx.seat ? " me" : "";
            svg += `<g class="racer${me}" data-seat="${c.seat}"><circle cx="${cx}" cy="${cy}" r="${LANE * 0.38}" fill="${colour}"${ring}/>`;
            svg += `<text x="${cx}" y="${cy + 4}" text-anchor="middle" font-size="11" font-weight="700" fill="#fff">${c.seat + 1}</text></g>`;
          }
          svg += `</g>`;
          rx += w;
        });
      });
      x += ranks * RANK + GAP;
    }
    end = x;
  });
  if (!course.closed && rows.length && lanesOf.length) {
    // the finish line, after the last tile: clickable when the step ahead crosses it
    const y0 = pad + (rows.length - 1) * bandH;
    const x = end;
    const action = click.get(FINISH);
    const attrs = action ? ` data-action="${esc(action)}" style="cursor:pointer"` : "";
    svg += `<g data-finish="line"${attrs}><title>finish line${action ? ": " + esc(action) : ""}</title>`;
    for (let k = 0; k < LANES * 4; k++) {
      svg += `<rect x="${x - GAP + 1 + (k % 2) * 4}" y="${y0 + HEAD + k * LANE / 4}" width="4" height="${LANE / 4}" fill="#eee"/>`;
    }
    svg += `<rect x="${x - GAP}" y="${y0 + HEAD - 1}" width="10" height="${LANES * LANE + 2}" fill="none" rx="2" stroke="${action ? "#ffd21f" : "none"}" stroke-width="2.5"/></g>`;
  }
  svg += `</svg>`;
  const last = course.closed ? `start/finish line at the end of T0, ${course.laps} lap(s)` : `finish line at the end of T${lanesOf.length - 1}`;
  const turn = view.turn && view.active !== null && view.active !== undefined
    ? ` · P${view.active + 1}: ${esc(view.phase)}, movement ${view.turn.movement}, lane changes ${view.turn.lane_changes ?? "unlimited"}, activations ${view.turn.activations}`
    : "";
  return `${svg}<p class="muted">Round ${view.round ?? "–"} · ${esc(course.name || "")}: ${last} · travel left to right${turn}</p>${variantButtons(choices)}<div class="racer-cards">${dashboards(view, ctx)}</div>`;
}
