// The match page: seats and lobby controls, live play over WebSocket, the board, the log, replays.
// One WebSocket per seat this browser holds (hot-seat holds several), or one spectator connection.
// Nothing here knows a game: each game draws its board with its own board.js (match.board).
import { api, boxTables, esc, installTips, loadTokens, named, notifyTurn, offerNotifications, saveTokens, seatColour, seatName, SEAT_COLOURS, term, toast } from "/static/common.js";
import * as generic from "/static/board.js";
import { accountName, seatAccounts } from "/static/seat-accounts.js";
import { onChat, showReplayChat, viewerKey, wireChat } from "/static/chat.js";
import { heldText, renderRematchBanner, tickHeld } from "/static/invites.js";
import { claimWords, noteClaimOffer, onPresence, renderAudience, renderMarks, seatFinished } from "/static/presence.js";

const matchId = decodeURIComponent(location.pathname.split("/").pop());
let tokens = loadTokens(matchId);
const conns = new Map(); // key ("spectator" or seat number) -> {ws, state, shownAt, queue, log, lastPly, closed, busy, autoPly}
let activeKey = null;
let pinned = false; // the user picked a seat tab by hand
let replayMode = null; // {ply, total, seat, data}
let curtain = false; // hot-seat: hide the board until the next player is ready
const CURTAIN = `slipstream:curtain:${matchId}`; // this tab's hot-seat screen: {seat shown, curtain up}, kept across a reload
let lastTurnAlert = null;
let turnWatched = false; // whether a state was shown yet: a turn already yours when the page opens is not notified
let curtainChecked = false; // the curtain kept from before a reload was looked at
let diceShown = null; // the state whose dice are on screen
let glossary = {}; // the match's things in words: {id: {name, text, kind}} (GET .../glossary)
let glossaryReady = false; // nothing is drawn before it came (or failed): no id flashes on the first paint
let glossaryLoaded = null; // the promise of it (main)
const modules = new Map();
const loadedBoards = new Map(); // board module URL -> the module, once imported
const AUTO_DELAY = 500; // ms before a seat's only legal action is taken for it
const SPEEDS = { slow: 1400, normal: 700, fast: 250, instant: 0 }; // ms each step stays on screen at least
const HANDOVER_WAIT = 2000; // hot-seat: ms a step asking another held seat waits for that seat's own copy
let speed = localStorage.getItem("slipstream:speed") || "normal";
if (!(speed in SPEEDS)) speed = "normal";

const $ = (id) => document.getElementById(id);

// The seats this browser plays now: it holds their tokens and they are still players' seats.
function heldSeats() {
  return Object.keys(tokens.seats).map(Number).sort((a, b) => a - b);
}

function playingSeats(match) {
  return heldSeats().filter((s) => match.seats[s] && match.seats[s].kind === "human");
}

