// Rush 'n' Crush in the browser: the decision of the car to play on top (the gear matrix, the move
// planned on the board, the pieces), then the course as one continuous road, its key, and every car's
// dashboard.
//
// The road: each tile is placed by its entry cell and heading (the view's course.tiles[t].cell and
// heading, content.md 4.6) and drawn in its own frame: a straight as a band, a 90-degree curve as a
// quarter ring (inner radius one cell, outer two), each lane cut into its squares by their lengths in
// ranks (course.tiles[t].lanes), so tiles join into one road and a curve's inner lane has fewer,
// longer squares.
//
// A move is planned from the engine's own rules: the seat to play receives ctx.plans (the game's
// move_plans hook, plans.py): every square its car can reach with plain steps and the steps that get
// there, and the single steps a die decides (a ram, an obstruction). A click on a square selects it:
// the path, the lane changes it spends and what follows are shown; "Drive" sends the steps one after
// the other (data-actions, match.js). Reads only the view and ctx: nothing here re-implements a rule.
import { esc } from "/static/common.js";

const LANE_UNITS = 25; // a lane's width in the drawing's units (a cell is four lanes)
const CELL = 4 * LANE_UNITS;
const PAD = 40;
const PHONE_LANE = 38; // px: a lane on a phone (a square on a straight is this wide and long; a tap target)
const ZOOM_STEPS = [16, 20, 26, 34, 44, 56];
const ZONE_COLOURS = { blue: "#3b73d9", yellow: "#e2bd2f", orange: "#ee8420", red: "#d7373a" };
const ORDINAL = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
const GEAR_WORD = ["zero", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th"];
const MOVE_MARK = { accelerate: "▲", brake: "▼", shift: "↔", turbo: "T", "brake-point": "B", keep: "●" };
const STYLE = `
.rnc-panel { background: #262b36; border-radius: 8px; padding: .45rem .6rem; margin: 0 0 .5rem; }
.rnc-panel h4 { margin: .1rem 0 .35rem; font-size: 1rem; }
.rnc-panel .rnc-lead { margin: 0 0 .4rem; }
.rnc-row { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .3rem 0; }
.rnc-row button, .rnc-go-button { min-height: 34px; }
.rnc-go-button { background: var(--accent, #ffb400); color: #111; font-weight: 700; border: none; }
.rnc-matrix { width: 100%; max-width: 470px; height: auto; display: block; }
.rnc-piece { display: inline-flex; gap: .35rem; align-items: center; background: #1f232c; border-radius: 8px; padding: .2rem .45rem; min-height: 34px; }
.rnc-piece.armed { box-shadow: inset 0 0 0 2px #3cb44b; }
.rnc-piece .rnc-state { font-size: .75rem; color: #98a0b0; }
.rnc-piece button { padding: .15rem .5rem; }
.rnc-panel button.clickable { outline: none; }
.rnc-zoom { display: flex; gap: .4rem; align-items: center; margin: .2rem 0 .35rem; font-size: .85rem; color: #98a0b0; }
.rnc-zoom button { min-width: 34px; min-height: 32px; }
rnc-scroll { display: block; overflow: auto; max-width: 100%; max-height: 78vh; border-radius: 14px; overscroll-behavior: contain; }
@media (max-width: 640px) { rnc-scroll { max-height: 64vh; } }
.board svg.rnc-course { max-width: none; display: block; }
.rnc-course [data-rc-plan] { cursor: pointer; }
.rnc-course .rnc-target > path { fill: #4d5a4a; stroke: #9fb85a; stroke-width: 1.2; }
.rnc-course .rnc-target.rnc-end > path { fill: #7c9e34; stroke: #e9ff6a; stroke-width: 2.5; }
.rnc-course .rnc-single > path { fill: #6b4a3a; stroke: #ff9d5c; stroke-width: 2.5; }
.rnc-course [data-rc-plan]:hover > path, .rnc-course [data-rc-plan]:focus > path { fill-opacity: .75; stroke: #fff; }
.rnc-course [data-rc-plan]:focus { outline: none; }
.rnc-course .rnc-picked > path { stroke: #fff !important; stroke-width: 3.5 !important; }
.rnc-course .rnc-go { cursor: pointer; }
.rnc-key { display: flex; flex-wrap: wrap; gap: .3rem 1rem; font-size: .85rem; margin: .4rem 0; }
.rnc-key span.rnc-item { display: inline-flex; gap: .35rem; align-items: center; }
.rnc-key svg { width: 22px; height: 22px; flex: none; }
.rnc-dash .racer-card .rnc-pieces { display: flex; flex-wrap: wrap; gap: .25rem; margin-top: .2rem; }
.rnc-chip { display: inline-block; border-radius: 999px; padding: 0 .45rem; font-size: .8rem; background: #3a4050; }
.rnc-chip.armed { background: #2f6b36; }
@media (max-width: 640px) { .rnc-panel { padding: .4rem .45rem; } }
`;

// --- module state (the browser's; the drawing itself is a function of the view and ctx) ------------

let selected = null; // {key, square}: the square picked for the position `key`
let last = null; // what the last drawing knows, for the click handler: {key, view, ctx, centres, plans, ...}
let laneZoom = null; // px per lane the player chose, "fit" (the whole course) or null (automatic)
let followed = null; // the turn whose car the course last scrolled to
let scrolled = null; // where the player left the course's box scrolled: {left, top}
let scrollTo = null; // where the next course box opens scrolled (set by draw, read as it is inserted)
let matrixOpen = false; // the gear matrix shown when it is not the viewer's gearstick decision
const matrices = new Map(); // match id -> the gear matrix (static for a match), once the seat received it

if (typeof document !== "undefined") {
  const style = document.createElement("style");
  style.textContent = STYLE;
  document.head.append(style);
  try {
    const chosen = localStorage.getItem("slipstream:rush-n-crush:lane");
    laneZoom = chosen === "fit" ? "fit" : Number(chosen) || null;
  } catch (e) { laneZoom = null; }
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  document.addEventListener("change", onChange);
  document.addEventListener("mouseover", (e) => preview(e, true));
  document.addEventListener("scroll", (e) => {
    if (e.target && e.target.localName === "rnc-scroll") scrolled = { left: e.target.scrollLeft, top: e.target.scrollTop };
  }, true);
  // The course scrolls in a box of its own (a phone shows part of it). A new drawing replaces the box,
  // so the box takes its scroll as it is inserted, before the page measures where the racers stand
  // (match.js glides them from there): a custom element's connectedCallback runs within innerHTML.
  if (typeof customElements !== "undefined" && !customElements.get("rnc-scroll")) {
    customElements.define("rnc-scroll", class extends HTMLElement {
      connectedCallback() {
        if (!scrollTo) return;
        this.scrollLeft = scrollTo.left;
        this.scrollTop = scrollTo.top;
        scrolled = { left: this.scrollLeft, top: this.scrollTop };
      }
    });
  }
  document.addEventListener("mouseout", (e) => preview(e, false));
}

// --- words ---------------------------------------------------------------------------------------

function termOf(ctx) {
  return typeof ctx.term === "function" ? ctx.term : (id, fallback) => esc(fallback ?? id);
}

function titled(id) {
  return String(id).split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

// A piece in words: its name, with its effect as a tip (the glossary's), else its id as a title.
function piece(ctx, id) {
  return termOf(ctx)(id, titled(id));
}

function gearName(gear) {
  return gear ? `${GEAR_WORD[gear] || gear + "th"} gear` : "zero spot";
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || one + "s"}`;
}

function percent(p) {
  return `${Math.round(p * 100)}%`;
}

// The kind of stretch a tile is, for a place said in words: a curve, an S-bend or a straight.
function stretch(kind) {
  if (/90/.test(kind || "")) return "curve";
  if (/^s-bend/.test(kind || "")) return "S-bend";
  return "straight";
}

// A square in words a player finds on the board: "lane 2, square 3 of the second curve" (lanes
// counted from the left in the direction of travel).
export function placeName(view, name) {
  if (name === "finish") return "the finish line";
  const [t, lane, index] = String(name).split(".").map(Number);
  const tiles = (view.course && view.course.tiles) || [];
  if (!tiles[t]) return String(name);
  const kind = stretch(tiles[t].kind);
  const nth = tiles.slice(0, t + 1).filter((tile) => stretch(tile.kind) === kind).length;
  const total = tiles.filter((tile) => stretch(tile.kind) === kind).length;
  const which = total === 1 ? `the ${kind}` : `the ${ORDINAL[nth] || nth + "th"} ${kind}`;
  return `lane ${lane + 1}, square ${index + 1} of ${which}`;
}

// --- the road ------------------------------------------------------------------------------------

const HEAD = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
const RIGHT_OF = { N: "E", E: "S", S: "W", W: "N" };

function tileRanks(tile) {
  return ((tile.lanes || [])[0] || []).reduce((a, b) => a + b, 0);
}

// Each tile's frame on the grid of cells (y up): `left` the left corner of its entry edge, `f` its
// direction of travel, `s` its right, `turn` (-1 left, 0 straight, 1 right: read from the next tile's
// heading, or the shape's name for the last tile of an open course), `length` in cells (a straight).
export function frames(course) {
  const tiles = (course && course.tiles) || [];
  const order = "NESW";
  return tiles.map((tile, t) => {
    const f = HEAD[tile.heading] || HEAD.N;
    const s = HEAD[RIGHT_OF[tile.heading] || "E"];
    const [x, y] = tile.cell || [0, 2 * t];
    const left = [x + 0.5 - f[0] / 2 - s[0] / 2, y + 0.5 - f[1] / 2 - s[1] / 2];
    const next = tiles[t + 1] || (course.closed && tiles.length > 1 ? tiles[0] : null);
    let turn = /left/.test(tile.shape || "") ? -1 : /right/.test(tile.shape || "") ? 1 : 0;
    let length = 2;
    if (next) {
      const d = (order.indexOf(next.heading) - order.indexOf(tile.heading) + 4) % 4;
      turn = d === 1 ? 1 : d === 3 ? -1 : 0;
      const [nx, ny] = next.cell || [x, y + 2];
      if (!turn) length = Math.max(1, (nx - x) * f[0] + (ny - y) * f[1]);
    }
    return { f, s, left, turn, length, ranks: tileRanks(tile) || 1, lanes: (tile.lanes || []).length || 4 };
  });
}

// The point `p` ranks into a tile, `v` of the way across it from its left edge (0..1), in cells.
function at(frame, p, v) {
  const { f, s, left, turn, ranks } = frame;
  if (!turn) {
    const u = (p / ranks) * frame.length;
    return [left[0] + u * f[0] + v * s[0], left[1] + u * f[1] + v * s[1]];
  }
  const angle = (p / ranks) * (Math.PI / 2);
  const c = Math.cos(angle);
  const n = Math.sin(angle);
  if (turn < 0) { // the turn's centre one cell left of the left corner; lane 0 is the inner one
    const r = 1 + v;
    return [left[0] - s[0] + r * (c * s[0] + n * f[0]), left[1] - s[1] + r * (c * s[1] + n * f[1])];
  }
  const r = 2 - v; // a right turn's centre one cell right of the right corner; the last lane is inner
  return [left[0] + 2 * s[0] + r * (-c * s[0] + n * f[0]), left[1] + 2 * s[1] + r * (-c * s[1] + n * f[1])];
}

// The course as shapes in cells: every square's outline and centre, each tile's edges, and the lines.
export function road(course) {
  const tiles = (course && course.tiles) || [];
  const frameOf = frames(course);
  const squares = [];
  const edges = [];
  tiles.forEach((tile, t) => {
    const frame = frameOf[t];
    const lanes = tile.lanes || [];
    const across = lanes.length || 4;
    const blocked = new Set((tile.obstructions || []).map(([l, i]) => `${l}.${i}`));
    lanes.forEach((spans, lane) => {
      let a = 0;
      const v0 = lane / across;
      const v1 = (lane + 1) / across;
      spans.forEach((span, index) => {
        const b = a + span;
        const steps = frame.turn ? Math.max(2, Math.ceil(span * 3)) : 1;
        const outline = [];
        for (let k = 0; k <= steps; k++) outline.push(at(frame, a + ((b - a) * k) / steps, v0));
        for (let k = steps; k >= 0; k--) outline.push(at(frame, a + ((b - a) * k) / steps, v1));
        squares.push({ name: `${t}.${lane}.${index}`, tile: t, lane, index, outline, centre: at(frame, (a + b) / 2, (v0 + v1) / 2),
          obstruction: blocked.has(`${lane}.${index}`) });
        a = b;
      });
    });
    const side = (v) => {
      const points = [];
      const steps = frame.turn ? 18 : 1;
      for (let k = 0; k <= steps; k++) points.push(at(frame, (frame.ranks * k) / steps, v));
      return points;
    };
    edges.push({ tile: t, left: side(0), right: side(1), lanes: Array.from({ length: across - 1 }, (_, k) => side((k + 1) / across)),
      entry: [at(frame, 0, 0), at(frame, 0, 1)], exit: [at(frame, frame.ranks, 0), at(frame, frame.ranks, 1)],
      middle: [at(frame, frame.ranks / 2, 0.5), at(frame, frame.ranks / 2 + 0.5, 0.5)] });
  });
  return { squares, edges };
}

// The drawing's units from cells (y down), the course's bounding box padded. `tall`: the course is
// turned a quarter so that its longer side runs down the screen (a phone), else across it (a laptop);
// directions on the course are the cars' own (left, ahead), so turning the picture changes nothing.
function projector(shapes, tall) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const sq of shapes.squares) {
    for (const [x, y] of sq.outline) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
  }
  if (!Number.isFinite(minX)) { minX = minY = 0; maxX = maxY = 1; }
  const turn = tall !== (maxY - minY >= maxX - minX);
  const spanX = turn ? maxY - minY : maxX - minX;
  const spanY = turn ? maxX - minX : maxY - minY;
  const project = turn
    ? ([x, y]) => [PAD + (maxY - y) * CELL, PAD + (maxX - x) * CELL]
    : ([x, y]) => [PAD + (x - minX) * CELL, PAD + (maxY - y) * CELL];
  return { project, width: 2 * PAD + spanX * CELL, height: 2 * PAD + spanY * CELL };
}

function pointsText(points, project) {
  return points.map((p) => project(p).map((n) => n.toFixed(1)).join(",")).join(" ");
}

// The checkered line across the road at an edge (start or finish), named just past it.
function line(edge, project, label, attrs = "") {
  const [a, b] = edge.map(project);
  const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const ahead = [(b[1] - a[1]) / length, -(b[0] - a[0]) / length]; // the direction of travel on screen
  const at = [mid[0] + ahead[0] * 16, mid[1] + ahead[1] * 16 + 4];
  const tag = `<text x="${at[0].toFixed(1)}" y="${at[1].toFixed(1)}" text-anchor="middle" font-size="12" font-weight="700" fill="#fff" stroke="#1f2229" stroke-width="4" paint-order="stroke">${esc(label)}</text>`;
  return `<g class="rnc-line"${attrs}><title>${esc(label.toLowerCase())}</title>`
    + `<line x1="${a[0].toFixed(1)}" y1="${a[1].toFixed(1)}" x2="${b[0].toFixed(1)}" y2="${b[1].toFixed(1)}" stroke="transparent" stroke-width="26"/>`
    + `<line x1="${a[0].toFixed(1)}" y1="${a[1].toFixed(1)}" x2="${b[0].toFixed(1)}" y2="${b[1].toFixed(1)}" stroke="#fff" stroke-width="8"/>`
    + `<line x1="${a[0].toFixed(1)}" y1="${a[1].toFixed(1)}" x2="${b[0].toFixed(1)}" y2="${b[1].toFixed(1)}" stroke="#111" stroke-width="8" stroke-dasharray="4 4"/>`
    + `${tag}</g>`;
}

// --- things on the road: drawn in the course and in its key alike ---------------------------------

function rockSvg(x, y, size) {
  const r = size;
  return `<path d="M${x - r},${y + r * 0.7} L${x - r * 0.45},${y - r * 0.6} L${x + r * 0.1},${y - r * 0.2} L${x + r * 0.5},${y - r * 0.8} L${x + r},${y + r * 0.7} Z" fill="#a7a39a" stroke="#222" stroke-width="1.2"/>`;
}

function wreckSvg(x, y, size) {
  const r = size;
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="#2b2118" stroke="#ff7a1a" stroke-width="1.5"/>`
    + `<path d="M${x - r * 0.55},${y - r * 0.55} L${x + r * 0.55},${y + r * 0.55} M${x + r * 0.55},${y - r * 0.55} L${x - r * 0.55},${y + r * 0.55}" stroke="#ff7a1a" stroke-width="2.4" stroke-linecap="round"/>`;
}

function mineSvg(x, y, size, colour) {
  const r = size * 0.55;
  let spikes = "";
  for (let k = 0; k < 8; k++) {
    const a = (k * Math.PI) / 4;
    spikes += `M${(x + Math.cos(a) * r).toFixed(1)},${(y + Math.sin(a) * r).toFixed(1)} L${(x + Math.cos(a) * size).toFixed(1)},${(y + Math.sin(a) * size).toFixed(1)} `;
  }
  return `<path d="${spikes}" stroke="#111" stroke-width="2"/><circle cx="${x}" cy="${y}" r="${r.toFixed(1)}" fill="${colour}" stroke="#111" stroke-width="1.5"/>`;
}

function carSvg(x, y, size, colour, label, ring) {
  return `<circle cx="${x}" cy="${y}" r="${size}" fill="${colour}" stroke="${ring ? "#fff" : "#111"}" stroke-width="${ring ? 3 : 1.2}"/>`
    + `<text x="${x}" y="${y + size * 0.42}" text-anchor="middle" font-size="${(size * 1.2).toFixed(0)}" font-weight="700" fill="#fff">${esc(label)}</text>`;
}

function icon(inner) {
  return `<svg viewBox="0 0 24 24" aria-hidden="true">${inner}</svg>`;
}

// The key: what each mark on the road is, and what the highlighted squares mean.
function legend(view, ctx) {
  const term = termOf(ctx);
  const g = ctx.glossary || {};
  const words = (id, fallback) => (g[id] && g[id].text) || fallback;
  const items = [
    [icon(carSvg(12, 12, 9, ctx.colours[0], "1", true)), "a car, by its seat; ringed: the car to play"],
    [icon(wreckSvg(12, 12, 9)), `${term("wreck", "Wreck")}: ${esc(words("wreck", "a destroyed car; a car entering its square rolls a die, 1-3 costs 1 structure"))}`],
    [icon(mineSvg(12, 12, 10, ctx.colours[1])), `${term("mine", "Mine")} (its owner's colour): ${esc(words("mine", "a car entering its square rolls a die, 1-3 costs 1 structure and removes the mine; its owner passes safely"))}`],
    [icon(`<rect x="2" y="2" width="20" height="20" rx="3" fill="#4a4f5c"/>${rockSvg(12, 13, 8)}`), `${term("obstruction", "Fixed obstruction")}: ${esc(words("obstruction", "driving into it costs structure (the white dice, inverted), then you swerve; no diagonal step into it"))}`],
    [icon(`<rect x="1" y="4" width="22" height="16" fill="#fff"/><path d="M1,4h5.5v8h-5.5zM12,4h5.5v8h-5.5zM6.5,12h5.5v8h-5.5zM17.5,12h5.5v8h-5.5z" fill="#111"/>`), view.course && view.course.closed ? "the start and finish line" : "start line; finish line at the end of the road"],
  ];
  if (ctx.plans && ctx.plans.paths) {
    items.push([icon(`<rect x="2" y="2" width="20" height="20" rx="3" fill="#6e8a3a" stroke="#e9ff6a" stroke-width="2.5"/>`), "your move can end here (bright) or pass here (dim)"]);
  }
  return `<div class="rnc-key muted">${items.map(([svg, text]) => `<span class="rnc-item">${svg}<span>${text}</span></span>`).join("")}`
    + `<span class="rnc-item">lanes 1-4 from the left, in the direction of travel</span></div>`;
}

// --- the course ----------------------------------------------------------------------------------

function positionKey(view) {
  const car = (view.cars || [])[view.active];
  const turn = view.turn || {};
  return [view.round, view.active, view.phase, car && car.square, turn.movement, turn.lane_changes, car && car.steering].join("|");
}

// The lane's width on screen: the player's zoom ("fit": the whole course across the board), else
// tap-sized on a phone, else the whole course across the board's width (squares of 20 to 44 px).
function laneSize(ctx, shapes) {
  if (typeof laneZoom === "number") return laneZoom;
  const width = (typeof document !== "undefined" && document.getElementById("board")?.clientWidth) || 780;
  const fit = Math.floor(((width - 24) / shapes.width) * LANE_UNITS);
  if (laneZoom === "fit") return Math.max(6, Math.min(44, fit));
  return ctx.narrow ? PHONE_LANE : Math.max(20, Math.min(44, fit));
}

function course(view, ctx, plans, picked) {
  const shapes = road(view.course || {});
  const { project, width, height } = projector(shapes, !!ctx.narrow);
  const lane = laneSize(ctx, { width, height });
  const scale = lane / LANE_UNITS;
  const things = new Map();
  for (const sq of view.obstructions || []) things.set(sq, { kind: "rock" });
  for (const m of view.mines || []) things.set(m.square, { kind: "mine", owner: m.owner });
  for (const w of view.wrecks || []) things.set(w, { kind: "wreck" });
  const targets = new Map((plans.paths || []).map((p) => [p.square, p]));
  const singles = new Map((plans.steps || []).map((s) => [s.square, s]));
  const swerving = (plans.steps || []).some((s) => s.kind === "swerve");
  const centres = new Map();
  let svg = `<svg class="rnc-course" viewBox="0 0 ${width.toFixed(0)} ${height.toFixed(0)}" width="${(width * scale).toFixed(0)}" height="${(height * scale).toFixed(0)}" style="width:${(width * scale).toFixed(0)}px;height:${(height * scale).toFixed(0)}px" role="img" aria-label="the course">`;
  svg += `<rect width="${width.toFixed(0)}" height="${height.toFixed(0)}" rx="14" fill="#1f2229"/>`;
  // the road's bed under each tile, then its squares
  for (const e of shapes.edges) {
    svg += `<polygon points="${pointsText([...e.left, ...[...e.right].reverse()], project)}" fill="#30343c" stroke="#30343c" stroke-width="6"/>`;
  }
  for (const sq of shapes.squares) {
    centres.set(sq.name, project(sq.centre));
    const [cx, cy] = project(sq.centre);
    const thing = things.get(sq.name);
    const plan = targets.get(sq.name);
    const single = singles.get(sq.name);
    let cls = "";
    let attrs = "";
    let title = placeName(view, sq.name);
    if (swerving && single) {
      cls = " rnc-single";
      attrs = ` data-action="${esc(single.action)}"`;
      title += `: swerve ${single.action.endsWith("left") ? "left" : "right"}`;
    } else if (plan || single) {
      const ends = plan && (plan.then === "stop" || plan.then === "finish");
      cls = plan ? ` rnc-target${ends ? " rnc-end" : ""}` : " rnc-single";
      attrs = ` data-rc-plan="${esc(sq.name)}" tabindex="0" role="button" aria-label="${esc(planTitle(view, ctx, plan, single))}"`;
      title = planTitle(view, ctx, plan, single);
    }
    if (picked === sq.name && cls) cls += " rnc-picked";
    svg += `<g class="rnc-square${cls}" data-square="${sq.name}"${attrs}><title>${esc(title)}</title>`;
    svg += `<path d="M${pointsText(sq.outline, project).replace(/ /g, " L")} Z" fill="${sq.obstruction ? "#5d5a55" : "#474c58"}" stroke="#2a2e35" stroke-width="1"/>`;
    if (thing && thing.kind === "rock") svg += rockSvg(cx, cy, 8);
    if (thing && thing.kind === "mine") svg += mineSvg(cx, cy, 9, ctx.colours[thing.owner % ctx.colours.length]);
    if (thing && thing.kind === "wreck") svg += wreckSvg(cx, cy, 9);
    svg += `</g>`;
  }
  // the road's edges and lane lines, a chevron for the direction of travel, then the lines
  for (const e of shapes.edges) {
    for (const l of e.lanes) svg += `<polyline points="${pointsText(l, project)}" fill="none" stroke="#8d93a1" stroke-width="1" stroke-dasharray="5 6" opacity=".55"/>`;
    svg += `<polyline points="${pointsText(e.left, project)}" fill="none" stroke="#e9ecf2" stroke-width="2.5"/>`;
    svg += `<polyline points="${pointsText(e.right, project)}" fill="none" stroke="#e9ecf2" stroke-width="2.5"/>`;
  }
  const tiles = shapes.edges;
  if (tiles.length) {
    const closed = view.course && view.course.closed;
    svg += line(tiles[0].exit, project, closed ? "START / FINISH" : "START");
    if (!closed) {
      const finish = targets.get("finish");
      const attrs = finish ? ` data-rc-plan="finish" tabindex="0" role="button" aria-label="${esc(planTitle(view, ctx, finish, null))}"` : "";
      svg += line(tiles[tiles.length - 1].exit, project, "FINISH", attrs);
      const [a, b] = tiles[tiles.length - 1].exit.map(project);
      centres.set("finish", [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    }
  }
  svg += `<g class="rnc-selection"></g>`;
  // the cars on top (a ram's target stays a click on the square it stands on)
  for (const c of view.cars || []) {
    if (!c.square || c.destroyed || !centres.has(c.square)) continue;
    const [cx, cy] = centres.get(c.square);
    const colour = ctx.colours[c.seat % ctx.colours.length];
    const me = c.seat === ctx.seat ? " me" : "";
    const single = singles.get(c.square);
    const attrs = single && !swerving ? ` data-rc-plan="${esc(c.square)}"` : "";
    svg += `<g class="racer${me}" data-seat="${c.seat}" data-at="${esc(c.square)}"${attrs}><title>${esc(ctx.names[c.seat] || `P${c.seat + 1}`)}: ${esc(placeName(view, c.square))}</title>`;
    svg += carSvg(cx, cy, LANE_UNITS * 0.4, colour, c.seat + 1, view.active === c.seat) + `</g>`;
  }
  svg += `</svg>`;
  return { svg, centres, scale, width, height, lane };
}

// --- a planned move ------------------------------------------------------------------------------

const THEN = {
  move: (p) => `then you go on (${plural(p.movement_left, "square")} of movement left)`,
  stop: () => "your move ends there",
  finish: () => "you cross the finish line and win",
};

const SINGLE = {
  "side-ram": (name) => `Side Ram ${name}: a die decides who takes damage and whether ${name} is pushed aside (the Side Bumper adds 1 to it; the Circular Saw rolls its own die, 4-6 costs ${name} 1 structure)`,
  "rush-n-crush": (name) => `Rush 'n' Crush ${name} from behind: your move ends, a die for each point of movement left`,
  obstruction: () => "drive into the fixed obstruction: it costs structure, then you swerve",
};

function carName(ctx, seat) {
  return (ctx.names && ctx.names[seat]) || `P${seat + 1}`;
}

// What a plan or a single step is, in one line (the square's title and the panel's lead).
function planTitle(view, ctx, plan, single) {
  if (plan) {
    const where = placeName(view, plan.square);
    const changes = plan.lane_changes ? `, ${plural(plan.lane_changes, "lane change")}` : "";
    const roll = plan.then === "roll" ? `a die for the ${plan.roll === "mine" ? "mine" : "wreck"} there (1-3 costs 1 structure)` : THEN[plan.then](plan);
    return `Drive to ${where}: ${plural(plan.steps.length, "square")}${changes}; ${roll}`;
  }
  const what = SINGLE[single.kind];
  return what ? what(single.car !== null && single.car !== undefined ? carName(ctx, single.car) : "") : single.action;
}

// The lane changes a plan spends: the white dice's first, then Steering points.
export function spendText(plan, view) {
  if (!plan.lane_changes) return "no lane change";
  const left = view.turn && view.turn.lane_changes;
  const parts = [];
  if (plan.dice) parts.push(left === null || left === undefined ? "free at this speed" : `${plan.dice} of your ${left} from the white dice`);
  if (plan.steering) parts.push(`${plural(plan.steering, "Steering point")} (kept from turn to turn)`);
  return `${plural(plan.lane_changes, "lane change")}: ${parts.join(", then ")}`;
}

// The actions of a plan with a mine dropped as it leaves the square of step `mineAt` (-1: none).
export function planActions(plan, mineAt) {
  return plan.steps.map((a, i) => (i === mineAt ? `${a}+mine` : a)).join(" ");
}

const SINGLE_WORD = { "side-ram": "Side Ram", "rush-n-crush": "Rush 'n' Crush", obstruction: "Drive into it" };

// A single step's button: what it is, the pieces it Uses (their effects in their tips), a mine dropped.
function variantLabel(ctx, single, action) {
  const extras = action.split("+").slice(1);
  const pieces = [];
  if (extras.includes("bumper")) pieces.push(piece(ctx, "side-bumper"));
  if (extras.includes("saw")) pieces.push(piece(ctx, "circular-saw"));
  const using = pieces.length ? ` with the ${pieces.join(" and the ")}` : "";
  return `${esc(SINGLE_WORD[single.kind] || action)}${using}${extras.includes("mine") ? ", dropping a mine where you are" : ""}`;
}

// The panel of the square picked: the path in words, what it spends and what follows, and the buttons.
export function panel(view, ctx, plan, single) {
  if (!plan && !single) {
    return `<p class="rnc-lead">Tap the square you want to reach: the bright ones end your move, the dim ones are on the way. Your car must use all its movement.</p>`;
  }
  if (plan) {
    const mines = plan.mines || [];
    const mineChoice = mines.length
      ? `<label class="rnc-row">Drop a mine: <select data-rc-mine><option value="-1">no mine</option>${mines.map((i) => `<option value="${i}">as you leave ${esc(i === 0 ? "your square" : placeName(view, plan.through[i - 1]))}</option>`).join("")}</select></label>`
      : "";
    return `<p class="rnc-lead"><b>${esc(planTitle(view, ctx, plan, null))}</b></p>`
      + `<p class="muted rnc-lead">Path: ${plan.steps.map((a) => ({ ahead: "ahead", left: "left", right: "right" }[a] || a)).join(" → ")} · ${esc(spendText(plan, view))}</p>`
      + mineChoice
      + `<div class="rnc-row"><button type="button" class="rnc-go-button" data-actions="${esc(planActions(plan, -1))}">Drive there ▶</button>`
      + `<button type="button" data-rc-cancel>Choose another square</button></div>`;
  }
  const buttons = [single.action, ...(single.variants || [])].map((a) => `<button type="button" class="${a === single.action ? "rnc-go-button" : ""}" data-action="${esc(a)}">${variantLabel(ctx, single, a)}</button>`).join("");
  return `<p class="rnc-lead"><b>${esc(planTitle(view, ctx, null, single))}</b></p><div class="rnc-row">${buttons}<button type="button" data-rc-cancel>Choose another square</button></div>`;
}

// The path drawn on the course: from the car through every square to the one picked, a dot where a
// lane change is spent, and a "Drive" bubble by the square.
function selectionSvg(state, square, faint = false) {
  const plan = state.plans.get(square);
  const single = state.singles.get(square);
  const from = state.centres.get(state.carSquare);
  const to = state.centres.get(square);
  if (!from || !to) return "";
  const points = [from, ...(plan ? plan.through.map((s) => state.centres.get(s)).filter(Boolean) : [to])];
  let out = `<polyline points="${points.map((p) => p.map((n) => n.toFixed(1)).join(",")).join(" ")}" fill="none" stroke="#ffd21f" stroke-width="5" stroke-linejoin="round" stroke-linecap="round" opacity="${faint ? 0.55 : 0.9}" pointer-events="none"/>`;
  if (plan) {
    plan.steps.forEach((a, i) => {
      if (a === "ahead") return;
      const p = points[i + 1];
      out += `<circle cx="${p[0].toFixed(1)}" cy="${p[1].toFixed(1)}" r="5" fill="#ffd21f" stroke="#111" pointer-events="none"><title>a lane change</title></circle>`;
    });
  }
  if (faint) return out;
  const label = plan ? "Drive ▶" : single.kind === "obstruction" ? "Crash ▶" : "Ram ▶";
  const actions = plan ? planActions(plan, -1) : single.action;
  const w = 68;
  const h = 28;
  const x = Math.min(Math.max(to[0] - w / 2, 4), state.width - w - 4);
  const y = to[1] - 14 - h > 4 ? to[1] - 14 - h : to[1] + 14;
  out += `<g class="rnc-go" data-actions="${esc(actions)}" role="button"><rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${w}" height="${h}" rx="8" fill="#ffb400" stroke="#111"/>`
    + `<text x="${(x + w / 2).toFixed(1)}" y="${(y + 19).toFixed(1)}" text-anchor="middle" font-size="15" font-weight="700" fill="#111">${label}</text></g>`;
  return out;
}

function select(square) {
  if (!last) return;
  const board = document.getElementById("board");
  if (!board) return;
  selected = square === null ? null : { key: last.key, square };
  for (const el of board.querySelectorAll(".rnc-picked")) el.classList.remove("rnc-picked");
  const layer = board.querySelector(".rnc-selection");
  if (layer) layer.innerHTML = square === null ? "" : selectionSvg(last, square);
  if (square !== null) {
    const el = board.querySelector(`[data-rc-plan="${CSS.escape(square)}"]:not(.racer)`);
    if (el) el.classList.add("rnc-picked");
  }
  const box = board.querySelector(".rnc-plan");
  if (box) {
    box.innerHTML = panel(last.view, last.ctx, square === null ? null : last.plans.get(square), square === null ? null : last.singles.get(square));
    const go = box.querySelector(".rnc-go-button");
    if (go && square !== null) go.focus({ preventScroll: true });
  }
  const bubble = board.querySelector(".rnc-go");
  if (bubble && bubble.scrollIntoView) bubble.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "smooth" });
}

// With a mouse, the path to a square shows while the pointer is on it (until a square is picked).
function preview(e, on) {
  const el = e.target && e.target.closest ? e.target.closest("#board [data-rc-plan]") : null;
  if (!el || !last || (selected && selected.key === last.key)) return;
  const layer = document.querySelector("#board .rnc-selection");
  if (layer) layer.innerHTML = on ? selectionSvg(last, el.dataset.rcPlan, true) : "";
}

function onClick(e) {
  const target = e.target && e.target.closest ? e.target : null;
  if (!target || !target.closest("#board")) return;
  const zoom = target.closest("[data-rc-zoom]");
  if (zoom) { setZoom(zoom.dataset.rcZoom); return; }
  if (target.closest("[data-rc-cancel]")) { select(null); return; }
  const matrix = target.closest("[data-rc-matrix]");
  if (matrix) { matrixOpen = !matrix.closest("details").open; return; }
  const plan = target.closest("[data-rc-plan]");
  if (plan && last) select(plan.dataset.rcPlan);
}

function onKey(e) {
  if ((e.key !== "Enter" && e.key !== " ") || !e.target || !e.target.dataset || !e.target.dataset.rcPlan) return;
  e.preventDefault();
  select(e.target.dataset.rcPlan);
}

// The mine choice: the "Drive" buttons send the steps with the mine dropped where chosen.
function onChange(e) {
  if (!e.target || !e.target.matches || !e.target.matches("#board select[data-rc-mine]") || !last || !selected) return;
  const plan = last.plans.get(selected.square);
  if (!plan) return;
  const actions = planActions(plan, Number(e.target.value));
  for (const el of document.querySelectorAll("#board [data-actions]")) el.dataset.actions = actions;
}

function setZoom(how) {
  const board = document.getElementById("board");
  const svg = board && board.querySelector("svg.rnc-course");
  if (!svg || !last) return;
  const now = last.lane;
  if (how === "fit") laneZoom = "fit";
  else if (how === "in") laneZoom = ZOOM_STEPS.find((z) => z > now) || ZOOM_STEPS[ZOOM_STEPS.length - 1];
  else laneZoom = [...ZOOM_STEPS].reverse().find((z) => z < now) || ZOOM_STEPS[0];
  try { localStorage.setItem("slipstream:rush-n-crush:lane", laneZoom ? String(laneZoom) : ""); } catch (e) { /* private mode */ }
  const lane = laneSize(last.ctx, last);
  const box = board.querySelector("rnc-scroll");
  const centre = box ? [(box.scrollLeft + box.clientWidth / 2) / now, (box.scrollTop + box.clientHeight / 2) / now] : null;
  last.lane = lane;
  const w = (last.width * lane) / LANE_UNITS;
  const h = (last.height * lane) / LANE_UNITS;
  svg.setAttribute("width", w.toFixed(0));
  svg.setAttribute("height", h.toFixed(0));
  svg.style.width = `${w.toFixed(0)}px`;
  svg.style.height = `${h.toFixed(0)}px`;
  if (box && centre) {
    box.scrollLeft = Math.max(0, centre[0] * lane - box.clientWidth / 2);
    box.scrollTop = Math.max(0, centre[1] * lane - box.clientHeight / 2);
  }
}

// Where the course's box opens scrolled: at each car's turn, centred on that car (once: the player
// may scroll away), else where the player left it. The page itself never scrolls.
function scrollFor(view, ctx, centres, scale, size) {
  const turn = `${ctx.match && ctx.match.id}|${view.round}|${view.active}`;
  const car = (view.cars || [])[view.active];
  const at = car && centres.get(car.square);
  if (followed === turn || !at || typeof document === "undefined") return scrolled;
  followed = turn;
  const board = document.getElementById("board");
  const width = board ? board.clientWidth - 16 : 360;
  const height = Math.min(size[1], window.innerHeight * (ctx.narrow ? 0.64 : 0.78));
  return { left: Math.max(0, at[0] * scale - width / 2), top: Math.max(0, at[1] * scale - height / 2) };
}

// --- the gear matrix -----------------------------------------------------------------------------

function matrixSvg(matrix, view, ctx, options) {
  const nodes = matrix.nodes || [];
  const byName = new Map(nodes.map((n) => [n.node, n]));
  const gears = Math.max(...nodes.map((n) => n.gear), 1);
  const rows = Math.max(...nodes.map((n) => n.row), 1);
  const colW = 44;
  const rowH = 36;
  const left = 8;
  const top = 26;
  const textW = 92;
  const W = left + (gears + 1) * colW + textW;
  const H = top + (rows + 1) * rowH + 6;
  const xy = (n) => [left + colW / 2 + n.gear * colW, top + rowH / 2 + (rows - n.row) * rowH];
  const offered = new Map((options || []).filter((o) => o.move !== "done").map((o) => [o.node, o]));
  const car = (view.cars || [])[ctx.seat];
  let svg = `<svg class="rnc-matrix" viewBox="0 0 ${W} ${H}" role="img" aria-label="the gear matrix">`;
  for (let g = 1; g <= gears; g++) svg += `<text x="${left + colW / 2 + g * colW}" y="16" text-anchor="middle" font-size="12" fill="#aab">${GEAR_WORD[g] || g}</text>`;
  svg += `<text x="${left + colW / 2}" y="16" text-anchor="middle" font-size="11" fill="#aab">gear</text>`;
  svg += `<text x="${left + (gears + 1) * colW + 4}" y="16" font-size="11" fill="#aab">white dice</text>`;
  const rowRules = new Map();
  for (const n of nodes) if (!rowRules.has(n.row)) rowRules.set(n.row, n.white);
  for (const [row, white] of rowRules) {
    if (!row) continue;
    const words = white.rule === "unlimited" ? "unlimited" : white.rule === "none" ? "none" : `${white.rule} of ${white.dice}`;
    svg += `<text x="${left + (gears + 1) * colW + 4}" y="${top + rowH / 2 + (rows - row) * rowH + 4}" font-size="11" fill="#aab">${esc(white.dice === 1 && white.rule !== "unlimited" ? "1 die" : words)}</text>`;
  }
  for (const [a, b] of matrix.lines || []) {
    const [x1, y1] = xy(byName.get(a));
    const [x2, y2] = xy(byName.get(b));
    svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#cfd3dc" stroke-width="1.6" opacity=".7"/>`;
  }
  for (const [a, b] of matrix.dashed || []) {
    const [x1, y1] = xy(byName.get(a));
    const [x2, y2] = xy(byName.get(b));
    svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#cfd3dc" stroke-width="1.6" stroke-dasharray="4 4" opacity=".8"/>`;
  }
  for (const n of nodes) {
    const [x, y] = xy(n);
    const option = offered.get(n.node);
    const here = car && car.node === n.node;
    const fill = n.zone ? ZONE_COLOURS[n.zone] || "#777" : "#666";
    const dice = n.red_dice ? ` · ${plural(n.red_dice, "red die", "red dice")}` : "";
    const title = `${gearName(n.gear)}${n.zone ? ", " + n.zone : ""}: speed ${n.speed}${dice}`;
    const attrs = option ? ` data-action="${esc(option.action)}"` : "";
    svg += `<g class="rnc-node" data-node="${esc(n.node)}"${attrs}><title>${esc(option ? optionText(option) : title)}</title>`;
    if (option) svg += `<rect x="${x - colW / 2 + 1}" y="${y - rowH / 2 + 1}" width="${colW - 2}" height="${rowH - 2}" rx="8" fill="#ffd21f" fill-opacity=".16" stroke="#ffd21f" stroke-width="1.5"/>`;
    svg += `<circle cx="${x}" cy="${y}" r="14" fill="${fill}" stroke="${here ? "#fff" : "#111"}" stroke-width="${here ? 3.5 : 1}"/>`;
    svg += `<text x="${x}" y="${y + 4.5}" text-anchor="middle" font-size="13" font-weight="700" fill="${n.zone === "yellow" ? "#111" : "#fff"}">${n.speed}</text>`;
    if (option && MOVE_MARK[option.move]) svg += `<text x="${x + 15}" y="${y - 7}" text-anchor="middle" font-size="11" font-weight="700" fill="#ffd21f">${MOVE_MARK[option.move]}</text>`;
    svg += `</g>`;
  }
  // every car's gearstick: a pawn in its colour beside its node
  const stands = new Map();
  for (const c of view.cars || []) {
    if (c.destroyed || !byName.has(c.node)) continue;
    const k = stands.get(c.node) || 0;
    stands.set(c.node, k + 1);
    const [x, y] = xy(byName.get(c.node));
    svg += `<circle class="rnc-pawn" cx="${x - 15 + k * 7}" cy="${y + 13}" r="4.5" fill="${ctx.colours[c.seat % ctx.colours.length]}" stroke="#111"><title>${esc(carName(ctx, c.seat))}'s gearstick</title></circle>`;
  }
  return `${svg}</svg>`;
}

function heatText(option) {
  if (!option.red_dice) return "no red dice (no heat)";
  return `${plural(option.red_dice, "red die", "red dice")} heating on 1-${option.heat_on}: heat ${percent(option.heat)}`;
}

function optionText(option) {
  const what = { accelerate: "Accelerate to", brake: "Brake to", shift: "Shift to", keep: "Keep", turbo: "Turbo point: accelerate to", "brake-point": "Brake point: brake to" }[option.move] || option.move;
  const zone = option.zone ? `, ${option.zone}` : "";
  const changes = option.lane_changes === null ? "unlimited lane changes" : `${option.lane_changes.toFixed(1)} lane changes expected`;
  return `${what} ${gearName(option.node === "zero" ? 0 : Number(option.node.replace(/\D/g, "")))}${zone}: speed ${option.speed} · ${heatText(option)} · ${changes}`;
}

function gearPanel(view, ctx, plans, car) {
  const options = plans.options || [];
  const points = plans.stage === "points";
  const lead = points
    ? `Spend Turbo points to accelerate (each one makes the red dice heat on one more face) or Brake points to slow down, one at a time, then stop.`
    : `Choose your gear: higher is faster but heats the engine. Speed is how many squares you move; the zone's red dice may heat the engine; the white dice give your lane changes.`;
  const now = car.node === "zero" ? "at the zero spot" : `in ${gearName(car.gear)}, ${car.zone} zone, speed ${car.speed}`;
  const rows = options.map((o) => `<button type="button" data-action="${esc(o.action)}">${o.move === "done" ? "No more points" : esc(optionText(o))}</button>`).join("");
  const points_left = points ? ` · Turbo points ${car.turbo}, Brake points ${car.brake}` : "";
  return `<div class="rnc-panel"><h4>${points ? "Turbo or Brake points" : "Your gear"}</h4><p class="rnc-lead">${esc(lead)}</p>`
    + `<p class="muted rnc-lead">Your gearstick is ${esc(now)}${points_left}. ▲ accelerate, ▼ brake (one white line), ↔ shift (along a dashed line), T Turbo point, B Brake point; a colour is a zone: blue no red dice, yellow 1, orange 2, red 3.</p>`
    + matrixSvg(plans.matrix, view, ctx, options)
    + `<div class="rnc-row">${rows}</div></div>`;
}

// --- the pieces: one panel, each armed or used with one click --------------------------------------

const USE_WORD = { "machine-gun": "Fire", flamer: "Fire", "fire-extinguisher": "Use: 1 heat less" };

function piecesPanel(view, ctx, car) {
  const legal = new Set(ctx.legal || []);
  const armed = new Set(car.armed || []);
  const moved = new Set((view.turn && view.turn.moved) || []);
  const chips = (car.pieces || []).map((p) => {
    const buttons = [];
    if (legal.has(`arm:${p}`)) buttons.push(`<button type="button" data-action="arm:${esc(p)}">Arm</button>`);
    if (legal.has(`use:${p}`)) buttons.push(`<button type="button" data-action="use:${esc(p)}">${esc(USE_WORD[p] || "Use")}</button>`);
    if (p === "rocket-booster") {
      for (const a of ctx.legal || []) {
        const m = /^boost:(\d)(\+mine)?$/.exec(a);
        if (m) buttons.push(`<button type="button" data-action="${esc(a)}">${plural(Number(m[1]), "square")} ▶${m[2] ? ", dropping a mine" : ""}</button>`);
      }
    }
    const state = armed.has(p) ? "armed" : "not armed";
    const used = moved.has(p) ? " · moved this turn" : "";
    return `<span class="rnc-piece${armed.has(p) ? " armed" : ""}">${piece(ctx, p)} <span class="rnc-state">${state}${used}</span>${buttons.join("")}</span>`;
  }).join("");
  const fixed = (car.fixed || []).map((p) => piece(ctx, p)).join(", ");
  const activations = view.turn ? view.turn.activations : 0;
  return `<div class="rnc-panel"><h4>Your pieces</h4><p class="muted rnc-lead">${plural(activations, "Activation")} left this turn: arming a piece or using an armed one takes one, each piece once a turn.${fixed ? ` Fixed on your car: ${fixed}.` : ""}</p><div class="rnc-row">${chips}</div></div>`;
}

// --- the decision of the seat to play --------------------------------------------------------------

function decision(view, ctx, plans, car) {
  const stage = plans.stage;
  if (stage === "gear" || stage === "points") return gearPanel(view, ctx, plans, car) + piecesPanel(view, ctx, car);
  const turn = view.turn || {};
  const changes = turn.lane_changes === null || turn.lane_changes === undefined ? "unlimited" : turn.lane_changes;
  if (stage === "move") {
    const pick = selected && last && selected.key === positionKey(view) ? selected.square : null;
    const plan = pick !== null ? (plans.paths || []).find((p) => p.square === pick) : null;
    const single = pick !== null ? (plans.steps || []).find((s) => s.square === pick) : null;
    return `<div class="rnc-panel"><h4>Your move</h4><p class="muted rnc-lead">Movement left ${turn.movement} · lane changes left ${esc(changes)} (then ${plural(car.steering, "Steering point")}, one a lane change)</p>`
      + `<div class="rnc-plan">${panel(view, ctx, plan, single)}</div></div>` + piecesPanel(view, ctx, car);
  }
  if (stage === "swerve") {
    return `<div class="rnc-panel"><h4>Swerve</h4><p class="rnc-lead">You hit a fixed obstruction: tap the side you swerve to (a free lane change, one movement).</p></div>`;
  }
  const end = (ctx.legal || []).includes("end") ? `<div class="rnc-row"><button type="button" class="rnc-go-button" data-action="end">End the turn</button></div>` : "";
  return `<div class="rnc-panel"><h4>After your move</h4><p class="rnc-lead">Your movement is over: use your pieces (the Rocket Booster only now), or end the turn.</p>${end}</div>` + piecesPanel(view, ctx, car);
}

const PHASE_WORDS = { gear: "chooses a gear", points: "may spend Turbo or Brake points", move: "is moving", swerve: "swerves round an obstruction", after: "may use pieces after moving", roll: "rolls the dice", grid: "takes a place on the grid", deal: "is dealt a car and a driver" };

function status(view, ctx) {
  const c = view.course || {};
  const lapText = c.closed ? `${plural(c.laps, "lap")} of ${(c.tiles || []).length} tiles` : `${(c.tiles || []).length} tiles to the finish line`;
  let who = "";
  if (view.active !== null && view.active !== undefined && !view.result) {
    const turn = view.turn || {};
    const moving = view.phase === "move" ? ` (movement left ${turn.movement})` : "";
    who = ` · ${esc(carName(ctx, view.active))} ${PHASE_WORDS[view.phase] || esc(view.phase)}${moving}`;
  }
  return `<p class="muted rnc-lead">Round ${view.round ?? "–"} · ${termOf(ctx)(c.id, c.name || "")}: ${esc(lapText)}${who}</p>`;
}

// --- every car's dashboard ---------------------------------------------------------------------

function bar(value, top, colour, title) {
  const share = top > 0 ? Math.max(0, Math.min(1, value / top)) : 0;
  return `<span class="bar" title="${esc(title)}" style="display:inline-block;width:70px;height:8px;background:#30353f;border-radius:4px;vertical-align:middle">`
    + `<span style="display:block;width:${(share * 100).toFixed(0)}%;height:100%;background:${colour};border-radius:4px"></span></span>`;
}

function dashboards(view, ctx) {
  const term = termOf(ctx);
  const order = view.order || [];
  return (view.cars || []).map((c) => {
    if (c.car_name === null || c.car_name === undefined) return `<div class="racer-card"><b>${esc(carName(ctx, c.seat))}</b> <span class="muted">waits for its car and driver</span></div>`;
    const colour = ctx.colours[c.seat % ctx.colours.length];
    const me = c.seat === ctx.seat ? " me" : "";
    const turn = c.destroyed ? '<span class="tag">wreck</span>' : view.active === c.seat ? '<span class="tag">to play</span>'
      : order.includes(c.seat) ? `<span class="muted">${order.indexOf(c.seat) + 1}. in turn order</span>` : "";
    const gear = c.node === "zero" ? "at the zero spot" : `${gearName(c.gear)} · speed ${c.speed} · <span style="color:${ZONE_COLOURS[c.zone] || "inherit"}">${esc(c.zone)}</span> zone`;
    const armed = new Set(c.armed || []);
    const pieces = (c.pieces || []).map((p) => `<span class="rnc-chip${armed.has(p) ? " armed" : ""}">${piece(ctx, p)}${armed.has(p) ? " ✓" : ""}</span>`).join("");
    const fixed = (c.fixed || []).map((p) => `<span class="rnc-chip">${piece(ctx, p)}</span>`).join("");
    const mines = (c.fixed || []).includes("minelayer") ? ` · mines ${c.mines_left}` : "";
    const where = c.square ? placeName(view, c.square) : "not on the grid yet";
    return `<div class="racer-card${me}"><div><span class="swatch" style="background:${colour}"></span>
      <b>${esc(carName(ctx, c.seat))}</b> <span class="muted">${term(c.car, c.car_name)} / ${term(c.driver, c.driver_name)}</span> ${turn}</div>
      <div>${gear}${view.course && view.course.closed ? ` · lap ${c.lap + 1}` : ""}</div>
      <div class="muted">${esc(where)}</div>
      <div>structure ${c.structure} · heat ${c.heat}/${c.heat_capacity} ${bar(c.heat, c.heat_capacity + 1, "#ff7a1a", "heat: destroyed above the capacity")}</div>
      <div class="muted">Steering ${c.steering} · Brake ${c.brake} · Turbo ${c.turbo}${mines}</div>
      <div class="rnc-pieces">${pieces}${fixed}</div></div>`;
  }).join("");
}

// --- the board -----------------------------------------------------------------------------------

export function draw(view, ctx) {
  const plans = ctx.plans || {};
  const matchId = ctx.match && ctx.match.id;
  if (plans.matrix && matchId !== undefined) matrices.set(matchId, plans.matrix);
  const matrix = plans.matrix || matrices.get(matchId);
  const key = positionKey(view);
  if (selected && selected.key !== key) selected = null;
  const drawn = course(view, ctx, plans, selected ? selected.square : null);
  const car = (view.cars || [])[ctx.seat];
  const mine = car && plans.stage && view.active === ctx.seat;
  let top = status(view, ctx);
  if (mine) top += decision(view, ctx, plans, car);
  else if (matrix && (view.cars || []).some((c) => c.node !== "zero")) {
    top += `<details class="rnc-panel"${matrixOpen ? " open" : ""}><summary data-rc-matrix>The gear matrix, with every car's gearstick</summary>${matrixSvg(matrix, view, ctx, [])}</details>`;
  }
  const paths = plans.paths || [];
  const offers = [...paths.flatMap((p) => [p.steps[0], ...(p.mines || []).includes(0) ? [`${p.steps[0]}+mine`] : []]),
    ...(plans.steps || []).flatMap((s) => [s.action, ...(s.variants || [])])];
  const zoom = `<div class="rnc-zoom">Squares <button type="button" data-rc-zoom="out" aria-label="smaller squares">−</button><button type="button" data-rc-zoom="in" aria-label="larger squares">+</button><button type="button" data-rc-zoom="fit">whole course</button></div>`;
  const state = {
    key, view, ctx, centres: drawn.centres, width: drawn.width, height: drawn.height, lane: drawn.lane,
    plans: new Map(paths.map((p) => [p.square, p])), singles: new Map((plans.steps || []).map((s) => [s.square, s])),
    carSquare: car && car.square,
  };
  last = state;
  let svg = drawn.svg;
  if (selected) svg = svg.replace(`<g class="rnc-selection"></g>`, `<g class="rnc-selection">${selectionSvg(state, selected.square)}</g>`);
  const scale = drawn.lane / LANE_UNITS;
  scrollTo = scrollFor(view, ctx, drawn.centres, scale, [drawn.width * scale, drawn.height * scale]);
  return `${top}${zoom}<rnc-scroll class="rnc-road" data-offers="${esc([...new Set(offers)].join(" "))}">${svg}</rnc-scroll>${legend(view, ctx)}`
    + `<div class="racer-cards rnc-dash">${dashboards(view, ctx)}</div>`;
}
