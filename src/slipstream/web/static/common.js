// Shared helpers for the lobby and the match page: API calls, tokens kept in this browser, escaping.

export const SEAT_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"];

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export class ApiError extends Error {
  constructor(status, code, message, extra) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const e = data.error || { code: "http_" + r.status, message: r.statusText };
    throw new ApiError(r.status, e.code, e.message, e);
  }
  return data;
}

// Tokens for a match, kept in localStorage: { host: "...", seats: { "0": "...", "2": "..." } }.
export function loadTokens(matchId) {
  try {
    const t = JSON.parse(localStorage.getItem(`slipstream:${matchId}`) || "{}");
    return { host: t.host || null, seats: t.seats || {} };
  } catch {
    return { host: null, seats: {} };
  }
}

export function saveTokens(matchId, tokens) {
  localStorage.setItem(`slipstream:${matchId}`, JSON.stringify(tokens));
}

// Every seat token this browser holds (the lobby's "Your races"): [{match, token}], at most `limit`.
export function seatTokens(limit = 50) {
  const out = [];
  for (let i = 0; i < localStorage.length && out.length < limit; i++) {
    const key = localStorage.key(i);
    const id = key && key.startsWith("slipstream:") ? key.slice("slipstream:".length) : "";
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) continue;
    for (const token of Object.values(loadTokens(id).seats)) {
      if (typeof token === "string" && out.length < limit) out.push({ match: id, token });
    }
  }
  return out;
}

// Time left to move, in words: "2 days 3 hours", "45 minutes", "30 seconds".
export function timeLeft(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const part = (n, unit) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (s >= 86400) return [part(Math.floor(s / 86400), "day"), ...(s % 86400 >= 3600 ? [part(Math.floor((s % 86400) / 3600), "hour")] : [])].join(" ");
  if (s >= 3600) return [part(Math.floor(s / 3600), "hour"), ...(s % 3600 >= 60 ? [part(Math.floor((s % 3600) / 60), "minute")] : [])].join(" ");
  if (s >= 60) return part(Math.floor(s / 60), "minute");
  return part(s, "second");
}

// Browser notifications of a turn (issue 28): asked for only when the player clicks `button`, which
// shows while the browser can notify and has not been answered yet. Once they are allowed, the service
// worker that shows them is registered.
export function offerNotifications(button) {
  if (!button || !("Notification" in window)) { if (button) button.hidden = true; return; }
  const show = () => {
    button.hidden = Notification.permission !== "default";
    if (Notification.permission === "granted") turnWorker();
  };
  show();
  button.addEventListener("click", async () => {
    try { await Notification.requestPermission(); } catch { /* an old browser: no notifications */ }
    show();
  });
}

let turnWorkerReady = null;

// The service worker that shows turn notifications (/static/sw.js; a phone's browser shows them only
// through one), registered once: a promise of its registration once active, or of null where the
// browser has no service workers or would not take this one. It never rejects.
function turnWorker() {
  turnWorkerReady ??= (async () => {
    if (!("serviceWorker" in navigator)) return null;
    const registration = await navigator.serviceWorker.register("/static/sw.js");
    const worker = registration.installing || registration.waiting;
    if (!registration.active && worker) {
      await new Promise((resolve) => {
        const settled = () => { if (worker.state === "activated" || worker.state === "redundant") resolve(); };
        worker.addEventListener("statechange", settled);
        settled();
      });
    }
    return registration.active ? registration : null;
  })().catch(() => null);
  return turnWorkerReady;
}

// A turn came while the page is open: a notification, if the player allowed them, through the service
// worker where there is one (a click on it opens or brings up `url`, the race's page), else the page's
// own. `tag` names the race: one turn gives one notification, however many pages tell it.
export function notifyTurn(body, tag, url) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  const title = "Your turn · Slipstream";
  const options = { body, tag, data: { url: new URL(url, location.href).href } };
  turnWorker()
    .then((registration) => registration && registration.showNotification(title, options).then(() => true))
    .catch(() => false)
    .then((shown) => {
      if (shown) return;
      try { new Notification(title, options); } catch { /* a phone without service workers: none shown */ }
    });
}

export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    document.body.appendChild(box);
  }
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.textContent = message;
  box.appendChild(el);
  setTimeout(() => el.remove(), 6000);
}

export function seatName(match, seat) {
  if (seat === null || seat === undefined) return "spectator";
  const s = match.seats[seat];
  return (s && s.name) || `P${seat + 1}`;
}

// The engine names seats P1, P2, ... in its texts; the page shows each seat's one name everywhere.
export function named(text, match) {
  return String(text ?? "").replace(/\bP([1-9][0-9]?)\b/g, (whole, n) => {
    const seat = Number(n) - 1;
    return seat < match.seats.length ? seatName(match, seat) : whole;
  });
}

// One colour per seat everywhere: the seat list's swatch, the racers, the tables.
export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