function connect(key, token) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/matches/${encodeURIComponent(matchId)}`);
  const conn = conns.get(key) || { state: null, queue: [], shownAt: 0, log: [], lastPly: -1, closed: false, busy: false, autoPly: null };
  conn.ws = ws;
  conns.set(key, conn);
  ws.onopen = () => {
    const hello = { type: "hello", token, text_board: $("board-text-box").open };
    if (key === "spectator") hello.viewer = viewerKey(); // the server knows this spectator again (its chat id)
    ws.send(JSON.stringify(hello));
    renderConn();
  };
  ws.onmessage = (e) => onMessage(key, JSON.parse(e.data));
  ws.onclose = (e) => {
    renderConn();
    if (conn.closed) return;
    if (e.code === 4403 && key !== "spectator") { // the token is not valid for this match any more
      dropSeat(key, `Seat ${key + 1} is no longer yours in this race (the host gave it to a bot); you can watch.`);
      return;
    }
    if (e.code === 4404) { noSuchRace(); return; }
    setTimeout(() => connect(key, token), 1000);
  };
  renderConn();
}

// A link to a race this server does not have: say so, with the way back, instead of empty panels.
function noSuchRace() {
  for (const conn of conns.values()) { conn.closed = true; conn.ws?.close(); }
  conns.clear();
  $("match-main").hidden = true;
  $("missing").hidden = false;
  $("turn").textContent = "No such race";
  $("match-title").textContent = "";
  document.title = "No such race · Slipstream";
}

function dropSeat(key, message) {
  if (!(key in tokens.seats)) return;
  delete tokens.seats[key];
  saveTokens(matchId, tokens);
  const conn = conns.get(key);
  if (conn) { conn.closed = true; conn.ws.close(); conns.delete(key); }
  $("actions").innerHTML = ""; // the seat's moves go now, not when the watching view's first state comes
  toast(message, "info");
  setupConnections();
  render();
}

function setupConnections() {
  const held = heldSeats();
  const wanted = held.length ? held : ["spectator"];
  for (const [key, conn] of conns) {
    if (!wanted.includes(key)) { conn.closed = true; conn.ws.close(); conns.delete(key); }
  }
  for (const key of wanted) {
    if (!conns.has(key)) connect(key, key === "spectator" ? null : tokens.seats[key]);
  }
  if (!conns.has(activeKey)) activeKey = wanted.includes(keptSeat()) ? keptSeat() : wanted[0];
}

// The seat this tab showed last (hot-seat), as kept across a reload; null if none.
function keptSeat() {
  try { return JSON.parse(sessionStorage.getItem(CURTAIN) || "null")?.seat ?? null; } catch { return null; }
}

function onMessage(key, msg) {
  const conn = conns.get(key);
  if (!conn) return;
  if (msg.type === "state" || msg.type === "claim") noteClaim(conn, msg.claim);
  if (msg.type === "chat") { onChat(msg); return; }
  if (msg.type === "presence") { onPresence(msg); tickSeats(); return; }
  if (msg.type === "log") {
    conn.log = msg.entries;
    conn.lastPly = msg.entries.length ? msg.entries[msg.entries.length - 1].ply : -1;
    conn.queue = []; // the current state follows
  } else if (msg.type === "state") {
    conn.queue.push(msg);
    conn.busy = false;
    pump(key);
    return;
  } else if (msg.type === "seat_lost") {
    dropSeat(key, msg.message);
    return;
  } else if (msg.type === "error") {
    conn.busy = false;
    conn.sequence = null;
    if (msg.code === "bad_token" && key !== "spectator") {
      dropSeat(key, `Seat ${key + 1} is no longer yours in this race (the host gave it to a bot); you can watch.`);
      return;
    }
    toast(`${msg.message}`);
  } else if (msg.type === "ack") {
    conn.busy = false;
  }
  render();
}

// Pace: each step stays on screen at least SPEEDS[speed] ms, so bot moves and dice can be followed.
function pump(key) {
  const conn = conns.get(key);
  if (!conn || conn.pumping) return;
  const next = () => {
    if (!conns.has(key) || !conn.queue.length) { conn.pumping = false; render(); return; }
    const wait = conn.state ? conn.shownAt + SPEEDS[speed] - Date.now() : 0;
    // only the shown seat's steps are paced: another held seat's connection keeps up at once, so when
    // the shown steps reach that seat's turn (hot-seat) its own state is there to show and act on
    if (wait > 0 && !conn.mine && key === activeKey) { conn.pumping = true; setTimeout(next, Math.min(wait, SPEEDS[speed])); return; }
    // hot-seat: a step that asks another seat held here waits (at most HANDOVER_WAIT ms) until that
    // seat's own connection has it too, so the switch to its tab comes with it (the two sockets' copies
    // arrive apart): the shown board never says it is another seat's turn
    if (key === activeKey && conn.state && asksSeatBehind(conn.queue[0])) {
      conn.heldSince ??= Date.now();
      if (Date.now() - conn.heldSince < HANDOVER_WAIT) { conn.pumping = true; setTimeout(next, 25); return; }
    }
    conn.heldSince = null;
    conn.mine = false;
    const msg = conn.queue.shift();
    if (msg.ply > conn.lastPly && msg.events.length) {
      conn.log.push({ ply: msg.ply, events: msg.events });
      conn.lastPly = msg.ply;
    }
    if (msg.ply < conn.lastPly) conn.lastPly = msg.ply;
    conn.state = msg;
    conn.shownAt = Date.now();
    conn.receivedAt = Date.now();
    if (conn.undoing && msg.legal.length) { // the player who took a step back chooses again
      conn.undoing = false;
      activeKey = key;
      pinned = true;
      curtain = false;
    }
    autoSwitch();
    render();
    continueSequence(key);
    autoPlay(key);
    conn.pumping = conn.queue.length > 0;
    if (conn.pumping) setTimeout(next, key === activeKey ? SPEEDS[speed] : 0);
  };
  next();
}

// A seat's only legal action (nothing to decide) is taken for it after a moment.
function autoPlay(key) {
  const conn = conns.get(key);
  const st = conn?.state;
  if (!st || conn.queue.length || key === "spectator" || st.legal.length !== 1 || decides(st) || replayMode || conn.sequence) return;
  if (conn.autoPly === st.ply) return;
  conn.autoPly = st.ply;
  setTimeout(() => {
    const now = conns.get(key)?.state;
    if (!now || now.ply !== st.ply || now.legal.length !== 1 || decides(now)) return;
    if (!act(now.legal[0], key)) { conn.autoPly = null; autoPlay(key); return; } // busy or a newer state queued: again later
    // said in the log, so a race that rolls by itself says why
    conn.log.push({ ply: now.ply, events: [{ text: `Played for ${seatName(now.match, key)}: ${actionLabel(now, now.legal[0], key)} (the only move)`, local: true }] });
    if (key === activeKey && !curtain) renderLog(conn.log, now.match);
  }, AUTO_DELAY);
}

// Whether this seat must decide something (more than one legal action: a single one plays itself).
function mustChoose(key) {
  const st = conns.get(key)?.state;
  return !!st && (st.legal.length > 1 || decides(st));
}

// A single legal action that is still a decision: a seat's own move in a window several seats share
// that the game names (Highway Heist: "I take the next turn", which the team decides and any player
// may take), so it is never played by itself.
function decides(st) {
  return st.legal.length === 1 && st.actor.kind === "simultaneous" && st.actor.seats.length > 1 && !!windowText(st);
}

// Hot-seat: show the held seat that must act now (unless the user pinned a tab and it still must act).
// While the shown seat's steps still play out (paced), the switch waits until they reach a turn of
// another held seat: the page never shows one seat's board saying it is another seat's turn.
function autoSwitch() {
  if (pinned && mustChoose(activeKey)) return;
  if ([...conns.values()].some((c) => c.undoing)) return;
  const shown = conns.get(activeKey);
  if (shown?.queue.length && shown.state && !mustChoose(activeKey) && !asksHeldSeat(shown.state)) return;
  const mine = heldSeats().filter(mustChoose);
  if (mine.length && !mine.includes(activeKey)) {
    const before = activeKey;
    activeKey = mine[0];
    pinned = false;
    // the next player takes the device before their hidden cards show; a view with nothing private
    // (a cooperative game with open cards, a choice with nothing secret yet) is simply shown
    if (before !== null && before !== "spectator" && heldSeats().length > 1 && conns.get(activeKey)?.state?.private) curtain = true;
  }
}

// The seats this browser holds, other than the shown one, that a state asks to act.
function otherHeldSeatsAsked(st) {
  const asked = st.actor && st.actor.seats ? st.actor.seats : [];
  return playingSeats(st.match).filter((s) => s !== activeKey && asked.includes(s));
}

// Whether a state asks a seat this browser holds, other than the shown one, to act.
function asksHeldSeat(st) {
  return otherHeldSeatsAsked(st).length > 0;
}

// Whether a state asks such a seat whose own connection has not got that far yet.
function asksSeatBehind(st) {
  return otherHeldSeatsAsked(st).some((s) => conns.has(s) && (conns.get(s).state?.ply ?? -1) < st.ply);
}

// Hot-seat across a reload: the view of the seat shown stays hidden unless this tab showed it last,
// uncovered (a reload by the player who holds the device); a new tab covers it too.
function restoreCurtain() {
  if (heldSeats().length < 2 || typeof activeKey !== "number" || !conns.get(activeKey)?.state?.private) return;
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(CURTAIN) || "null"); } catch { kept = null; }
  if (!kept || kept.seat !== activeKey || kept.curtain) curtain = true;
}

function keepCurtain() {
  if (heldSeats().length < 2 || typeof activeKey !== "number") return;
  try { sessionStorage.setItem(CURTAIN, JSON.stringify({ seat: activeKey, curtain })); } catch { /* private mode */ }
}

function renderCurtain(st) {
  if (!curtainChecked && conns.get(activeKey)?.state) { curtainChecked = true; restoreCurtain(); }
  keepCurtain();
  const box = $("curtain");
  box.hidden = !curtain;
  if (curtain) {
    $("curtain-text").textContent = `Pass the device to ${seatName(st.match, activeKey)}`;
  }
}

function active() {
  return conns.get(activeKey)?.state || null;
}

async function boardModule(match) {
  if (!match.board) return generic;
  if (!modules.has(match.board)) {
    modules.set(match.board, import(match.board).catch((e) => { console.error(e); return generic; }).then((mod) => {
      loadedBoards.set(match.board, mod);
      return mod;
    }));
  }
  return modules.get(match.board);
}

// What a window open to several seats is, in the game's words: its board module's banner(view, ctx)
// (e.g. Highway Heist's team picking who plays next, where any player may pick), else null (the page
// then says "everyone chooses at once, revealed together").
function windowText(st) {
  const mod = loadedBoards.get(st.match.board);
  if (!mod || typeof mod.banner !== "function") return null;
  try {
    return mod.banner(st.view, boardContext(st, st.seat, st.legal || [])) || null;
  } catch (e) {
    console.error(e);
    return null;
  }
}

function renderConn() {
  const open = [...conns.values()].some((c) => c.ws && c.ws.readyState === WebSocket.OPEN);
  $("conn").className = `conn ${open ? "on" : "off"}`;
  $("conn").title = open ? "connected" : "reconnecting…";
}

// The finishing order as the page shows it: a seat whose player resigned comes last, marked so (the
// record keeps the engine's own result).
function shownOrder(m, result) {
  const resigned = (s) => m.seats[s] && m.seats[s].kind === "resigned";
  return [...result.order.filter((s) => !resigned(s)), ...result.order.filter(resigned)];
}

function placeName(m, s) {
  return `${seatName(m, s)}${m.seats[s] && m.seats[s].kind === "resigned" ? " (resigned)" : ""}`;
}

function resultText(m, result) {
  if (result.team) return `${result.winners.length ? "the team wins" : "the team loses"}: ${named(result.reason, m)}`;
  return shownOrder(m, result).map((s, i) => `${i + 1}. ${placeName(m, s)}`).join(", ");
}

function turnText(st) {
  return named(rawTurnText(st), st.match);
}

function rawTurnText(st) {
  const m = st.match;
  if (replayMode) return `Replay · move ${replayMode.ply} of ${replayMode.total}${replayMode.ply === replayMode.total && st.result ? ` · ${resultText(m, st.result)}` : ""}`;
  if (m.status === "open") {
    const open = m.seats.filter((s) => s.kind === "open").length;
    const invited = m.seats.filter((s) => s.kind === "open" && s.held_for).map((s) => s.held_for);
    if (invited.length) return `Rematch: waiting for ${invited.join(", ")} (invited; it starts when every player is back)`;
    return open ? `Waiting for players: ${open} open seat${open > 1 ? "s" : ""}` : "All seats filled: the host can start the race";
  }
  if (st.result) return `${st.result.team ? "Game over" : "Race over"} — ${resultText(m, st.result)}`;
  if (m.status !== "running") return `This race is ${m.status}.`;
  if (!heldSeats().length) return `Spectating — ${watchText(st)}`;
  const a = st.actor;
  if (a.kind === "chance") return "Rolling…";
  const mine = playingSeats(m).filter((s) => a.seats.includes(s));
  // the seat whose tab shows, when it is one of those asked; else the first of this browser's
  const who = mine.includes(activeKey) ? activeKey : mine[0];
  if (a.kind === "seat") {
    const s = a.seats[0];
    return who === s ? `Your turn, ${seatName(m, s)}` : `Waiting for ${seatName(m, s)}`;
  }
  if (a.kind === "simultaneous") {
    const names = a.seats.map((s) => seatName(m, s)).join(", ");
    const what = windowText(st);
    if (what) return mine.length ? `Choose now, ${seatName(m, who)} — ${what} (waiting for ${names})` : `${what[0].toUpperCase()}${what.slice(1)} — waiting for ${names}`;
    return mine.length
      ? `Choose now, ${seatName(m, who)} — everyone chooses at once, revealed together (waiting for ${names})`
      : `Everyone chooses at once — waiting for ${names}`;
  }
  return "";
}

// Who acts now, for a spectator.
function watchText(st) {
  const m = st.match;
  const a = st.actor;
  if (a.kind === "chance") return "rolling…";
  if (a.kind === "seat") return `${seatName(m, a.seats[0])} to play`;
  if (a.kind === "simultaneous") {
    const what = windowText(st);
    return `${what || "everyone chooses at once"}: waiting for ${a.seats.map((s) => seatName(m, s)).join(", ")}`;
  }
  return "";
}

const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function dieHtml(n) {
  return `<span class="die" title="${esc(n)}">${Number.isInteger(n) && n >= 1 && n <= 6 ? DIE_FACES[n] : esc(n)}</span>`;
}

// The dice and cards of the last step that rolled or drew any (a message may carry several steps: a bot's
// turn, the rolls after a move), each with the words of the event that rolled it.
function chanceHtml(events, m) {
  const rolled = (e) => {
    const d = e.data || {};
    return ["die", "roll", "dice", "rolls", "card", "cards"].some((k) => d[k] !== undefined);
  };
  const steps = events.filter(rolled).map((e) => e.step ?? 0);
  if (!steps.length) return "";
  const last = Math.max(...steps);
  return events.filter((e) => rolled(e) && (e.step ?? 0) === last).map((e) => {
    const d = e.data || {};
    const out = [];
    for (const k of ["die", "roll"]) if (d[k] !== undefined) out.push(dieHtml(d[k]));
    for (const k of ["dice", "rolls"]) if (Array.isArray(d[k])) d[k].forEach((n) => out.push(dieHtml(n)));
    if (d.card !== undefined) out.push(`<span class="playing-card">${term(glossary, d.card, words(d.card))}</span>`);
    if (Array.isArray(d.cards)) d.cards.forEach((c) => out.push(`<span class="playing-card">${term(glossary, c, words(c))}</span>`));
    return `<span class="roll">${out.join("")}<span class="roll-text">${esc(named(e.text, m))}</span></span>`;
  }).join("");
}

// An id with no name in the glossary, as words ("backwards-die" -> "backwards die").
function words(id) {
  return String(id).replace(/[-_]+/g, " ");
}

function boardContext(st, seat, legal) {
  return {
    match: st.match, seat, legal, names: st.match.seats.map((_, s) => seatName(st.match, s)),
    colours: SEAT_COLOURS, narrow: $("board").clientWidth < 600, hints: legal.length ? st.hints || [] : [],
    plans: legal.length ? st.plans ?? null : null, // the game's move_plans for the seat to act (multi-step moves)
    glossary, term: (id, fallback) => term(glossary, id, fallback), // a content id as its name, with its effect as a tip
  };
}

// Where each racer (any element a board marks class="racer" data-seat=...) stands on the screen, and
// on which track space (data-space, data-distance: see trackPath).
function racerPlaces() {
  const seen = new Map();
  const out = new Map();
  for (const el of $("board").querySelectorAll(".racer[data-seat]")) {
    const k = seen.get(el.dataset.seat) || 0;
    seen.set(el.dataset.seat, k + 1);
    const box = el.getBoundingClientRect();
    out.set(`${el.dataset.seat}:${k}`, {
      el, x: box.x + box.width / 2, y: box.y + box.height / 2, space: numberOrNull(el.dataset.space), distance: numberOrNull(el.dataset.distance),
    });
  }
  return out;
}

function numberOrNull(text) {
  return text === undefined || text === "" || !Number.isFinite(Number(text)) ? null : Number(text);
}

// The track spaces a racer passes from one place to the next, when the board marks its spaces
// (class="track-space" data-space=i, i = 0..n-1 along the way) and the racer's data-space: the spaces
// in order, the first and last included, forwards by the racer's data-distance when it has one (a
// racer pushed back goes backwards), else the shorter way round. [] when it did not move along the track.
function trackPath(was, now) {
  const spaces = $("board").querySelectorAll(".track-space[data-space]");
  const n = spaces.length;
  if (!n || was.space === null || now.space === null || was.space === now.space) return [];
  const ahead = (now.space - was.space + n) % n;
  let steps = ahead <= n / 2 ? ahead : ahead - n;
  if (was.distance !== null && now.distance !== null) {
    const moved = now.distance - was.distance;
    if (Math.abs(moved) <= n && ((moved % n) + n) % n === ahead) steps = moved;
  }
  const path = [];
  for (let k = 0; k <= Math.abs(steps); k++) path.push((((was.space + Math.sign(steps) * k) % n) + n) % n);
  return path;
}

// The centre on the screen of track space i.
function spaceCentre(i) {
  const el = $("board").querySelector(`.track-space[data-space="${i}"]`);
  if (!el) return null;
  const box = el.getBoundingClientRect();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

// Racers glide from where they stood to where they stand now, within the pace's time for a step:
// along the track through every space passed where the board marks its spaces, else straight.
function animateRacers(before) {
  const duration = Math.min(600, SPEEDS[speed] * 0.8);
  if (!duration || !before.size) return;
  for (const [key, now] of racerPlaces()) {
    const was = before.get(key);
    if (!was || (Math.abs(was.x - now.x) < 1 && Math.abs(was.y - now.y) < 1)) continue;
    const svg = now.el.ownerSVGElement;
    const view = svg && svg.viewBox.baseVal;
    const scale = view && view.width ? view.width / svg.getBoundingClientRect().width : 1;
    const shift = (p) => ({ transform: `translate(${((p.x - now.x) * scale).toFixed(1)}px, ${((p.y - now.y) * scale).toFixed(1)}px)` });
    const through = trackPath(was, now).slice(1, -1).map(spaceCentre).filter(Boolean);
    const frames = [shift(was), ...through.map(shift), { transform: "translate(0, 0)" }];
    now.el.animate(frames, { duration: Math.min(SPEEDS[speed] * 0.9, Math.max(duration, 70 * frames.length)), easing: "ease-in-out" });
  }
}

async function drawBoard(st, view, seat, legal) {
  const mod = await boardModule(st.match);
  if (curtain && !replayMode) return; // the pass screen came up meanwhile
  const ctx = boardContext(st, seat, legal);
  const before = racerPlaces();
  try {
    $("board").innerHTML = mod.draw(view, ctx);
  } catch (e) {
    console.error(e);
    $("board").innerHTML = generic.draw(view, ctx);
  }
  boxTables($("board")); // a wide table scrolls in its own box (a phone)
  if (!replayMode) animateRacers(before);
  for (const el of $("board").querySelectorAll("[data-action], [data-actions]")) {
    const on = ctx.legal.includes(el.dataset.action ?? sequenceOf(el)[0]);
    el.classList.toggle("clickable", on);
    if (on) {
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      if (el.dataset.action !== undefined || !el.hasAttribute("aria-label")) el.setAttribute("aria-label", actionLabel(st, el.dataset.action ?? sequenceOf(el)[0], seat));
    }
  }
}

// The button text of an action: the game's phrase, seats by their names, without "P2: " on P2's own buttons.
function actionLabel(st, action, seat) {
  let text = (st.labels && st.labels[action]) || action;
  if (seat !== null && seat !== undefined) text = text.replace(new RegExp(`^P${seat + 1}: `), "");
  return named(text, st.match);
}

function ready(conn) {
  return conn && conn.state && !conn.queue.length;
}

function render() {
  const st = active();
  if (!st || !glossaryReady) return; // the glossary's arrival renders
  const m = st.match;
  const conn = conns.get(activeKey);
  const myTurn = playingSeats(m).some((s) => mustChoose(s));
  document.title = `${myTurn && !replayMode ? "(Your turn) " : ""}${m.title} · Slipstream`;
  alertTurn(myTurn && !replayMode);
  $("match-title").textContent = m.title === m.game_name ? m.game_name : `${m.title} · ${m.game_name}`;
  $("pace-words").hidden = !m.pace || m.pace === "live";
  $("pace-words").textContent = m.pace_words || "";
  $("how-to-play").href = `/rules/${encodeURIComponent(m.game)}`;
  $("how-to-play").title = `how to play ${m.game_name} (opens a new tab)`;
  $("how-to-play").hidden = false;
  $("turn").textContent = turnText(st);
  $("turn").className = `turn ${st.legal.length && !replayMode ? "mine" : ""}`;
  document.querySelector("main.match").classList.toggle("lobby-open", m.status === "open");
  renderTabs(st);
  renderCurtain(st);
  renderSeats(st);
  if (curtain && !replayMode) { // nothing of the seat's view is drawn until its player holds the device
    for (const id of ["board", "actions", "hints", "dice", "log", "board-text"]) $(id).textContent = "";
    diceShown = null;
  } else if (!replayMode) {
    const legal = ready(conn) ? st.legal : [];
    drawBoard(st, st.view, st.seat, legal).then(() => {
      if (active() !== st) return;
      renderActions(st, conn);
      holdRoom(m);
      if (!replayMode) $("turn").textContent = turnText(st); // the board module may name the window (banner)
    });
    $("board-text-box").hidden = !m.text_board;
    if (st.board_text) $("board-text").textContent = st.board_text; // sent only while the box is open
    if (diceShown !== st) { // dice tumble as they land, once per step
      diceShown = st;
      $("dice").innerHTML = chanceHtml(st.events, m);
      if (SPEEDS[speed]) for (const d of $("dice").querySelectorAll(".die, .playing-card")) d.classList.add("landing");
    }
    renderHints(st.hints, m);
    holdRoom(m);
    renderLog(conn.log, m);
  }
  renderPlayControls(st, conn);
  renderResult(st);
  // the race is over: no buttons or dice come any more, so the room held for them goes too (it left a
  // gap between the results and Rematch); a replay shows its steps' events there
  document.querySelector(".play-bar").hidden = !!st.result && !replayMode;
  tickSeats();
}

// Every second: each seat row's marks (online or away, the time away, the claim countdown, the turn
// timer's clock), a held seat whose hold ran out (it opens: the row is drawn again), the rematch banner.
function tickSeats() {
  const conn = conns.get(activeKey);
  const st = conn?.state;
  if (!st || !glossaryReady) return;
  noteClaimOffer(conn.claim || null);
  const m = st.match;
  const received = conn.receivedAt || Date.now();
  if (m.status === "open" && m.seats.some((s) => s.held_for && !heldText(s, received) && $("seat-list").querySelector(`li.held[data-seat="${s.seat}"]`))) renderSeats(st);
  renderMarks(replayMode ? { ...st, turn_left: {} } : st, received);
  tickHeld(m, received);
  renderAudience(!heldSeats().length);
  renderRematchBanner(m, heldSeats().filter((s) => m.seats[s] && m.seats[s].kind !== "bot"), received, rematch);
}

// A player's buttons and hints come and go with their turn: the room they took stays (the most they have
// needed in this page), so the board below never jumps when a turn begins or ends.
const heldRoom = { "play-bar": 0, hints: 0 };

function holdRoom(m) {
  if (m.status === "finished") { // no turn comes any more: the room held for one goes (the board comes up)
    for (const el of [document.querySelector(".play-bar"), $("hints")]) el.style.minHeight = "";
    return;
  }
  if (!playingSeats(m).length || m.status !== "running") return;
  for (const [id, el] of [["play-bar", document.querySelector(".play-bar")], ["hints", $("hints")]]) {
    el.style.minHeight = "";
    heldRoom[id] = Math.max(heldRoom[id], el.offsetHeight);
    el.style.minHeight = `${heldRoom[id]}px`;
  }
}

// The game's hints for the seat; a long list (a shop, a rules summary) folds under its first line.
function renderHints(hints, m) {
  const items = hints.map((h) => `<li>${esc(named(h, m))}</li>`);
  $("hints").innerHTML = items.length > 4
    ? `${items[0]}<li><details><summary>${items.length - 1} more lines of help</summary><ul>${items.slice(1).join("")}</ul></details></li>`
    : items.join("");
}

// The tab title says it, and (if the player asked for them) a browser notification comes and a short
// tone sounds, when a turn begins while the page is open.
function alertTurn(myTurn) {
  const key = myTurn ? `${activeKey}:${active()?.ply}` : null;
  const opening = !turnWatched;
  turnWatched = true;
  if (!myTurn || key === lastTurnAlert) { if (!myTurn) lastTurnAlert = null; return; }
  lastTurnAlert = key;
  if (!opening) notifyTurn(`${active().match.game_name}: it is your turn`, matchId, location.pathname);
  if (!$("sound").checked) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch (e) { /* no audio on this device */ }
}

function renderTabs(st) {
  const held = heldSeats();
  const box = $("seat-tabs");
  if (held.length < 2) { box.innerHTML = ""; return; }
  box.innerHTML = held.map((s) => {
    const pending = st.actor.seats.includes(s) ? " pending" : "";
    return `<button data-seat="${s}" class="${s === activeKey ? "active" : ""}${pending}"><span class="swatch" style="background:${seatColour(s)}"></span> ${esc(seatName(st.match, s))}</button>`;
  }).join("");
  for (const b of box.querySelectorAll("button")) {
    b.onclick = () => { activeKey = Number(b.dataset.seat); pinned = true; curtain = false; render(); };
  }
}

function renderActions(st, conn) {
  const box = $("actions");
  // no buttons but a player's own: never a bot's moves, even on a state sent before its seat went to it
  const own = playingSeats(st.match).includes(st.seat);
  if (!st.legal.length || !own || !ready(conn) || (curtain && !replayMode)) { box.innerHTML = ""; return; }
  const auto = st.legal.length === 1 && !decides(st);
  const buttons = st.legal.map((a, i) => {
    const key = i < 9 ? ` data-key="${i + 1}" aria-keyshortcuts="${i + 1}"` : "";
    return `<button class="action" data-act="${esc(a)}"${key} ${conn.busy || auto ? "disabled" : ""} title="${esc(a)}">${esc(actionLabel(st, a, st.seat))}</button>`;
  }).join("") + (auto ? `<span class="muted auto-note">only move: played for you</span>` : "");
  // many moves that the board offers as spaces, cards or a shop: the buttons stay, folded, for the keyboard
  // (a board's data-offers="a b" lists moves it offers through its own controls, e.g. a square picked, then confirmed)
  const onBoard = new Set([...$("board").querySelectorAll("[data-action].clickable")].map((el) => el.dataset.action));
  for (const el of $("board").querySelectorAll("[data-offers]")) for (const a of sequenceOf(el, "offers")) onBoard.add(a);
  const offers = $("board").querySelector("[data-offers]") !== null; // a board that lists its offers folds them all
  const fold = (st.legal.length > 6 && st.legal.filter((a) => onBoard.has(a)).length >= st.legal.length / 2)
    || (offers && st.legal.length > 1 && st.legal.every((a) => onBoard.has(a)));
  box.innerHTML = fold
    ? `<details class="all-moves"><summary>All ${st.legal.length} moves as buttons (or click them on the board)</summary><div class="actions">${buttons}</div></details>`
    : buttons;
  for (const b of box.querySelectorAll("button")) b.onclick = () => act(b.dataset.act);
}

function act(action, key = activeKey, sequence = null) {
  const conn = conns.get(key);
  const st = conn?.state;
  if (!st || conn.busy || !st.legal.includes(action) || conn.queue.length || conn.ws.readyState !== WebSocket.OPEN) return false;
  conn.sequence = sequence;
  conn.busy = true;
  conn.mine = true;
  conn.ws.send(JSON.stringify({ type: "act", action, ply: st.ply, id: `${key}-${st.ply}-${Math.random().toString(36).slice(2, 8)}` }));
  if (key === activeKey) renderActions(st, conn);
  return true;
}

// A board's sequence of moves (an element with data-actions="a b c", e.g. a path of steps planned on the
// board): the first is sent now, each next one once the state its step produced arrives, only if it is
// still legal there and nothing came between (the position is the one right after the seat's own step:
// no die rolled, no other seat acted). Anything unexpected ends the sequence; the seat chooses again.
function sequenceOf(el, name = "actions") {
  return (el.dataset[name] || "").split(" ").filter(Boolean);
}

function actSequence(actions, key = activeKey) {
  const conn = conns.get(key);
  const st = conn?.state;
  if (!st || !actions.length) return false;
  return act(actions[0], key, { rest: actions.slice(1), ply: st.ply });
}

function continueSequence(key) {
  const conn = conns.get(key);
  const seq = conn?.sequence;
  const st = conn?.state;
  if (!seq || !st || st.ply === seq.ply) return; // the step is still on its way
  const next = seq.rest[0];
  if (replayMode || conn.queue.length || st.ply !== seq.ply + 1 || next === undefined || !st.legal.includes(next)) {
    conn.sequence = null;
    if (next !== undefined && key === activeKey) render();
    return;
  }
  const wait = Math.min(SPEEDS[speed], 250); // the car is seen passing each square
  setTimeout(() => {
    if (conn.sequence !== seq || conn.state !== st) return;
    if (!act(next, key, { rest: seq.rest.slice(1), ply: st.ply })) conn.sequence = null;
  }, wait);
}

function renderSeats(st) {
  const m = st.match;
  const held = heldSeats();
  const botOptions = m.bots.map((b) => `<option value="${esc(b)}">${esc((m.bot_labels || {})[b] || b)}</option>`).join("");
  const accounts = seatAccounts(matchId, m, () => { const now = active(); if (now) renderSeats(now); });
  $("seat-list").innerHTML = m.seats.map((s) => {
    const heldFor = m.status === "open" && s.kind === "open" ? heldText(s, conns.get(activeKey)?.receivedAt || Date.now()) : null;
    let who = s.kind === "open" ? heldFor || "<i>open</i>" : accountName(accounts, s, esc(s.name));
    if (s.kind === "bot") who += ' <span class="tag">bot</span>';
    if (s.kind === "resigned") who += ' <span class="tag">resigned</span>';
    if (held.includes(s.seat) && s.kind === "human") who += ' <span class="tag you">you</span>';
    const join = m.status === "open" && s.kind === "open" && !heldFor
      ? `<input class="join-name" data-seat="${s.seat}" placeholder="your name" maxlength="40" aria-label="name for seat ${s.seat + 1}"><button class="join" data-seat="${s.seat}">Join</button>` : "";
    let bot = "";
    if (m.status === "open" && tokens.host && s.kind !== "human" && !heldFor) {
      bot = `<select class="bot-pick" data-seat="${s.seat}" aria-label="bot for seat ${s.seat + 1}"><option value="">${s.kind === "bot" ? "remove bot" : "add bot…"}</option>${botOptions}</select>`;
    } else if (m.status === "running" && tokens.host && s.kind === "human" && !held.includes(s.seat)) {
      bot = `<select class="bot-pick" data-seat="${s.seat}" title="if this player has left"><option value="">hand to a bot…</option>${botOptions}</select>`;
    }
    return `<li data-seat="${s.seat}"${heldFor ? ' class="held"' : ""}><span class="swatch" style="background:${seatColour(s.seat)}"></span>Seat ${s.seat + 1}: ${who} <span class="marks" data-marks="${s.seat}"></span> ${join} ${bot}</li>`;
  }).join("") + (accounts.rated ? `<li class="muted rated-note">Rated race: players with accounts only</li>` : "");
  for (const b of document.querySelectorAll("button.join")) b.onclick = () => join(Number(b.dataset.seat));
  for (const sel of document.querySelectorAll("select.bot-pick")) {
    sel.onchange = () => {
      if (m.status === "running" && !sel.value) return;
      if (m.status === "running" && !confirm(`Hand seat ${Number(sel.dataset.seat) + 1} to a bot for the rest of the race?`)) return;
      setBot(Number(sel.dataset.seat), sel.value || null);
    };
  }
  const hc = $("host-controls");
  if (m.status === "open" && tokens.host) {
    const received = conns.get(activeKey)?.receivedAt || Date.now();
    const invited = m.seats.filter((s) => s.kind === "open" && heldText(s, received)).map((s) => `${esc(s.held_for)} (seat ${s.seat + 1})`);
    const empty = m.seats.filter((s) => s.kind === "open" && !heldText(s, received)).map((s) => s.seat + 1);
    const waits = [];
    if (invited.length) waits.push(`held for ${invited.join(", ")}, invited to this rematch: it starts by itself when they are back`);
    if (empty.length) waits.push(`Seat${empty.length > 1 ? "s" : ""} ${empty.join(", ")} ${empty.length > 1 ? "are" : "is"} empty: a player joins or you add a bot`);
    const why = waits.length ? ` <span class="muted">${waits.join("; ").replace(/^h/, "H")}.</span>` : "";
    hc.innerHTML = `<button id="start-btn" ${empty.length || invited.length ? "disabled" : ""}>Start race</button>${why}`;
    $("start-btn").onclick = start;
  } else hc.innerHTML = "";
}

async function join(seat) {
  const input = document.querySelector(`input.join-name[data-seat="${seat}"]`);
  try {
    const r = await api("POST", `/api/matches/${matchId}/seats/${seat}/join`, { name: input?.value || "" });
    tokens.seats[seat] = r.token;
    saveTokens(matchId, tokens);
    activeKey = seat;
    setupConnections();
  } catch (e) { toast(e.message); }
}

async function setBot(seat, bot) {
  try { await api("POST", `/api/matches/${matchId}/seats/${seat}/bot`, { bot }, tokens.host); }
  catch (e) { toast(e.message); }
}

async function start() {
  try { await api("POST", `/api/matches/${matchId}/start`, undefined, tokens.host); }
  catch (e) { toast(e.message); }
}

// The rule tag of a log entry links to the paragraph of our rules text it names (its key, event.rule);
// the player reads the rule in words (event.rule_words: the server drops decision codes such as RC-G7
// and ends a section number with a full stop, as the terminal does).
function ruleHtml(event, m) {
  if (!event.rule) return "";
  const href = `/rules/${encodeURIComponent(m.game)}?rule=${encodeURIComponent(event.rule)}`;
  const label = event.rule_words || "the rule";
  return ` <a class="rule" href="${href}" target="_blank" rel="noopener" title="open the rule: ${esc(label)}">${esc(label)}</a>`;
}

function renderLog(log, m) {
  const box = $("log");
  box.innerHTML = log.slice(-200).map((entry) => entry.events.map((e) =>
    `<li${e.local ? ' class="auto-played"' : ""}><span class="ply">${entry.ply}</span> ${esc(named(e.text, m))}${ruleHtml(e, m)}</li>`).join("")).join("");
  box.scrollTop = box.scrollHeight;
}

function renderPlayControls(st, conn) {
  const box = $("play-controls");
  const m = st.match;
  const seat = typeof activeKey === "number" ? activeKey : null;
  const playing = seat !== null && m.status === "running" && playingSeats(m).includes(seat);
  const undoSeat = undoableSeat(m);
  $("undo-btn").hidden = undoSeat === null || !!replayMode;
  $("undo-btn").textContent = undoSeat !== null && heldSeats().length > 1 ? `Undo ${seatName(m, undoSeat)}'s step` : "Undo";
  $("resign-btn").hidden = !playing || !!replayMode || seatFinished(st.view, seat); // a finished seat's race is run
  $("rematch-btn").hidden = !(m.status === "finished" && (heldSeats().length || tokens.host)) || !!m.rematch; // made: the banner offers it
  renderClaim(m);
  box.hidden = $("undo-btn").hidden && $("resign-btn").hidden && $("rematch-btn").hidden && $("claim-btn").hidden;
}

