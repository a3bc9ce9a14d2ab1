// "Your turn": the count of the signed-in player's games waiting for their move, as a badge in
// the header and in the tab's title, read again every 30 s; and, once the player has switched
// them on, the browser's notifications (the Notifications API) when a game starts waiting for them.

import { _, ngettext } from "./i18n.js";
import { api } from "./api.js";
import { el } from "./dom.js";

const POLL_MS = 30000;
const NOTIFY_KEY = "miai.notify";
let timer = null;
let known = null; // ids of the games that waited for the player at the last reading

// The games under way that wait for the player's move, from GET /api/me/games.
export async function gamesToPlay() {
  const answer = await api("GET", "/api/me/games?status=ongoing&limit=100");
  return (answer.games || []).filter((g) => g.your_turn);
}

function notificationsOn() {
  return "Notification" in window && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
}

function show(badge, games) {
  const n = games.length;
  badge.hidden = n === 0;
  badge.textContent = String(n);
  badge.setAttribute("aria-label", ngettext("{n} game waits for your move", "{n} games wait for your move", n));
  document.title = document.title.replace(/^\(\d+\) /, "");
  if (n) document.title = `(${n}) ${document.title}`;
  const ids = new Set(games.map((g) => g.id));
  if (known && notificationsOn()) {
    for (const g of games) {
      if (known.has(g.id)) continue;
      const note = new Notification(_("Your turn"), { body: _("A game waits for your move."), tag: `miai-${g.id}` });
      note.onclick = () => { window.focus(); location.href = `/g/${g.id}`; };
    }
  }
  known = ids;
}

// Keep `badge` (the header's) showing the count; one watcher for the page's whole life.
export function watchTurns(badge) {
  clearInterval(timer);
  const read = async () => {
    try {
      show(badge, await gamesToPlay());
    } catch {
      // signed out, or the server away: the badge keeps its last count
    }
  };
  read();
  timer = setInterval(read, POLL_MS);
}

export function stopWatchingTurns() {
  clearInterval(timer);
  timer = null;
  known = null;
}

// The switch for the browser's notifications, on "My games": asks the browser's permission
// when the player clicks it (browsers ask only after a click), or says why there are none.
export function notificationsControl() {
  const box = el("p", { class: "notify", id: "notify" });
  const draw = () => {
    box.replaceChildren();
    if (!("Notification" in window)) {
      box.append(el("span", { class: "muted" }, _("This browser has no notifications: the count beside “My games” shows the games waiting for you.")));
    } else if (Notification.permission === "denied") {
      box.append(el("span", { class: "muted" }, _("Notifications are blocked in this browser: the count beside “My games” shows the games waiting for you.")));
    } else if (notificationsOn()) {
      box.append(_("You are told when a game waits for your move."), " ",
        el("button", { type: "button", onclick: () => { localStorage.setItem(NOTIFY_KEY, "0"); draw(); } }, _("Stop notifications")));
    } else {
      box.append(el("button", {
        type: "button",
        id: "notify-on",
        onclick: async () => {
          const answer = await Notification.requestPermission();
          if (answer === "granted") localStorage.setItem(NOTIFY_KEY, "1");
          draw();
        },
      }, _("Tell me when it is my turn")));
    }
  };
  draw();
  return box;
}
