// The account bar in a page's header (#account): log in, sign up or log out; a guest plays without one.
import { api, esc, toast } from "/static/common.js";

let current = null;

export async function whoAmI() {
  try {
    current = (await api("GET", "/api/session")).name;
  } catch {
    current = null;
  }
  return current;
}

function loggedInHtml(name) {
  const page = `/players/${encodeURIComponent(name)}`;
  return `<span>Logged in as <a href="${esc(page)}" id="my-page"><b>${esc(name)}</b></a></span>
    <a href="/leaderboard/" id="leaderboards">Leaderboards</a>
    <button type="button" id="log-out">Log out</button>`;
}

function loggedOutHtml() {
  return `<form id="login-form" autocomplete="on">
      <input name="username" id="account-name" placeholder="account name" autocomplete="username" maxlength="24" required aria-label="account name">
      <input name="password" id="account-password" type="password" placeholder="password" autocomplete="current-password" maxlength="200" required aria-label="password">
      <button type="submit" id="log-in">Log in</button>
      <button type="button" id="sign-up">Sign up</button>
    </form>
    <a href="/leaderboard/" id="leaderboards">Leaderboards</a>`;
}

// Draw the bar; onChange(name) runs after logging in or out (the page then shows the new state).
export async function accountBar(onChange = () => {}) {
  const box = document.getElementById("account");
  if (!box) return null;
  const name = await whoAmI();
  box.innerHTML = name ? loggedInHtml(name) : loggedOutHtml();
  if (name) {
    document.getElementById("log-out").addEventListener("click", async () => {
      await api("DELETE", "/api/session").catch(() => {});
      await accountBar(onChange);
      onChange(null);
    });
  } else {
    const form = document.getElementById("login-form");
    const send = async (path) => {
      const body = { name: document.getElementById("account-name").value.trim(), password: document.getElementById("account-password").value };
      try {
        await api("POST", path, body);
        await accountBar(onChange);
        onChange(current);
      } catch (e) {
        toast(e.message || String(e));
      }
    };
    form.addEventListener("submit", (ev) => { ev.preventDefault(); send("/api/session"); });
    document.getElementById("sign-up").addEventListener("click", () => {
      if (form.reportValidity()) send("/api/accounts");
    });
  }
  return name;
}