// The seat whose last step this browser may take back: the shown seat's, else (hot-seat) another held seat's.
function undoableSeat(m) {
  if (m.status !== "running") return null;
  const seats = playingSeats(m);
  const order = seats.includes(activeKey) ? [activeKey, ...seats.filter((s) => s !== activeKey)] : seats;
  return order.find((s) => ready(conns.get(s)) && conns.get(s).state.can_undo) ?? null;
}

async function undo() {
  const seat = undoableSeat(active().match);
  const st = conns.get(seat)?.state;
  if (!st) return;
  const conn = conns.get(seat);
  conn.undoing = true;
  try {
    await api("POST", `/api/matches/${matchId}/undo`, { ply: st.ply }, tokens.seats[seat]);
  } catch (e) {
    conn.undoing = false;
    toast(e.message);
  }
}

async function resign() {
  const seat = activeKey;
  if (!confirm(`Resign ${seatName(active().match, seat)}'s seat? A bot plays it to the end and it is ranked last.`)) return;
  try { await api("POST", `/api/matches/${matchId}/resign`, {}, tokens.seats[seat]); }
  catch (e) { toast(e.message); }
}

// Claiming the win: the server tells each seat (in its state and in "claim" messages) whether and in how
// many seconds it may claim, and which seats are away; the button shows only once the claim is allowed.
function noteClaim(conn, claim) {
  conn.claim = claim ? { at: Date.now() + claim.in * 1000, away: claim.away } : null;
}

