// Rematch invitations on the match page: a finished race whose rematch was made shows every player a
// banner with one button that takes their seat (held for them for a while), and a spectator a link to
// watch; in the rematch, a seat held for its player says so, with the time left, and offers no Join box.
import { esc, loadTokens } from "/static/common.js";
import { clock } from "/static/presence.js";

// The banner of a finished race (match.rematch: {id, held}); `received` is when that state came. Drawn
// again only when what it offers changes (the countdown alone is its own text), so a click lands.
export function renderRematchBanner(m, playerSeats, received, onJoin) {
  const box = document.getElementById("rematch-banner");
  const next = m.status === "finished" ? m.rematch : null;
  if (!next) { box.hidden = true; box.dataset.mode = ""; return; }
  box.hidden = false;
  const joined = Object.keys(loadTokens(next.id).seats).length > 0;
  const mode = `${next.id}:${joined ? "joined" : playerSeats.length ? "invited" : "watch"}`;
  const link = (words) => `<a class="button" href="/m/${encodeURIComponent(next.id)}">${words}</a>`;
  if (box.dataset.mode !== mode) {
    box.dataset.mode = mode;
    if (joined) box.innerHTML = `<span>The rematch is on.</span> ${link("Go to the rematch")}`;
    else if (playerSeats.length) {
      box.innerHTML = `<span>A rematch was asked for: you are invited.<span id="rematch-held"></span></span> <button id="rematch-join">Join the rematch</button>`;
      document.getElementById("rematch-join").onclick = onJoin;
    } else box.innerHTML = `<span>The players race again.</span> ${link("Watch the rematch")}`;
  }
  const held = document.getElementById("rematch-held");
  if (held) {
    const left = next.held - (Date.now() - received) / 1000;
    held.textContent = left > 0 ? ` Your seat is held for you for ${clock(left)}.` : "";
  }
}

// A seat a rematch holds for its player, as the seat list shows it ("held for Bob · 4:12"), or null.
export function heldText(seat, received) {
  if (!seat.held_for) return null;
  const left = seat.held - (Date.now() - received) / 1000;
  if (left <= 0) return null;
  return `<i>held for ${esc(seat.held_for)}</i> <span class="muted" data-held="${seat.seat}" title="a rematch keeps this seat for its player; then it is open">${clock(left)}</span>`;
}

// The held seats' countdowns in the seat list, each second.
export function tickHeld(m, received) {
  for (const el of document.querySelectorAll("#seat-list [data-held]")) {
    const seat = m.seats[Number(el.dataset.held)];
    if (seat?.held_for) el.textContent = clock(seat.held - (Date.now() - received) / 1000);
  }
}
