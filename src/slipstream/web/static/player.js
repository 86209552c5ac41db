// A player's page (/players/NAME): ratings per game, their races now (their own page only, their turn
// first), finished races with place and date, and team results of cooperative games.
import { api, esc, loadTokens, saveTokens, timeLeft, toast } from "/static/common.js";
import { accountBar } from "/static/account.js";

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"], v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

function ratingText(r) {
  return `${r.mu.toFixed(1)} ± ${r.spread.toFixed(1)}`;
}

function table(head, rows) {
  return `<table class="results-table"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead>
    <tbody>${rows.join("")}</tbody></table>`;
}

function render(p) {
  document.title = `${p.you && p.active.some((m) => m.your_turn) ? "(Your turn) " : ""}Slipstream · ${p.name}`;
  document.getElementById("player-sub").textContent = p.you ? `${p.name} (you)` : p.name;
  const ratings = document.getElementById("ratings");
  ratings.innerHTML = p.ratings.length
    ? table(["Game", "Rating", "Lowest likely", "Rated races"], p.ratings.map((r) => `<tr class="rating-row" data-game="${esc(r.game)}">
        <td><a href="/leaderboard/${esc(encodeURIComponent(r.game))}">${esc(r.game_name)}</a></td>
        <td class="num rating">${esc(ratingText(r))}</td><td class="num">${esc(r.low.toFixed(1))}</td><td class="num">${esc(r.matches)}</td></tr>`))
    : `<p class="muted">No rated races yet.</p>`;
  const activeCard = document.getElementById("active-card");
  activeCard.hidden = !p.you;
  document.getElementById("active").innerHTML = p.active.length
    ? p.active.map((m) => `<li><a href="/m/${esc(encodeURIComponent(m.id))}"><b>${esc(m.game_name)}</b></a>
        ${m.title && m.title !== m.game_name ? `<span class="race-title">“${esc(m.title)}”</span>` : ""}
        ${m.your_turn ? `<span class="tag turn-now">Your turn</span>` : `<span class="tag">${esc(m.status === "open" ? "waiting for players" : "running")}</span>`}
        <div class="muted">Seat ${esc(m.seat + 1)} · ${esc(m.pace_words)}${m.your_turn && m.pace !== "live" && m.turn_left !== null ? ` · ${esc(timeLeft(m.turn_left))} left to move` : ""} · ${esc(when(m.updated_at))}
        ${loadTokens(m.id).seats[m.seat] ? "" : `<button type="button" class="play-here" data-match="${esc(m.id)}" data-seat="${esc(m.seat)}">Play here</button>`}</div></li>`).join("")
    : `<li class="muted">No race open or running.</li>`;
  for (const b of document.querySelectorAll("button.play-here")) b.onclick = () => playHere(b.dataset.match, Number(b.dataset.seat));
  const finished = p.finished;
  document.getElementById("finished").innerHTML = finished.length
    ? table(["Game", "Place", "Rating change", "Date"], finished.map((m) => {
        const game = m.id ? `<a href="/m/${esc(encodeURIComponent(m.id))}">${esc(m.game_name)}</a>` : esc(m.game_name);
        const change = m.change === null ? (m.rated || m.team ? "" : `<span class="muted">not rated</span>`)
          : `<span class="change ${m.change >= 0 ? "up" : "down"}">${m.change >= 0 ? "+" : ""}${esc(m.change.toFixed(2))}</span>`;
        const place = m.team ? (m.won ? "the team won" : "the team lost") : `${ordinal(m.place)} of ${m.players}`;
        return `<tr class="finished-row"><td>${game}</td><td>${esc(place)}</td><td>${change}</td><td>${esc(when(m.at))}</td></tr>`;
      }))
    : `<p class="muted">No finished races yet.</p>`;
  document.getElementById("team-card").hidden = !p.team_results.length;
  document.getElementById("team").innerHTML = table(["Game", "Scenario", "Difficulty", "Won", "Lost"],
    p.team_results.map((t) => `<tr class="team-row"><td>${esc(t.game_name)}</td><td>${esc(t.scenario_name)}</td><td>${esc(t.difficulty_name)}</td>
      <td class="num">${esc(t.won)}</td><td class="num">${esc(t.lost)}</td></tr>`));
}

// This browser has no token for the seat (the race was joined on another device): take the seat here.
async function playHere(matchId, seat) {
  if (!confirm("Play this seat on this device? The other device goes on watching.")) return;
  try {
    const r = await api("POST", `/api/matches/${encodeURIComponent(matchId)}/seats/${seat}/resume`);
    const tokens = loadTokens(matchId);
    tokens.seats[seat] = r.token;
    saveTokens(matchId, tokens);
    location.href = `/m/${encodeURIComponent(matchId)}`;
  } catch (e) {
    toast(e.message || String(e));
  }
}

let missing = false;

async function load() {
  if (missing) return;
  const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  try {
    render(await api("GET", `/api/players/${encodeURIComponent(name)}`));
  } catch (e) {
    missing = e.code === "not_found";
    if (!missing) return toast(e.message || String(e));
    document.querySelector("main").innerHTML = `<section class="card missing"><h2>No such player</h2><p>${esc(e.message)}</p><p><a href="/">Back to the lobby</a></p></section>`;
  }
}

accountBar(load);
load();
setInterval(() => { if (!document.hidden) load(); }, 5000); // a race that ends, a turn that comes