function claimableSeat() {
  const order = [activeKey, ...heldSeats().filter((s) => s !== activeKey)];
  return order.find((s) => conns.get(s)?.claim && conns.get(s).claim.at <= Date.now()) ?? null;
}

function renderClaim(m) {
  const seat = m.status === "running" && !replayMode ? claimableSeat() : null;
  const btn = $("claim-btn");
  btn.hidden = seat === null;
  if (seat === null) return;
  const words = claimWords(m, conns.get(seat).claim.away);
  btn.textContent = words.label;
  btn.title = words.explain;
}

async function claimWin() {
  const seat = claimableSeat();
  if (seat === null) return;
  const words = claimWords(active().match, conns.get(seat).claim.away);
  if (!confirm(`${words.label}? ${words.explain}.`)) return;
  try { await api("POST", `/api/matches/${matchId}/claim`, {}, tokens.seats[seat]); }
  catch (e) { toast(e.message); }
}

function tickClaim() {
  const st = active();
  if (!st || st.match.status !== "running") return;
  if ($("claim-btn").hidden === (claimableSeat() === null)) return;
  renderPlayControls(st, conns.get(activeKey));
}

async function rematch() {
  try {
    const seats = heldSeats();
    let next = null;
    const mine = { host: null, seats: {} };
    for (const seat of seats.length ? seats : [null]) {
      const token = seat === null ? tokens.host : tokens.seats[seat];
      const r = await api("POST", `/api/matches/${matchId}/rematch`, seat === null ? {} : { seat }, token);
      next = r.id;
      if (r.token) mine.seats[r.seat] = r.token;
    }
    mine.host = tokens.host; // the rematch keeps the host's token
    saveTokens(next, mine);
    // hot-seat: whoever asked for the rematch holds the device and sees their seat, as here
    try { sessionStorage.setItem(`slipstream:curtain:${next}`, JSON.stringify({ seat: activeKey, curtain })); } catch { /* private mode */ }
    location.href = `/m/${next}`;
  } catch (e) { toast(e.message); }
}

