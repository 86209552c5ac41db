// The table chat of the match page: lines from the server ("chat" messages, kept by id so a hot-seat
// page's several sockets show each line once), a box to say something through the shown seat's socket
// (a spectator speaks as a spectator), the host's "mute" on a spectator's line, and the replay's lines.
// Every text goes in as text (textContent), never as markup.
import { api, seatColour, toast } from "/static/common.js";

const lines = new Map(); // line id -> line
const muted = new Set(); // spectators this page's host muted
let replayLines = null; // the lines the replay shows (up to its move), else null: the live chat

// A spectator's key, kept by this browser, so the server knows it again (its id, and the host's mute).
export function viewerKey() {
  let key = localStorage.getItem("slipstream:viewer");
  if (!key) {
    key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("slipstream:viewer", key);
  }
  return key;
}

export function onChat(msg) {
  for (const line of msg.lines) lines.set(line.id, line);
  draw();
}

export function showReplayChat(replayed) {
  replayLines = replayed || [];
  draw();
}

// The chat box: sending goes through send(text), which returns whether it went.
export function wireChat({ send, hostToken, matchId }) {
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  form.onsubmit = (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send(text)) input.value = "";
    else toast("Not connected: the message was not sent");
  };
  document.getElementById("chat-log").addEventListener("click", async (e) => {
    const button = e.target.closest("button.mute");
    if (!button || !hostToken()) return;
    const viewer = button.dataset.viewer;
    try {
      await api("POST", `/api/matches/${encodeURIComponent(matchId)}/chat/mute`, { viewer, muted: true }, hostToken());
      muted.add(viewer);
      toast(`Spectator ${viewer} is muted in this race's chat`, "info");
      draw();
    } catch (err) { toast(err.message); }
  });
  wired.hostToken = hostToken;
}

const wired = { hostToken: () => null };

function draw() {
  const box = document.getElementById("chat-log");
  if (!box) return;
  const shown = replayLines ?? [...lines.values()].sort((a, b) => a.id - b.id);
  box.replaceChildren(...shown.map(lineItem));
  const card = document.getElementById("chat-card");
  card.classList.toggle("empty", !shown.length);
  box.scrollTop = box.scrollHeight;
}

function lineItem(line) {
  const li = document.createElement("li");
  li.dataset.id = line.id;
  if (line.kind === "note") {
    li.className = "note";
    li.textContent = line.text;
    return li;
  }
  const who = document.createElement("b");
  who.textContent = line.name;
  if (line.seat !== null) who.style.color = seatColour(line.seat);
  else li.className = "spectator";
  const text = document.createElement("span");
  text.className = "chat-text";
  text.textContent = line.text;
  li.append(who, ": ", text);
  if (line.viewer && wired.hostToken() && replayLines === null) {
    const button = document.createElement("button");
    button.className = "mute";
    button.dataset.viewer = line.viewer;
    button.textContent = muted.has(line.viewer) ? "muted" : "mute";
    button.disabled = muted.has(line.viewer);
    button.title = "the host may mute a spectator: their messages are refused from now on";
    li.append(" ", button);
  }
  return li;
}
