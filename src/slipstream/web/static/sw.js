// The service worker of turn notifications (issue 28): a phone's browser shows a notification only
// through one (common.js's notifyTurn asks it to), and a click on one opens the race's page. It does
// nothing else: no fetch handler and no cache, as the game is online only (every page and move comes
// from the server). Its scope is /static/, which holds no page: it never stands between a page and
// the server.

self.addEventListener("install", () => self.skipWaiting());

// A click on a turn's notification: the race's page comes to the front if a tab shows it, else a new
// tab opens it. The address comes from the page that asked for the notification (data.url); only one
// of this site is opened.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const tab = tabs.find((client) => new URL(client.url).pathname === url.pathname);
    if (tab) return tab.focus();
    return self.clients.openWindow(url.href);
  })());
});
