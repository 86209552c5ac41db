// The lobby: create a race (game, options, seats with bots), list open, running and finished races.
import { api, esc, saveTokens, toast } from "/static/common.js";

let catalog = [];
let listStatus = "open";

function currentGame() {
  return catalog.find((g) => g.id === document.getElementById("game-select").value);
}

// "dynamic_weather" -> "Dynamic Weather": an option's name as words.
function words(name) {
  return String(name).split(/[_-]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

// The bot a seat gets by default when playing against bots: the game's own, else the first offered.
function defaultBot(g) {
  return ["heuristic", "greedy"].find((b) => g.bots.includes(b)) || g.bots[0] || "";
}

function mode() {
  return document.querySelector("input[name='mode']:checked").value;
}

function renderOptions(reset) {
  const g = currentGame();
  const box = document.getElementById("options");
  const players = document.getElementById("players");
  players.min = g.min_players;
  players.max = g.max_players;
  const n = Number(players.value);
  if (reset === true || !n || n < g.min_players || n > g.max_players) players.value = g.default_players;
  box.innerHTML = g.options.map((o) => {
    const id = `opt-${o.name}`;
    const help = `<small class="help muted" id="${id}-help">${esc(o.help)}</small>`;
    const described = `aria-describedby="${id}-help"`;
    if (o.choices) {
      const opts = o.choices.map((c) => `<option value="${esc(c)}" ${c === o.default ? "selected" : ""}>${esc(words(c))}</option>`).join("");
      return `<div class="option"><label for="${id}">${esc(words(o.name))}</label> <select id="${id}" ${described} data-opt="${esc(o.name)}" data-kind="${o.kind}">${opts}</select>${help}</div>`;
    }
    if (o.kind === "bool") {
      return `<div class="option"><label class="check"><input type="checkbox" id="${id}" ${described} data-opt="${esc(o.name)}" data-kind="bool" ${o.default ? "checked" : ""}> ${esc(words(o.name))}</label>${help}</div>`;
    }
    const type = o.kind === "int" ? "number" : "text";
    const lim = (o.minimum !== null ? ` min="${o.minimum}"` : "") + (o.maximum !== null ? ` max="${o.maximum}"` : "");
    return `<div class="option"><label for="${id}">${esc(words(o.name))}</label> <input type="${type}"${lim} id="${id}" ${described} data-opt="${esc(o.name)}" data-kind="${o.kind}" value="${esc(o.default ?? "")}">${help}</div>`;
  }).join("");
  renderSeats();
}

// Each seat: a person (me, a friend, or in hot-seat a player at this device) or a bot. The mode sets
// the defaults: against bots every other seat is the game's bot; with friends or hot-seat, people.
function renderSeats(keep = true) {
  const g = currentGame();
  const n = Number(document.getElementById("players").value) || g.default_players;
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

function readOptions() {
  const out = {};
  for (const el of document.querySelectorAll("[data-opt]")) {
    const kind = el.dataset.kind;
    if (kind === "bool") out[el.dataset.opt] = el.checked;
    else if (kind === "int") out[el.dataset.opt] = el.value === "" ? null : Number(el.value);
    else out[el.dataset.opt] = el.value;
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
  const title = document.getElementById("title").value.trim() || (name ? `${name}'s race` : "");
  try {
    const made = await api("POST", "/api/matches", {
      game: g.id, players: Number(document.getElementById("players").value), options: readOptions(),
      title, bots, turn_seconds: Number(document.getElementById("turn-seconds").value) || null,
    });
    const tokens = { host: made.host_token, seats: {} };
    const mine = hotseat ? humans : humans.slice(0, 1);
    for (const seat of mine) {
      const given = seat === 0 ? name : document.querySelector(`.seat-name[data-seat="${seat}"]`)?.value.trim();
      const joined = await api("POST", `/api/matches/${made.id}/seats/${seat}/join`, { name: given || `P${seat + 1}` });
      tokens.seats[seat] = joined.token;
    }
    saveTokens(made.id, tokens);
    if (mine.length === humans.length) await api("POST", `/api/matches/${made.id}/start`, undefined, made.host_token);
    location.href = `/m/${made.id}`;
  } catch (e) {
    toast(e.message || String(e));
  }
}

async function refreshList() {
  try {
    const rows = await api("GET", `/api/matches?status=${listStatus}`);
    const ul = document.getElementById("match-list");
    ul.innerHTML = rows.length ? rows.map((m) => {
      const seats = m.seats.map((s) => s.kind === "open" ? "<i>open</i>" : esc(s.name)).join(", ");
      return `<li><a href="/m/${esc(m.id)}">${esc(m.title)}</a> <span class="tag">${esc(m.game)}</span>
        <span class="muted">${seats} · ${m.ply} moves</span></li>`;
    }).join("") : `<li class="muted">No ${listStatus} races.</li>`;
  } catch (e) {
    toast(`${e.code || "error"}: ${e.message}`);
  }
}

async function main() {
  catalog = await api("GET", "/api/games");
  const sel = document.getElementById("game-select");
  if (!catalog.length) {
    sel.innerHTML = "<option>no games registered</option>";
    document.getElementById("create-btn").disabled = true;
  } else {
    sel.innerHTML = catalog.map((g) => `<option value="${esc(g.id)}">${esc(g.name)} (${g.min_players}-${g.max_players})</option>`).join("");
    renderOptions(true);
  }
  sel.addEventListener("change", () => {
    document.getElementById("seats").innerHTML = "";
    renderOptions(true);
  });
  document.getElementById("players").addEventListener("change", () => renderSeats());
  for (const radio of document.querySelectorAll("input[name='mode']")) radio.addEventListener("change", () => renderSeats(false));
  document.getElementById("seats").addEventListener("change", (e) => { if (e.target.matches(".seat-kind")) renderSeats(); });
  document.getElementById("create-form").addEventListener("submit", createRace);
  for (const b of document.querySelectorAll("#list-tabs button")) {
    b.addEventListener("click", () => {
      listStatus = b.dataset.status;
      document.querySelectorAll("#list-tabs button").forEach((x) => x.classList.toggle("active", x === b));
      refreshList();
    });
  }
  refreshList();
  setInterval(refreshList, 5000);
}

main();
