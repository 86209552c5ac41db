// Shared drawing helpers for game boards: a stadium-shaped track of N spaces, read clockwise from
// the top left (space 0 just after the finish line).

// Points for n spaces on a stadium W x H with padding pad: [x, y, angle] each, plus the geometry.
export function stadium(n, W, H, pad) {
  const R = (H - 2 * pad) / 2;
  const L = Math.max(0, W - 2 * pad - 2 * R);
  const P = 2 * L + 2 * Math.PI * R;
  const cx1 = pad + R, cx2 = pad + R + L, cy = pad + R;
  const at = (s) => {
    if (s < L) return [cx1 + s, cy - R, 0];
    s -= L;
    if (s < Math.PI * R) { const a = -Math.PI / 2 + s / R; return [cx2 + R * Math.cos(a), cy + R * Math.sin(a), a + Math.PI / 2]; }
    s -= Math.PI * R;
    if (s < L) return [cx2 - s, cy + R, Math.PI];
    s -= L;
    const a = Math.PI / 2 + s / R;
    return [cx1 + R * Math.cos(a), cy + R * Math.sin(a), a + Math.PI / 2];
  };
  return { points: Array.from({ length: n }, (_, i) => at(((i + 0.5) / n) * P)), step: P / n, R, L, cx1, cx2, cy, P, at };
}

// One square space, turned along the track; ``inner`` (a marker, a number) stays upright.
export function space([x, y, a], size, fill, stroke = "#2b2f36", strokeWidth = 1, inner = "") {
  const deg = (a * 180) / Math.PI;
  return `<g transform="translate(${x.toFixed(1)} ${y.toFixed(1)})"><g transform="rotate(${deg.toFixed(1)})">`
    + `<rect x="${-size}" y="${-size}" width="${2 * size}" height="${2 * size}" rx="3" fill="${fill}" stroke="${stroke}" stroke-width="${strokeWidth}"/></g>${inner}</g>`;
}

// A space number just outside the track (kept inside the drawing, so the board's edge never cuts it).
export function label([x, y], W, H, text) {
  const ox = Math.max(10, Math.min(W - 10, x + (x - W / 2) * 0.09)), oy = Math.max(8, Math.min(H - 12, y + (y - H / 2) * 0.16));
  return `<text x="${ox.toFixed(1)}" y="${(oy + 4).toFixed(1)}" font-size="10" fill="#9aa" text-anchor="middle">${text}</text>`;
}

// Tokens of radius r sharing one space, laid out so that none covers another: in rows from the space
// towards the infield (a clockwise track's right-hand side), one token a row for up to 3, two (one behind
// the other along the track) for more; the radius shrinks as the space fills. ``angle`` is the space's
// direction of travel (a stadium point's third value).
// Returns {r, at: [[dx, dy], ...]}: the tokens' radius and each one's offset from the space's centre.
export function crowd(count, r, angle = 0) {
  if (count <= 1) return { r, at: [[0, 0]] };
  const rr = r * (count <= 2 ? 0.85 : count <= 4 ? 0.75 : 0.65);
  const gap = 2 * rr + 2;
  const files = count <= 3 ? 1 : 2;
  const [ax, ay] = [Math.cos(angle), Math.sin(angle)];
  const [nx, ny] = [-ay, ax];
  const at = [];
  for (let k = 0; k < count; k++) {
    const along = files === 1 ? 0 : ((k % files) - 0.5) * gap;
    const across = Math.floor(k / files) * gap;
    at.push([along * ax + across * nx, along * ay + across * ny]);
  }
  return { r: rr, at };
}

export const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