// The end of a race, on top of the page: who won and why, then a table of every player (place, name and
// the game's key numbers for the race, its scoreboard) in finishing order; a cooperative game's team
// wins or loses together, so its players are listed in seat order without places.
function renderResult(st) {
  const m = st.match;
  const box = $("result");
  if (!st.result) { box.hidden = true; $("replay").hidden = true; return; }
  box.hidden = false;
  const team = !!st.result.team;
  // A game's own "Place" column ("3rd (wreck)") fills the table's place column rather than repeating it.
  const given = st.scoreboard || { columns: [], values: [] };
  const placeAt = team ? -1 : given.columns.findIndex((c) => c.toLowerCase() === "place");
  const keep = given.columns.map((_c, i) => i).filter((i) => i !== placeAt);
  const board = { columns: keep.map((i) => given.columns[i]), values: given.values.map((row) => keep.map((i) => (row || [])[i])) };
  const place = (s, i) => (placeAt >= 0 ? (given.values[s] || [])[placeAt] : String(i + 1));
  const order = team ? m.seats.map((s) => s.seat) : shownOrder(m, st.result);
  const reason = esc(named(st.result.reason, m));
  const head = `${team ? "" : "<th>Place</th>"}<th>Player</th>${board.columns.map((c) => `<th>${esc(c)}</th>`).join("")}`;
  const rows = order.map((s, i) => {
    const cells = (board.values[s] || []).map((v) => `<td>${esc(named(v, m))}</td>`).join("");
    const mine = heldSeats().includes(s) ? ' class="me"' : "";
    return `<tr data-seat="${s}"${mine}>${team ? "" : `<td>${esc(place(s, i))}</td>`}<td><span class="swatch" style="background:${seatColour(s)}"></span> ${esc(placeName(m, s))}</td>${cells}</tr>`;
  }).join("");
  let verdict;
  if (team) verdict = `<b>${st.result.winners.length ? "The team wins" : "The team loses"}</b> (${reason})`;
  else {
    const winners = st.result.winners.filter((s) => m.seats[s].kind !== "resigned");
    const won = winners.length ? winners : [order[0]];
    verdict = `Winner: <b>${esc(won.map((s) => seatName(m, s)).join(", "))}</b> (${reason})`;
  }
  box.innerHTML = `<h3>${team ? "Game over" : "Race over"}</h3><p>${verdict}</p><table class="results-table">${`<tr>${head}</tr>`}${rows}</table>`;
  boxTables(box);
  const rp = $("replay");
  if (rp.hidden) {
    rp.hidden = false;
    $("record-link").href = `/api/matches/${matchId}/record`;
    $("rp-seat").innerHTML = `<option value="">spectator view</option>` + m.seats.map((s) => `<option value="${s.seat}">${esc(seatName(m, s.seat))}'s view</option>`).join("");
    $("rp-slider").max = m.ply;
    $("rp-slider").value = m.ply;
    $("rp-label").textContent = `move ${m.ply} / ${m.ply}`;
  }
}

