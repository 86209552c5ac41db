// A game's leaderboard (/leaderboard/GAME): its rated players, best first, each rating with its uncertainty.
import { api, esc, toast } from "/static/common.js";
import { accountBar } from "/static/account.js";

async function show(gameId) {
  const board = document.getElementById("board");
  try {
    const data = await api("GET", `/api/leaderboard/${encodeURIComponent(gameId)}`);
    document.getElementById("board-title").textContent = `Leaderboard · ${data.game_name}`;
    document.title = `Slipstream · ${data.game_name} leaderboard`;
    board.innerHTML = data.rows.length
      ? `<table class="results-table"><thead><tr><th>Place</th><th>Player</th><th>Rating</th><th>Lowest likely</th><th>Rated races</th></tr></thead><tbody>
        ${data.rows.map((r) => `<tr class="board-row"><td class="num">${esc(r.place)}</td>
          <td><a href="/players/${esc(encodeURIComponent(r.name))}">${esc(r.name)}</a></td>
          <td class="num">${esc(r.mu.toFixed(1))} ± ${esc(r.spread.toFixed(1))}</td><td class="num">${esc(r.low.toFixed(1))}</td>
          <td class="num">${esc(r.matches)}</td></tr>`).join("")}</tbody></table>`
      : `<p class="muted">No rated races of this game yet.</p>`;
  } catch (e) {
    board.innerHTML = `<p class="muted">${esc(e.message)}</p>`;
  }
}

async function main() {
  accountBar();
  let catalog = [];
  try {
    catalog = (await api("GET", "/api/games")).filter((g) => !g.cooperative);
  } catch (e) {
    toast(e.message || String(e));
  }
  const wanted = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const gameId = wanted || catalog[0]?.id || ""; // a cooperative or unknown game: the server says why there is no board
  document.getElementById("board-games").innerHTML = catalog.map((g) =>
    `<a class="board-tab${g.id === gameId ? " active" : ""}" href="/leaderboard/${esc(encodeURIComponent(g.id))}">${esc(g.name)}</a>`).join("");
  if (gameId) show(gameId);
}

main();
