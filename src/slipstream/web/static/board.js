// The generic board drawing, used for any game that declares no board drawing of its own (web_board).
// It reads only the seat's view: the racers' positions (a per-seat list of numbers such as
// "positions", or a list of racer records with a "progress"/"position"/"space" number) become lanes
// on a track; everything else is listed below the track.
import { esc, SEAT_COLOURS } from "/static/common.js";

const LENGTH_KEYS = ["length", "track_length", "finish", "spaces", "goal", "target"];
const POS_KEYS = ["progress", "distance", "dist", "space", "pos", "position"];
const POS_NAME = /pos|progress|space|distance|dist/i;

function isRecord(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

// [{label, seat, value}] for the lanes, and the view key they came from.
function lanesOf(view, players, names) {
  for (const [k, v] of Object.entries(view)) {
    if (Array.isArray(v) && v.length === players && POS_NAME.test(k) && v.every((x) => typeof x === "number")) {
      return { key: k, lanes: v.map((value, s) => ({ label: names[s], seat: s, value })) };
    }
  }
  for (const [k, v] of Object.entries(view)) {
    if (Array.isArray(v) && v.length && v.every(isRecord)) {
      const pos = POS_KEYS.find((p) => v.every((x) => typeof x[p] === "number"));
      if (pos) {
        return {
          key: k,
          pos,
          lanes: v.map((x, i) => {
            const seat = typeof x.seat === "number" ? x.seat : i;
            return { label: x.name || names[seat] || `#${i + 1}`, seat, value: x[pos] };
          }),
        };
      }
    }
  }
  return null;
}

function fmt(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "object") return esc(JSON.stringify(value));
  return esc(value);
}

function recordsTable(items) {
  const cols = [...new Set(items.flatMap((x) => Object.keys(x)))];
  const head = cols.map((c) => `<th>${esc(c)}</th>`).join("");
  const rows = items.map((x) => `<tr>${cols.map((c) => `<td>${fmt(x[c])}</td>`).join("")}</tr>`).join("");
  return `<table class="view-table dash"><tr>${head}</tr>${rows}</table>`;
}

export function draw(view, ctx) {
  const players = ctx.match.players;
  const found = lanesOf(view, players, ctx.names);
  let svg = "";
  if (found) {
    const { key, lanes } = found;
    const lengthKey = LENGTH_KEYS.find((k) => typeof view[k] === "number");
    const end = Math.max(lengthKey ? view[lengthKey] : 0, ...lanes.map((l) => l.value), 1);
    const W = 640, laneH = 44, left = 90, right = 30;
    const H = laneH * lanes.length + 36;
    const x = (v) => left + (Math.max(0, Math.min(v, end)) / end) * (W - left - right);
    svg += `<svg class="generic-board" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(key)}">`;
    svg += `<rect x="0" y="0" width="${W}" height="${H}" rx="10" class="track-bg"/>`;
    const every = end <= 40 ? 1 : Math.ceil(end / 40);
    for (let t = 0; t <= end; t += every) {
      const tx = x(t);
      svg += `<line x1="${tx}" y1="14" x2="${tx}" y2="${H - 18}" class="tick"/>`;
      if (end <= 20 || t % (5 * every) === 0) svg += `<text x="${tx}" y="${H - 5}" class="tick-label">${t}</text>`;
    }
    svg += `<line x1="${x(end)}" y1="14" x2="${x(end)}" y2="${H - 18}" class="finish"/>`;
    lanes.forEach((lane, i) => {
      const y = 18 + i * laneH + laneH / 2;
      const colour = SEAT_COLOURS[lane.seat % SEAT_COLOURS.length];
      const me = lane.seat === ctx.seat ? " me" : "";
      const label = String(lane.label);
      const short = label.length > 10 ? `${label.slice(0, 9)}…` : label;
      svg += `<text x="8" y="${y + 5}" class="lane-label${me}">${esc(short)}</text>`;
      svg += `<line x1="${left}" y1="${y}" x2="${W - right}" y2="${y}" class="lane"/>`;
      svg += `<g class="racer${me}" data-seat="${lane.seat}"><circle cx="${x(lane.value)}" cy="${y}" r="14" fill="${colour}"/>`;
      svg += `<text x="${x(lane.value)}" y="${y + 5}" class="racer-label">${lane.seat + 1}</text></g>`;
    });
    svg += `<text x="${W - right}" y="12" class="axis-label" text-anchor="end">${esc(found.pos || key)}</text></svg>`;
  }
  const shown = found && !found.pos ? new Set([found.key]) : new Set();
  let tables = "";
  const rows = Object.entries(view).filter(([k]) => !shown.has(k)).map(([k, v]) => {
    if (Array.isArray(v) && v.length && v.every(isRecord)) {
      tables += `<h4>${esc(k)}</h4>${recordsTable(v)}`;
      return "";
    }
    if (Array.isArray(v) && v.length === players) {
      const cells = v.map((x, s) => `<span class="cell" style="border-color:${SEAT_COLOURS[s % SEAT_COLOURS.length]}">${fmt(x)}</span>`).join("");
      return `<tr><th>${esc(k)}</th><td>${cells}</td></tr>`;
    }
    return `<tr><th>${esc(k)}</th><td>${fmt(v)}</td></tr>`;
  }).join("");
  return `${svg}<table class="view-table">${rows}</table>${tables}`;
}
