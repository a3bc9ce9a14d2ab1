// The application: the top bar (home, who you are, the language), then the page the path names:
// "/" the lobby, "/g/ID" a game, "/r/ID" a game's review, "/review" an uploaded record's review.

import { _, LANGUAGES, chooseLanguage, lang, loadLanguage } from "./i18n.js";
import { api } from "./api.js";
import { el } from "./dom.js";

async function topBar() {
  const top = document.getElementById("top");
  top.replaceChildren();
  const select = el("select", { "aria-label": _("Language"), id: "language" });
  for (const [code, name] of Object.entries(LANGUAGES)) {
    select.append(el("option", { value: code, selected: code === lang }, name));
  }
  select.addEventListener("change", async () => {
    await loadLanguage(select.value, true);
    await start();
  });
  const me = el("span", { class: "me" });
  top.append(el("a", { href: "/", class: "brand" }, "miai"), me, select);
  try {
    const who = await api("GET", "/api/me");
    me.textContent = who.name;
  } catch {
    me.textContent = "";
  }
}

async function start() {
  await topBar();
  const main = document.getElementById("app");
  main.replaceChildren();
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/g\/([A-Za-z0-9_-]+)$/))) {
    (await import("./game.js")).showGame(main, m[1]);
  } else if ((m = path.match(/^\/r\/([A-Za-z0-9_-]+)$/))) {
    (await import("./review.js")).showReview(main, m[1]);
  } else if (path === "/review") {
    (await import("./review.js")).showReview(main, null);
  } else {
    document.title = "miai";
    (await import("./lobby.js")).showLobby(main);
  }
}

await loadLanguage(chooseLanguage());
await start();