async function showReplay(ply) {
  const seat = $("rp-seat").value;
  const total = Number($("rp-slider").max);
  ply = Math.max(0, Math.min(total, ply));
  try {
    const r = await api("GET", `/api/matches/${matchId}/replay?ply=${ply}${seat === "" ? "" : `&seat=${seat}`}`);
    replayMode = { ply, total: r.total };
    const m = r.match;
    $("rp-slider").max = r.total;
    $("rp-slider").value = ply;
    $("rp-label").textContent = `move ${ply} / ${r.total}${r.action_label ? ` · ${named(r.action_label, m)}` : ""}`;
    await drawBoard(r, r.view, r.seat, []);
    $("board-text-box").hidden = !r.board_text;
    $("board-text").textContent = r.board_text;
    document.querySelector(".play-bar").hidden = false;
    $("dice").innerHTML = chanceHtml(r.events, m);
    diceShown = null;
    $("actions").innerHTML = r.events.map((e) => `<div class="replay-event">${esc(named(e.text, m))}${ruleHtml(e, m)}</div>`).join("");
    $("hints").innerHTML = "";
    renderLog(r.log, m);
    showReplayChat(r.chat);
    $("turn").textContent = turnText(r);
    $("turn").className = "turn";
  } catch (e) { toast(e.message); }
}

