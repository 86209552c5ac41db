// The match page: seats and lobby controls, live play over WebSocket, the board, the log, replays.
// One WebSocket per seat this browser holds (hot-seat holds several), or one spectator connection.
import { api, esc, loadTokens, saveTokens, seatName, SEAT_COLOURS, toast } from "/static/common.js";
import * as generic from "/static/board.js";

const matchId = decodeURIComponent(location.pathname.split("/").pop());
let tokens = loadTokens(matchId);
const conns = new Map(); // key ("spectator" or seat number) -> {ws, state, log, lastPly, closed}
let activeKey = null;
let pinned = false; // the user picked a seat tab by hand
let busy = false;
let replayMode = null; // {ply, total, seat, data}
let curtain = false; // hot-seat: hide the board until the next player is ready
const modules = new Map();

const $ = (id) => document.getElementById(id);

function heldSeats() {
  return Object.keys(tokens.seats).map(Number).sort((a, b) => a - b);
}

function connect(key, token) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/matches/${encodeURIComponent(matchId)}`);
  const conn = conns.get(key) || { state: null, log: [], lastPly: -1, closed: false };
  conn.ws = ws;
  conns.set(key, conn);
  ws.onopen = () => { ws.send(JSON.stringify({ type: "hello", token })); renderConn(); };
  ws.onmessage = (e) => onMessage(key, JSON.parse(e.data));
  ws.onclose = (e) => {
    renderConn();
    if (conn.closed) return;
    if (e.code === 4403 && key !== "spectator") { // the token is not valid for this match any more
      delete tokens.seats[key];
      saveTokens(matchId, tokens);
      conns.delete(key);
      setupConnections();
      return;
    }
    if (e.code === 4404) { $("turn").textContent = "No such race."; return; }
    setTimeout(() => connect(key, token), 1000);
  };
  renderConn();
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
  if (!conns.has(activeKey)) activeKey = wanted[0];
}

function onMessage(key, msg) {
  const conn = conns.get(key);
  if (!conn) return;
  if (msg.type === "log") {
    conn.log = msg.entries;
    conn.lastPly = msg.entries.length ? msg.entries[msg.entries.length - 1].ply : -1;
  } else if (msg.type === "state") {
    if (msg.ply > conn.lastPly && msg.events.length) {
      conn.log.push({ ply: msg.ply, events: msg.events });
      conn.lastPly = msg.ply;
    }
    conn.state = msg;
    busy = false;
    autoSwitch();
  } else if (msg.type === "error") {
    busy = false;
    toast(`${msg.code}: ${msg.message}`);
  } else if (msg.type === "ack") {
    busy = false;
  }
  render();
}

// Hot-seat: show the held seat that must act now (unless the user pinned a tab and it still must act).
function autoSwitch() {
  const current = conns.get(activeKey)?.state;
  const pending = current ? current.actor.seats : [];
  if (pinned && pending.includes(activeKey)) return;
  const mine = heldSeats().filter((s) => pending.includes(s));
  if (mine.length && !mine.includes(activeKey)) {
    activeKey = mine[0];
    pinned = false;
    curtain = true; // hot-seat: the next player takes the device before their hidden cards show
  }
}

function renderCurtain(st) {
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
    modules.set(match.board, import(match.board).catch((e) => { console.error(e); return generic; }));
  }
  return modules.get(match.board);
}

function renderConn() {
  const open = [...conns.values()].some((c) => c.ws && c.ws.readyState === WebSocket.OPEN);
  $("conn").className = `conn ${open ? "on" : "off"}`;
  $("conn").title = open ? "connected" : "reconnecting…";
}

function turnText(st) {
  const m = st.match;
  if (m.status === "open") {
    const open = m.seats.filter((s) => s.kind === "open").length;
    return open ? `Waiting for players: ${open} open seat${open > 1 ? "s" : ""}` : "All seats filled: the host can start the race";
  }
  if (st.result) return `Race over — ${st.result.order.map((s, i) => `${i + 1}. ${seatName(m, s)}`).join(", ")}`;
  const a = st.actor;
  if (a.kind === "chance") return "Rolling…";
  const held = heldSeats();
  if (a.kind === "seat") {
    const s = a.seats[0];
    return held.includes(s) ? `Your turn, ${seatName(m, s)}` : `Waiting for ${seatName(m, s)}`;
  }
  if (a.kind === "simultaneous") {
    const names = a.seats.map((s) => seatName(m, s)).join(", ");
    const mine = a.seats.filter((s) => held.includes(s));
    return mine.length
      ? `Choose now, ${seatName(m, mine[0])} — everyone chooses at once, revealed together (waiting for ${names})`
      : `Everyone chooses at once — waiting for ${names}`;
  }
  return "";
}

const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function dieHtml(n) {
  return `<span class="die" title="${esc(n)}">${Number.isInteger(n) && n >= 1 && n <= 6 ? DIE_FACES[n] : esc(n)}</span>`;
}

function chanceHtml(events) {
  const out = [];
  for (const e of events) {
    const d = e.data || {};
    for (const k of ["die", "roll"]) if (d[k] !== undefined) out.push(dieHtml(d[k]));
    for (const k of ["dice", "rolls"]) if (Array.isArray(d[k])) d[k].forEach((n) => out.push(dieHtml(n)));
    if (d.card !== undefined) out.push(`<span class="playing-card">${esc(d.card)}</span>`);
    if (Array.isArray(d.cards)) d.cards.forEach((c) => out.push(`<span class="playing-card">${esc(c)}</span>`));
  }
  return out.join("");
}

async function drawBoard(st, view, seat) {
  const mod = await boardModule(st.match);
  const ctx = {
    match: st.match, seat, legal: st.legal || [], names: st.match.seats.map((_, s) => seatName(st.match, s)),
    colours: SEAT_COLOURS, narrow: $("board").clientWidth < 600,
  };
  try {
    $("board").innerHTML = mod.draw(view, ctx);
  } catch (e) {
    console.error(e);
    $("board").innerHTML = generic.draw(view, ctx);
  }
  for (const el of $("board").querySelectorAll("[data-action]")) {
    el.classList.toggle("clickable", ctx.legal.includes(el.dataset.action));
  }
}

function render() {
  const st = active();
  if (!st) return;
  const m = st.match;
  document.title = `Slipstream · ${m.title}`;
  $("match-title").textContent = `${m.title} · ${m.game_name}`;
  $("turn").textContent = turnText(st);
  $("turn").className = `turn ${st.legal.length ? "mine" : ""}`;
  renderTabs(st);
  renderCurtain(st);
  renderSeats(st);
  if (!replayMode) {
    drawBoard(st, st.view, st.seat);
    $("board-text-box").hidden = !st.board_text;
    $("board-text").textContent = st.board_text;
    $("dice").innerHTML = chanceHtml(st.events);
    renderActions(st);
    $("hints").innerHTML = st.hints.map((h) => `<li>${esc(h)}</li>`).join("");
  }
  renderLog();
  renderResult(st);
}

function renderTabs(st) {
  const held = heldSeats();
  const box = $("seat-tabs");
  if (held.length < 2) { box.innerHTML = ""; return; }
  box.innerHTML = held.map((s) => {
    const pending = st.actor.seats.includes(s) ? " pending" : "";
    return `<button data-seat="${s}" class="${s === activeKey ? "active" : ""}${pending}">${esc(seatName(st.match, s))}</button>`;
  }).join("");
  for (const b of box.querySelectorAll("button")) {
    b.onclick = () => { activeKey = Number(b.dataset.seat); pinned = true; render(); };
  }
}

function renderActions(st) {
  const box = $("actions");
  if (!st.legal.length) { box.innerHTML = ""; return; }
  box.innerHTML = st.legal.map((a) => `<button class="action" data-act="${esc(a)}" ${busy ? "disabled" : ""}>${esc(st.labels[a] || a)}</button>`).join("");
  for (const b of box.querySelectorAll("button")) b.onclick = () => act(b.dataset.act);
}

function act(action) {
  const conn = conns.get(activeKey);
  const st = conn?.state;
  if (!st || busy || !st.legal.includes(action)) return;
  busy = true;
  conn.ws.send(JSON.stringify({ type: "act", action, ply: st.ply, id: `${activeKey}-${st.ply}-${Math.random().toString(36).slice(2, 8)}` }));
  renderActions(st);
}

function renderSeats(st) {
  const m = st.match;
  const held = heldSeats();
  $("seat-list").innerHTML = m.seats.map((s) => {
    const colour = SEAT_COLOURS[s.seat % SEAT_COLOURS.length];
    let who = s.kind === "open" ? "<i>open</i>" : esc(s.name);
    if (s.kind === "bot") who += ' <span class="tag">bot</span>';
    if (held.includes(s.seat)) who += ' <span class="tag you">you</span>';
    const join = m.status === "open" && s.kind === "open"
      ? `<input class="join-name" data-seat="${s.seat}" placeholder="name" maxlength="40"><button class="join" data-seat="${s.seat}">Join</button>` : "";
    const botOptions = m.bots.map((b) => `<option>${esc(b)}</option>`).join("");
    let bot = "";
    if (m.status === "open" && tokens.host && s.kind !== "human") {
      bot = `<select class="bot-pick" data-seat="${s.seat}"><option value="">${s.kind === "bot" ? "remove bot" : "add bot…"}</option>${botOptions}</select>`;
    } else if (m.status === "running" && tokens.host && s.kind === "human") {
      bot = `<select class="bot-pick" data-seat="${s.seat}" title="if this player has left"><option value="">hand to a bot…</option>${botOptions}</select>`;
    }
    return `<li><span class="swatch" style="background:${colour}"></span>Seat ${s.seat + 1}: ${who} ${join} ${bot}</li>`;
  }).join("");
  for (const b of document.querySelectorAll("button.join")) b.onclick = () => join(Number(b.dataset.seat));
  for (const sel of document.querySelectorAll("select.bot-pick")) {
    sel.onchange = () => {
      if (m.status === "running" && !sel.value) return;
      if (m.status === "running" && !confirm(`Hand seat ${Number(sel.dataset.seat) + 1} to the ${sel.value} bot for the rest of the race?`)) return;
      setBot(Number(sel.dataset.seat), sel.value || null);
    };
  }
  const hc = $("host-controls");
  if (m.status === "open" && tokens.host) {
    hc.innerHTML = `<button id="start-btn">Start race</button>`;
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
  } catch (e) { toast(`${e.code}: ${e.message}`); }
}

async function setBot(seat, bot) {
  try { await api("POST", `/api/matches/${matchId}/seats/${seat}/bot`, { bot }, tokens.host); }
  catch (e) { toast(`${e.code}: ${e.message}`); }
}

async function start() {
  try { await api("POST", `/api/matches/${matchId}/start`, undefined, tokens.host); }
  catch (e) { toast(`${e.code}: ${e.message}`); }
}

function renderLog() {
  const conn = conns.get(activeKey);
  if (!conn) return;
  const box = $("log");
  box.innerHTML = conn.log.slice(-200).map((entry) => entry.events.map((e) =>
    `<li><span class="ply">${entry.ply}</span> ${esc(e.text)}${e.rule ? ` <span class="rule">${esc(e.rule)}</span>` : ""}</li>`).join("")).join("");
  box.scrollTop = box.scrollHeight;
}

function renderResult(st) {
  const m = st.match;
  const box = $("result");
  if (!st.result) { box.hidden = true; $("replay").hidden = true; return; }
  box.hidden = false;
  const winners = st.result.winners.map((s) => seatName(m, s)).join(", ") || "nobody";
  box.innerHTML = `<h3>Result</h3><p>Winner: <b>${esc(winners)}</b> (${esc(st.result.reason)})</p>
    <ol>${st.result.order.map((s) => `<li>${esc(seatName(m, s))}</li>`).join("")}</ol>`;
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
    $("rp-slider").max = r.total;
    $("rp-slider").value = ply;
    $("rp-label").textContent = `move ${ply} / ${r.total}${r.action ? ` · ${r.action}` : ""}`;
    await drawBoard(r, r.view, r.seat);
    $("board-text-box").hidden = !r.board_text;
    $("board-text").textContent = r.board_text;
    $("dice").innerHTML = chanceHtml(r.events);
    $("actions").innerHTML = r.events.map((e) => `<div class="replay-event">${esc(e.text)} <span class="rule">${esc(e.rule)}</span></div>`).join("");
  } catch (e) { toast(`${e.code}: ${e.message}`); }
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

function main() {
  $("share-link").value = location.href;
  $("copy-link").onclick = () => { navigator.clipboard?.writeText(location.href); toast("Link copied", "info"); };
  $("board").addEventListener("click", (e) => {
    const target = e.target.closest("[data-action]");
    if (target && !replayMode) act(target.dataset.action);
  });
  wireReplay();
  $("curtain-show").onclick = () => { curtain = false; render(); };
  setupConnections();
}

main();