// Each table under root in a box of its own that scrolls sideways when the table is wider than the
// screen (a phone): cells wrap at spaces only, so no word is cut and nothing runs off the page.
export function boxTables(root) {
  if (!root) return;
  for (const table of root.querySelectorAll("table")) {
    if (table.parentElement.classList.contains("table-scroll")) continue;
    const box = document.createElement("div");
    box.className = "table-scroll";
    table.replaceWith(box);
    box.append(table);
  }
}

// A thing a player meets (card, item, racer, ...) in words: its name, with its effect one hover or tap
// away. `glossary` is the match's (GET /api/matches/{id}/glossary: {id: {name, text, kind}}); an id it
// does not hold shows as `fallback` (or the id) without a tip.
export function term(glossary, id, fallback) {
  const t = glossary && glossary[id];
  if (!t) return esc(fallback ?? id);
  return tip(t.name, t.text, t.kind);
}

// The glossary a board reads: the match's (ctx.glossary), else the one its view carries (view.terms),
// so that a board drawn before the match's glossary has come still says names.
export function boardGlossary(view, ctx) {
  return ctx.glossary && Object.keys(ctx.glossary).length ? ctx.glossary : (view && view.terms) || {};
}

// The name of a content id in a glossary (the id itself when the glossary does not hold it).
export function termName(glossary, id) {
  return (glossary && glossary[id] && glossary[id].name) || String(id);
}

// The attributes that give any element, an SVG shape too, the tip of a glossary entry (as term()'s span).
export function tipAttrs(glossary, id) {
  const t = glossary && glossary[id];
  if (!t || !t.text) return "";
  return ` tabindex="0" data-tip="${esc(t.text)}" data-tip-name="${esc(t.name)}" data-tip-kind="${esc(t.kind || "")}"`;
}

// `label` with a tip (`text`, headed by `kind`) shown on hover, focus and tap; plain `label` when
// there is nothing to tell.
export function tip(label, text, kind) {
  if (!text) return esc(label);
  return `<span class="term" tabindex="0" data-tip="${esc(text)}" data-tip-kind="${esc(kind || "")}" data-tip-name="${esc(label)}">${esc(label)}</span>`;
}

let tipBox = null;
let tipFor = null;

function showTip(el) {
  if (!tipBox) {
    tipBox = document.createElement("div");
    tipBox.id = "tip";
    tipBox.setAttribute("role", "tooltip");
    document.body.appendChild(tipBox);
  }
  const kind = el.dataset.tipKind ? `<div class="tip-kind">${esc(el.dataset.tipKind)}</div>` : "";
  tipBox.innerHTML = `${kind}<div class="tip-name">${esc(el.dataset.tipName || "")}</div><div class="tip-text">${esc(el.dataset.tip)}</div>`;
  tipBox.hidden = false;
  tipFor = el;
  const box = el.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  tipBox.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(box.left, window.innerWidth - width - 8));
  const below = box.bottom + 6 + tipBox.offsetHeight < window.innerHeight;
  tipBox.style.left = `${left + window.scrollX}px`;
  tipBox.style.top = `${(below ? box.bottom + 6 : box.top - 6 - tipBox.offsetHeight) + window.scrollY}px`;
}

function hideTip() {
  if (tipBox) tipBox.hidden = true;
  tipFor = null;
}

// Tips for every element with data-tip on the page, present or drawn later: hover and keyboard focus
// show one, a tap toggles it (a phone has no hover), Escape or a tap elsewhere hides it.
export function installTips(root = document) {
  root.addEventListener("mouseover", (e) => {
    const el = e.target.closest && e.target.closest("[data-tip]");
    if (el && el !== tipFor) showTip(el);
  });
  root.addEventListener("mouseout", (e) => {
    const el = e.target.closest && e.target.closest("[data-tip]");
    if (el && (!e.relatedTarget || !el.contains(e.relatedTarget))) hideTip();
  });
  root.addEventListener("focusin", (e) => {
    const el = e.target.closest && e.target.closest("[data-tip]");
    if (el) showTip(el);
  });
  root.addEventListener("focusout", () => hideTip());
  // A tap fires pointerdown, then the mouseover and focus a phone emulates (both show the tip), then
  // click: whether the tip was up before the tap is known only at pointerdown. A second tap hides it.
  let tipBeforeTap = false;
  root.addEventListener("pointerdown", (e) => {
    const el = e.target.closest && e.target.closest("[data-tip]");
    tipBeforeTap = Boolean(el) && el === tipFor;
  });
  root.addEventListener("click", (e) => {
    const el = e.target.closest && e.target.closest("[data-tip]");
    if (!el) { hideTip(); return; }
    if (el.closest("[data-action]")) { showTip(el); return; } // a card that is also a move: tell and act
    if (tipBeforeTap && e.pointerType !== "mouse") hideTip(); else showTip(el);
  });
  root.addEventListener("keydown", (e) => { if (e.key === "Escape") hideTip(); });
}
