// The match page's word on accounts: which seats are players' accounts (their names link to their
// pages) and whether the race is rated. Asked once, and again when the seats change.
import { api, esc } from "/static/common.js";

let known = { rated: false, seats: {} };
let askedFor = null; // the seats the last answer was for
let asking = false;

export function seatAccounts(matchId, match, redraw) {
  const seats = match.seats.map((s) => `${s.kind}:${s.name}`).join("|");
  if (seats !== askedFor && !asking) {
    asking = true;
    api("GET", `/api/matches/${encodeURIComponent(matchId)}/accounts`)
      .then((answer) => {
        const changed = JSON.stringify(answer) !== JSON.stringify(known);
        known = answer;
        // drawn again at once only if it shows something new and nobody is typing a name to join
        const typing = [...document.querySelectorAll("input.join-name")].some((el) => el.value || el === document.activeElement);
        if (changed && !typing) redraw();
      })
      .catch(() => {})
      .finally(() => { askedFor = seats; asking = false; });
  }
  return known;
}

// A seat's name as the seat list shows it: a link to the player's page when the seat is an account's.
export function accountName(accounts, seat, html) {
  const name = accounts.seats[String(seat.seat)];
  return name && seat.kind !== "open" ? `<a class="account-link" href="/players/${esc(encodeURIComponent(name))}">${html}</a>` : html;
}
