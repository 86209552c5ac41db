// The generic board drawing, used for any game without its own module in /static/games/<id>.js.
// It reads only the seat's view: per-seat number lists (positions, laps, ...) become lanes on a track,
// everything else is listed below the track.
import { esc, SEAT_COLOURS } from "/static/common.js";

const LENGTH_KEYS = ["length", "track_length", "finish", "spaces", "goal", "target"];

function perSeatNumbers(view, players) {
  return Object.entries(view).filter(([, v]) => Array.isArray(v) && v.length === players && v.length > 0
    && v.every((x) => typeof x === "number"));
}

function fmt(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "object") return esc(JSON.stringify(value));
  return esc(value);
}

export function draw(view, ctx) {
  const players = ctx.match.players;
  const lanes = perSeatNumbers(view, players);
  let svg = "";
  if (lanes.length) {
    const [key, values] = lanes[0];
    const lengthKey = LENGTH_KEYS.find((k) => typeof view[k] === "number");
    const end = Math.max(lengthKey ? view[lengthKey] : 0, ...values, 1);
    const W = 640, laneH = 44, left = 90, right = 30;
    const H = laneH * players + 36;
    const x = (v) => left + (Math.min(v, end) / end) * (W - left - right);
    svg += `<svg class="generic-board" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(key)} of every seat">`;
    svg += `<rect x="0" y="0" width="${W}" height="${H}" rx="10" class="track-bg"/>`;
    for (let t = 0; t <= end; t++) {
      const tx = x(t);
      svg += `<line x1="${tx}" y1="14" x2="${tx}" y2="${H - 18}" class="${t === end ? "finish" : "tick"}"/>`;
      if (end <= 40 || t % 5 === 0) svg += `<text x="${tx}" y="${H - 5}" class="tick-label">${t}</text>`;
    }
    values.forEach((v, s) => {
      const y = 18 + s * laneH + laneH / 2;
      const colour = SEAT_COLOURS[s % SEAT_COLOURS.length];
      const me = s === ctx.seat ? " me" : "";
      const label = ctx.names[s].length > 10 ? `${ctx.names[s].slice(0, 9)}…` : ctx.names[s];
      svg += `<text x="8" y="${y + 5}" class="lane-label${me}">${esc(label)}</text>`;
      svg += `<line x1="${left}" y1="${y}" x2="${W - right}" y2="${y}" class="lane"/>`;
      svg += `<g class="racer${me}" data-seat="${s}"><circle cx="${x(v)}" cy="${y}" r="14" fill="${colour}"/>`;
      svg += `<text x="${x(v)}" y="${y + 5}" class="racer-label">${s + 1}</text></g>`;
    });
    svg += `<text x="${W - right}" y="12" class="axis-label" text-anchor="end">${esc(key)}</text></svg>`;
  }
  const shown = new Set(lanes.length ? [lanes[0][0]] : []);
  const rows = Object.entries(view).filter(([k]) => !shown.has(k)).map(([k, v]) => {
    if (Array.isArray(v) && v.length === players) {
      const cells = v.map((x, s) => `<span class="cell" style="border-color:${SEAT_COLOURS[s % SEAT_COLOURS.length]}">${fmt(x)}</span>`).join("");
      return `<tr><th>${esc(k)}</th><td>${cells}</td></tr>`;
    }
    return `<tr><th>${esc(k)}</th><td>${fmt(v)}</td></tr>`;
  }).join("");
  return `${svg}<table class="view-table">${rows}</table>`;
}