function wireReplay() {
  const cur = () => Number($("rp-slider").value);
  $("rp-first").onclick = () => showReplay(0);
  $("rp-prev").onclick = () => showReplay(cur() - 1);
  $("rp-next").onclick = () => showReplay(cur() + 1);
  $("rp-last").onclick = () => showReplay(Number($("rp-slider").max));
  $("rp-slider").oninput = () => showReplay(cur());
  $("rp-seat").onchange = () => showReplay(cur());
}

// Keyboard: 1-9 take the action on that button, u undoes, Enter/Space on a board space or card takes it.
function onKey(e) {
  if (curtain || e.target.matches("input, select, textarea")) return;
  if (e.key === "u" && !$("undo-btn").hidden) { undo(); return; }
  if ((e.key === "Enter" || e.key === " ") && e.target.dataset && (e.target.dataset.action || e.target.dataset.actions)) {
    e.preventDefault();
    if (!replayMode) {
      if (e.target.dataset.action) act(e.target.dataset.action);
      else actSequence(sequenceOf(e.target));
    }
    return;
  }
  if (/^[1-9]$/.test(e.key)) {
    const b = document.querySelectorAll("#actions button.action")[Number(e.key) - 1];
    if (b && !b.disabled) b.click();
  }
}

function main() {
  $("share-link").value = location.href;
  $("copy-link").onclick = () => { navigator.clipboard?.writeText(location.href); toast("Link copied", "info"); };
  $("board").addEventListener("click", (e) => {
    const target = e.target.closest("[data-action], [data-actions]");
    if (!target || replayMode) return;
    if (target.dataset.action !== undefined) act(target.dataset.action);
    else actSequence(sequenceOf(target));
  });
  document.addEventListener("keydown", onKey);
  $("board-text-box").addEventListener("toggle", () => { // the server draws the text board only while it is open
    const on = $("board-text-box").open;
    for (const conn of conns.values()) if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify({ type: "text_board", on }));
  });
  $("speed").value = speed;
  $("speed").onchange = () => { speed = $("speed").value; localStorage.setItem("slipstream:speed", speed); };
  offerNotifications($("notify-btn"));
  $("sound").checked = localStorage.getItem("slipstream:sound") === "on";
  $("sound").onchange = () => localStorage.setItem("slipstream:sound", $("sound").checked ? "on" : "off");
  $("undo-btn").onclick = undo;
  $("resign-btn").onclick = resign;
  $("rematch-btn").onclick = rematch;
  $("claim-btn").onclick = claimWin;
  setInterval(tickClaim, 1000);
  wireReplay();
  setInterval(tickSeats, 1000);
  wireChat({
    matchId,
    hostToken: () => tokens.host,
    send: (text) => { // through the shown seat's socket (a spectator's: as a spectator)
      const conn = conns.get(activeKey);
      if (!conn || conn.ws.readyState !== WebSocket.OPEN) return false;
      conn.ws.send(JSON.stringify({ type: "chat", text }));
      return true;
    },
  });
  $("curtain-show").onclick = () => { curtain = false; render(); };
  installTips();
  // The names and effects of the match's cards, items and racers: the boards show them (a spectator
  // and a replay too); a page that cannot fetch them shows the names the view carries.
  // The page draws nothing before they came (or failed), so a board never flashes ids on its first paint.
  glossaryLoaded = api("GET", `/api/matches/${encodeURIComponent(matchId)}/glossary`)
    .then((g) => { glossary = g || {}; })
    .catch((e) => { if (e.status === 404) noSuchRace(); })
    .finally(() => { glossaryReady = true; render(); });
  setupConnections();
}

main();
