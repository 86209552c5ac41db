// The lobby: choose a game (what it is, how to play it), its options in a player's words, the seats
// with bots; the open, running and finished races. It remembers your name and last game.
import { api, esc, notifyTurn, offerNotifications, saveTokens, seatTokens, timeLeft, toast } from "/static/common.js";
import { accountBar } from "/static/account.js";

let catalog = [];
let listStatus = "open";
const REMEMBER = "slipstream:lobby"; // {name, game, mode} of the last race made in this browser

function remembered() {
  try { return JSON.parse(localStorage.getItem(REMEMBER) || "{}") || {}; } catch { return {}; }
}

function remember(changes) {
  localStorage.setItem(REMEMBER, JSON.stringify({ ...remembered(), ...changes }));
}

function currentGame() {
  return catalog.find((g) => g.id === document.getElementById("game-select").value);
}

// "dynamic_weather" -> "Dynamic weather", "roll-off" -> "Roll off": a value with no label, as words.
function words(name) {
  const text = String(name).split(/[_-]+/).join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The bot a seat gets by default when playing against bots: the game's own, else the first offered.
function defaultBot(g) {
  return ["heuristic", "greedy"].find((b) => g.bots.includes(b)) || g.bots[0] || "";
}

function mode() {
  return document.querySelector("input[name='mode']:checked").value;
}

function players() {
  const g = currentGame();
  return Number(document.getElementById("players").value) || g.default_players;
}

function choiceLabel(o, value) {
  return o.choice_labels[String(value)] ?? words(value);
}

function optionHtml(o, value, selected, index) {
  const tip = o.choice_texts[String(value)];
  return `<option value="${index}"${selected ? " selected" : ""}${tip ? ` title="${esc(tip)}"` : ""}>${esc(choiceLabel(o, value))}</option>`;
}

// A list to pick one of `values` from; each <option>'s value is its index, the data-values the values.
function selectHtml(id, o, values, chosen, extra = "") {
  const opts = values.map((v, i) => optionHtml(o, v, String(v) === String(chosen), i)).join("");
  return `<select id="${id}" ${extra} data-values="${esc(JSON.stringify(values))}">${opts}</select>`;
}

function pickedValue(select) {
  return JSON.parse(select.dataset.values)[Number(select.value)];
}

// How many values each seat takes in a per-seat option (two racers each in some games).
function valuesPerSeat(o) {
  const chosen = readOptions(true);
  const rule = o.seat_values.find((r) => r.players === players()
    && Object.entries(r.options).every(([k, v]) => !(k in chosen) || chosen[k] === v));
  return rule ? rule.count : 1;
}

// A picker per seat: the names of the game's racers, characters or vehicles (or a small box each when
// the game has no names for them); the first entry leaves the seat to the game (at random, or its order).
function perSeatHtml(o, before) {
  const n = players() * valuesPerSeat(o);
  const per = n / players();
  const open = o.special.length === 1 ? o.special[0][1] : "left open";
  let html = "";
  for (let k = 0; k < n; k++) {
    const seat = Math.floor(k / per);
    const label = `Seat ${seat + 1}${per > 1 ? ` (${k % per + 1} of ${per})` : ""}`;
    const id = `opt-${o.name}-${k}`;
    if (o.choices) {
      const values = ["", ...o.choices];
      const opts = values.map((v, i) => i === 0
        ? `<option value="0">${esc(open)}</option>`
        : optionHtml(o, v, before[k] === v, i)).join("");
      html += `<label class="seat-pick" for="${id}">${label} <select id="${id}" class="per-seat" data-opt="${esc(o.name)}" data-values="${esc(JSON.stringify(values))}">${opts}</select></label>`;
    } else {
      html += `<label class="seat-pick" for="${id}">${label} <input id="${id}" class="per-seat" data-opt="${esc(o.name)}" size="6" placeholder="${esc(open)}" value="${esc(before[k] ?? "")}"></label>`;
    }
  }
  return html;
}

function renderPerSeat() {
  const g = currentGame();
  for (const o of g.options.filter((x) => x.picker === "per-seat")) {
    const box = document.getElementById(`opt-${o.name}-seats`);
    if (!box) continue;
    const before = [...box.querySelectorAll(".per-seat")].map((el) => (el.tagName === "SELECT" ? pickedValue(el) : el.value));
    box.innerHTML = perSeatHtml(o, before);
  }
  for (const o of g.options.filter((x) => x.picker === "seat")) {
    const sel = document.getElementById(`opt-${o.name}`);
    if (sel) sel.outerHTML = seatSelect(o, pickedValue(sel));
  }
  showPickTexts();
}

function seatSelect(o, chosen) {
  const seats = [];
  for (let s = o.minimum ?? 0; s <= Math.min(o.maximum ?? 7, players() - 1); s++) if (s >= 0) seats.push(s);
  const values = [...o.special.map(([v]) => v), ...seats];
  const labelled = { ...o, choice_labels: { ...Object.fromEntries(seats.map((s) => [String(s), `Seat ${s + 1}`])), ...o.choice_labels } };
  return selectHtml(`opt-${o.name}`, labelled, values, values.map(String).includes(String(chosen)) ? chosen : values[0],
    `aria-describedby="opt-${o.name}-help" data-opt="${esc(o.name)}" data-picker="seat"`);
}

// The effect of the racer, character or track chosen, under its list (the list's own tips show on hover).
function showPickTexts() {
  const g = currentGame();
  for (const o of g.options) {
    const out = document.getElementById(`opt-${o.name}-text`);
    if (!out) continue;
    const picks = [...document.querySelectorAll(`[data-opt="${o.name}"]`)].filter((el) => el.tagName === "SELECT").map(pickedValue);
    out.innerHTML = picks.filter((v) => o.choice_texts[String(v)])
      .map((v) => `<b>${esc(choiceLabel(o, v))}</b>: ${esc(o.choice_texts[String(v)])}`).join("<br>");
  }
}

function optionRow(o) {
  const id = `opt-${o.name}`;
  const help = `<small class="help muted" id="${id}-help">${esc(o.help)}</small>`;
  const described = `aria-describedby="${id}-help"`;
  const texts = Object.keys(o.choice_texts).length ? `<small class="pick-text" id="${id}-text"></small>` : "";
  if (o.picker === "per-seat") {
    return `<fieldset class="option per-seat-box" ${described}><legend>${esc(o.label)}</legend><div id="${id}-seats" class="seat-picks"></div>${help}${texts}</fieldset>`;
  }
  if (o.picker === "several") {
    const boxes = o.choices.map((v, i) => {
      const tip = o.choice_texts[String(v)];
      return `<label class="check"${tip ? ` title="${esc(tip)}"` : ""}><input type="checkbox" class="several" data-opt="${esc(o.name)}" data-value="${esc(v)}" id="${id}-${i}"> ${esc(choiceLabel(o, v))}</label>`;
    }).join("");
    return `<fieldset class="option several-box" ${described}><legend>${esc(o.label)}</legend><div class="several-picks">${boxes}</div>${help}</fieldset>`;
  }
  if (o.picker === "seat") {
    return `<div class="option"><label for="${id}">${esc(o.label)}</label> ${seatSelect(o, o.default)}${help}</div>`;
  }
  if (o.picker === "choice") {
    return `<div class="option"><label for="${id}">${esc(o.label)}</label> ${selectHtml(id, o, o.choices, o.default, `${described} data-opt="${esc(o.name)}" data-picker="choice"`)}${help}${texts}</div>`;
  }
  if (o.picker === "bool") {
    return `<div class="option"><label class="check"><input type="checkbox" id="${id}" ${described} data-opt="${esc(o.name)}" data-picker="bool" ${o.default ? "checked" : ""}> ${esc(o.label)}</label>${help}</div>`;
  }
  const type = o.picker === "number" ? "number" : "text";
  const lim = (o.minimum !== null ? ` min="${o.minimum}"` : "") + (o.maximum !== null ? ` max="${o.maximum}"` : "");
  return `<div class="option"><label for="${id}">${esc(o.label)}</label> <input type="${type}"${lim} id="${id}" ${described} data-opt="${esc(o.name)}" data-picker="${o.picker}" value="${esc(o.default ?? "")}">${help}</div>`;
}

function renderAbout() {
  const g = currentGame();
  const players = g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players} to ${g.max_players} players`;
  document.getElementById("game-about").innerHTML = `<p class="about">${esc(g.description || `${g.name}, for ${players}.`)}</p>
    <p class="about-links"><span class="tag">${esc(players)}${g.cooperative ? " · one team" : ""}</span>
    <a href="${esc(g.rules)}" target="_blank" rel="noopener" id="how-to-play">How to play ${esc(g.name)}</a></p>`;
}

function renderOptions(reset) {
  const g = currentGame();
  const box = document.getElementById("options");
  const count = document.getElementById("players");
  count.min = g.min_players;
  count.max = g.max_players;
  const n = Number(count.value);
  if (reset === true || !n || n < g.min_players || n > g.max_players) count.value = g.default_players;
  renderAbout();
  box.innerHTML = g.options.map(optionRow).join("");
  renderSeats();
  renderPerSeat();
}

// Each seat: a person (me, a friend, or in hot-seat a player at this device) or a bot. The mode sets
// the defaults: against bots every other seat is the game's bot; with friends or hot-seat, people.
function renderSeats(keep = true) {
  const g = currentGame();
  const n = players();
  const box = document.getElementById("seats");
  const before = {};
  const names = {};
  if (keep) for (const el of box.querySelectorAll(".seat-kind")) before[el.dataset.seat] = el.value;
  for (const el of box.querySelectorAll(".seat-name")) names[el.dataset.seat] = el.value;
  const how = mode();
  const person = how === "hotseat" ? "player here" : "a friend";
  let html = "<legend>Seats</legend>";
  for (let s = 0; s < n; s++) {
    const fallback = s > 0 && how === "bots" ? defaultBot(g) : "";
    const chosen = s in before ? before[s] : fallback;
    const bots = g.bots.map((b) => `<option value="${esc(b)}" ${chosen === b ? "selected" : ""}>${esc(g.bot_labels?.[b] || b)} bot</option>`).join("");
    // hot-seat: each player at this device gives a name (seat 1's is "Your name")
    const named = how === "hotseat" && s > 0 && !chosen
      ? ` <input class="seat-name" data-seat="${s}" maxlength="40" placeholder="P${s + 1}" aria-label="name for seat ${s + 1}" value="${esc(names[s] || "")}">` : "";
    html += `<label>Seat ${s + 1} <select data-seat="${s}" class="seat-kind">
      <option value="">${s === 0 ? "me" : person}</option>${bots}</select>${named}</label>`;
  }
  box.innerHTML = html;
}

class PickError extends Error {}

// The options as the server takes them; `loose`: only the simple ones, never refusing (while drawing).
function readOptions(loose = false) {
  const g = currentGame();
  const out = {};
  for (const o of g.options) {
    if (o.picker === "per-seat") {
      if (loose) continue;
      const picks = [...document.querySelectorAll(`.per-seat[data-opt="${o.name}"]`)]
        .map((el) => (el.tagName === "SELECT" ? pickedValue(el) : el.value.trim()));
      const chosen = picks.filter((v) => v !== "");
      if (!chosen.length) out[o.name] = o.default;
      else if (chosen.length < picks.length) throw new PickError(`${o.label}: choose for every seat, or leave every seat open`);
      else out[o.name] = picks.join(",");
      continue;
    }
    if (o.picker === "several") {
      if (loose) continue;
      const ticked = [...document.querySelectorAll(`.several[data-opt="${o.name}"]:checked`)].map((el) => el.dataset.value);
      out[o.name] = ticked.length ? ticked.join(",") : o.default;
      continue;
    }
    const el = document.getElementById(`opt-${o.name}`);
    if (!el) continue;
    if (o.picker === "bool") out[o.name] = el.checked;
    else if (el.tagName === "SELECT") out[o.name] = pickedValue(el);
    else if (o.picker === "number") out[o.name] = el.value === "" ? null : Number(el.value);
    else out[o.name] = el.value;
  }
  return out;
}

async function createRace(ev) {
  ev.preventDefault();
  const g = currentGame();
  const bots = {};
  const humans = [];
  for (const el of document.querySelectorAll(".seat-kind")) {
    if (el.value) bots[el.dataset.seat] = el.value;
    else humans.push(Number(el.dataset.seat));
  }
  const hotseat = mode() === "hotseat";
  const name = document.getElementById("my-name").value.trim();
  const rated = document.getElementById("rated").checked;
  if (rated && !document.getElementById("my-name").readOnly) return toast("A rated race is for players with accounts: log in or sign up first.");
  if (rated && hotseat) return toast("A rated race needs each player's own account: play it with friends, each at their device.");
  const title = document.getElementById("title").value.trim();
  try {
    const options = readOptions();
    const guest = !document.getElementById("my-name").readOnly;
    remember({ ...(guest ? { name } : {}), game: g.id, mode: mode() });
    const made = await api("POST", "/api/matches", {
      game: g.id, players: players(), options,
      title, bots, pace: document.getElementById("pace").value,
      turn_seconds: document.getElementById("pace").value === "live" ? Number(document.getElementById("turn-seconds").value) || null : null,
      public: document.getElementById("listed").checked,
      rated,
    });
    const tokens = { host: made.host_token, seats: {} };
    const mine = hotseat ? humans : humans.slice(0, 1);
    for (const seat of mine) {
      const given = seat === 0 ? name : document.querySelector(`.seat-name[data-seat="${seat}"]`)?.value.trim();
      const joined = await api("POST", `/api/matches/${made.id}/seats/${seat}/join`, { name: given || `P${seat + 1}` });
      tokens.seats[seat] = joined.token;
    }
    saveTokens(made.id, tokens);
    // hot-seat: the player who made the race holds the device, so seat 1's view shows without a pass screen
    try { sessionStorage.setItem(`slipstream:curtain:${made.id}`, JSON.stringify({ seat: 0, curtain: false })); } catch { /* private mode */ }
    if (mine.length === humans.length) await api("POST", `/api/matches/${made.id}/start`, undefined, made.host_token);
    location.href = `/m/${made.id}`;
  } catch (e) {
    toast(e.message || String(e));
  }
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

// One race of the list: the game by its name (and the title its host gave it), who plays, and for a
// finished race who won, in how many moves and when.
function raceHtml(m) {
  const seats = m.seats.map((s) => (s.kind === "open" ? "<i>open seat</i>" : esc(s.name))).join(", ");
  const titled = m.title && m.title !== m.game_name ? ` <span class="race-title">“${esc(m.title)}”</span>` : "";
  let detail = `${m.ply ?? 0} moves`;
  if (m.status === "finished") {
    const r = m.result;
    const won = !r ? "" : r.team ? (r.won ? "the team won" : "the team lost") : r.winners.length ? `won by <b>${esc(r.winners.join(", "))}</b>` : "";
    const length = m.ply ? ` · ${m.ply} moves` : "";
    detail = `${won ? `${won}` : "finished"}${length} · ${esc(when(m.updated_at || m.created_at))}`;
  } else if (m.status === "open") detail = `made ${esc(when(m.created_at))}`;
  return `<li><a href="/m/${esc(m.id)}"><b>${esc(m.game_name || m.game)}</b></a>${titled}
    <div class="muted">${seats} · ${detail}${m.pace && m.pace !== "live" ? ` · ${esc(m.pace_words)}` : ""}</div></li>`;
}

async function refreshList() {
  try {
    const rows = await api("GET", `/api/matches?status=${listStatus}`);
    const ul = document.getElementById("match-list");
    ul.innerHTML = rows.length ? rows.map(raceHtml).join("") : `<li class="muted">No ${listStatus} races listed. A race is listed here when its host ticks “List this race in the lobby”; others are reached by their link.</li>`;
  } catch (e) {
    toast(`${e.code || "error"}: ${e.message}`);
  }
}

// "Your races": the races of the seats this browser holds and of the account logged in, your turn
// first; the tab title says "(Your turn)", and a race whose turn comes to you is notified (if allowed).
let myTurns = null; // the races where it was your turn at the last look (null: no look yet)

function mineHtml(r) {
  const titled = r.title && r.title !== r.game_name ? ` <span class="race-title">“${esc(r.title)}”</span>` : "";
  const tag = r.your_turn ? `<span class="tag turn-now">Your turn</span>`
    : `<span class="tag">${esc(r.status === "open" ? "waiting for players" : "waiting for the others")}</span>`;
  const left = r.your_turn && r.turn_left !== null && r.pace !== "live" ? ` · ${esc(timeLeft(r.turn_left))} left to move` : "";
  return `<li class="my-race${r.your_turn ? " my-turn" : ""}" data-match="${esc(r.id)}"><a href="/m/${esc(encodeURIComponent(r.id))}"><b>${esc(r.game_name)}</b></a>${titled} ${tag}
    <div class="muted">${esc(r.pace_words)}${left}</div></li>`;
}

async function refreshMine() {
  try {
    const rows = await api("POST", "/api/races/mine", { seats: seatTokens() });
    document.getElementById("mine-card").hidden = !rows.length;
    document.getElementById("mine").innerHTML = rows.map(mineHtml).join("");
    const now = new Set(rows.filter((r) => r.your_turn).map((r) => r.id));
    document.title = `${now.size ? "(Your turn) " : ""}Slipstream · lobby`;
    if (myTurns) {
      for (const r of rows) if (r.your_turn && !myTurns.has(r.id)) notifyTurn(`${r.game_name}: it is your turn`, r.id, `/m/${encodeURIComponent(r.id)}`);
    }
    myTurns = now;
  } catch (e) {
    toast(`${e.code || "error"}: ${e.message}`);
  }
}

// Logged in: the seats this browser joins take the account's name (the server uses it anyway).
function showAccount(name) {
  const input = document.getElementById("my-name");
  if (!input) return;
  input.readOnly = Boolean(name);
  input.value = name || remembered().name || "";
}

async function main() {
  accountBar(showAccount).then(showAccount);
  catalog = await api("GET", "/api/games");
  const sel = document.getElementById("game-select");
  if (!sel) return; // the page was replaced meanwhile (the first catalog takes a moment to build)
  const last = remembered();
  if (last.name && !document.getElementById("my-name").readOnly) document.getElementById("my-name").value = last.name;
  if (last.mode && document.querySelector(`input[name='mode'][value='${last.mode}']`)) {
    document.querySelector(`input[name='mode'][value='${last.mode}']`).checked = true;
  }
  if (!catalog.length) {
    sel.innerHTML = "<option>no games registered</option>";
    document.getElementById("create-btn").disabled = true;
  } else {
    sel.innerHTML = catalog.map((g) => `<option value="${esc(g.id)}">${esc(g.name)} (${g.min_players} to ${g.max_players} players)</option>`).join("");
    if (catalog.some((g) => g.id === last.game)) sel.value = last.game;
    renderOptions(true);
  }
  sel.addEventListener("change", () => {
    document.getElementById("seats").innerHTML = "";
    renderOptions(true);
    remember({ game: sel.value });
  });
  document.getElementById("my-name").addEventListener("change", (e) => { if (!e.target.readOnly) remember({ name: e.target.value.trim() }); });
  document.getElementById("players").addEventListener("change", () => { renderSeats(); renderPerSeat(); });
  for (const radio of document.querySelectorAll("input[name='mode']")) radio.addEventListener("change", () => renderSeats(false));
  document.getElementById("seats").addEventListener("change", (e) => { if (e.target.matches(".seat-kind")) renderSeats(); });
  document.getElementById("options").addEventListener("change", (e) => {
    if (e.target.dataset.picker === "bool") renderPerSeat(); // e.g. two racers each: two pickers a seat
    showPickTexts();
  });
  document.getElementById("create-form").addEventListener("submit", createRace);
  for (const b of document.querySelectorAll("#list-tabs button")) {
    b.addEventListener("click", () => {
      listStatus = b.dataset.status;
      document.querySelectorAll("#list-tabs button").forEach((x) => x.classList.toggle("active", x === b));
      refreshList();
    });
  }
  const pace = document.getElementById("pace");
  pace.addEventListener("change", () => { document.getElementById("turn-seconds-row").hidden = pace.value !== "live"; });
  offerNotifications(document.getElementById("notify-btn"));
  refreshList();
  refreshMine();
  setInterval(refreshList, 5000);
  setInterval(refreshMine, 5000);
}

main();
