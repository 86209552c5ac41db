// Presence on the match page: an online/away mark by each player's seat with the time away and the
// countdown to claiming, the turn timer as a clock in each player's row, "Spectating" for a spectator
// and the spectator count for players. The server sends "presence" when someone comes or goes; the
// clocks count on between messages (tickPresence, every second).
import { esc, timeLeft } from "/static/common.js";

let presence = null; // the last "presence" message, with the time it came
let claimAt = null; // {at (ms), away: [seats]}: when this page's player may claim the win from whom

const CLOCK_ICON = '<svg class="clock-icon" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="9" r="6" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 5.5V9l2.3 1.6M6 1.5h4" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg>';

export function onPresence(msg) {
  presence = { ...msg, receivedAt: Date.now() };
}

export function noteClaimOffer(claim) {
  claimAt = claim;
}

// Seconds as a clock: "4:07".
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The marks by one seat's row: online/away (with the time away and, for a player who may claim from
// them, the countdown) and the turn clock. Empty for a bot's seat.
export function seatMarks(st, seat, receivedAt) {
  const m = st.match;
  const out = [];
  const here = presence?.seats?.[seat];
  if (here && m.status !== "finished") {
    if (here.here) out.push(`<span class="presence on" title="the race's page is open">● online</span>`);
    else if (here.away !== null) {
      const away = here.away + (Date.now() - presence.receivedAt) / 1000;
      let claim = "";
      if (claimAt && claimAt.away.includes(seat) && m.status === "running") {
        const left = (claimAt.at - Date.now()) / 1000;
        claim = left > 0 ? ` · claim in ${clock(left)}` : " · may be claimed";
      }
      out.push(`<span class="presence off" title="no page of this player is open">○ away ${clock(away)}${claim}</span>`);
    }
  }
  const left = st.turn_left?.[seat];
  if (left !== undefined && m.status === "running") {
    const now = left - (Date.now() - receivedAt) / 1000;
    const low = now <= 10 ? " low" : "";
    const turnBased = m.pace && m.pace !== "live";
    const title = turnBased ? `${esc(m.pace_words)}; out of time, a bot plays the move` : `turn timer: ${m.turn_seconds} s a decision; out of time, a bot plays the move`;
    const shown = turnBased && now >= 3600 ? `${timeLeft(now)} left` : clock(Math.ceil(now));
    out.push(`<span class="seat-clock${low}" title="${title}">${CLOCK_ICON}${esc(shown)}</span>`);
  }
  return out.join(" ");
}

// Fill each seat row's marks (the rows are drawn by the page; only their marks change each second).
export function renderMarks(st, receivedAt) {
  for (const el of document.querySelectorAll("#seat-list [data-marks]")) {
    el.innerHTML = seatMarks(st, Number(el.dataset.marks), receivedAt);
  }
}

// "Spectating" for a page that holds no seat; for players, how many watch.
export function renderAudience(spectating) {
  const box = document.getElementById("audience");
  const watching = presence?.spectators ?? 0;
  if (spectating) {
    box.hidden = false;
    box.className = "audience spectating";
    box.textContent = watching > 1 ? `Spectating · ${watching} watching` : "Spectating";
  } else {
    box.hidden = !watching;
    box.className = "audience";
    box.textContent = `${watching} watching`;
    box.title = `${watching} spectator${watching === 1 ? "" : "s"} follow the race`;
  }
}

// Whether a seat has finished its race while others still run it (the game's view marks it: a
// "finished" list of seats, or a row of the seat with "finished": true), so it no longer resigns.
export function seatFinished(view, seat) {
  if (!view || seat === null) return false;
  if (Array.isArray(view.finished)) return view.finished.includes(seat);
  for (const rows of Object.values(view)) {
    if (!Array.isArray(rows)) continue;
    const row = rows.find((r) => r && typeof r === "object" && r.seat === seat && "finished" in r);
    if (row) return !!row.finished;
  }
  return false;
}

// What claiming does, in words, for the claim button: with only the claimant left racing it is the
// win; with bots still in the race (or a team game) the away players' seats go to bots and the race goes on.
export function claimWords(m, away) {
  const names = away.map((s) => (m.seats[s] && m.seats[s].name) || `P${s + 1}`).join(", ");
  const bots = m.seats.some((s) => s.kind === "bot");
  if (m.cooperative) {
    return { label: `Play on with a bot for ${names}`, explain: `${names} left the race: a bot plays for them and the team plays on` };
  }
  if (bots) {
    return {
      label: `Hand ${names}'s seat to a bot`,
      explain: `${names} left the race: a bot plays for them to the end and they are ranked last; the bots still race, so this is not the win yet`,
    };
  }
  return { label: "Claim the win", explain: `${names} left the race: a bot plays for them to the end and they are ranked last, below you` };
}
