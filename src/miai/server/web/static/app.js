// The application: the top bar (home, who you are, the language), then the page the path names:
// "/" the lobby, "/g/ID" a game, "/r/ID" a game's review, "/review" the upload of a record,
// "/review/ID" an uploaded record's review, and the players' pages of accountpages.js ("/signin",
// "/signup", "/me", "/p/NAME").
// Each page is an object with destroy(): before another is drawn (a language change draws the
// page again) the one shown closes its socket, stops its timers and removes its listeners.

import { _, LANGUAGES, chooseLanguage, lang, loadLanguage } from "./i18n.js";
import { el } from "./dom.js";
import { accountBar, accountLanguage, rememberLanguage, whoAmI } from "./account.js";
import { accountPageFor } from "./accountpages.js";

// The text pages.py's shell shows to a browser without scripts, in the request's language: said
// here so that the web catalogue holds it (the page itself never shows it).
export const noScriptText = () => _("miai needs JavaScript to play in the browser; programs can use its JSON API (docs/SERVER.md).");

let shown = null; // the page drawn now
let drawing = 0; // counts the calls of start: a later one wins over one still loading

async function topBar() {
  const top = document.getElementById("top");
  top.replaceChildren();
  const select = el("select", { "aria-label": _("Language"), id: "language" });
  for (const [code, name] of Object.entries(LANGUAGES)) {
    select.append(el("option", { value: code, selected: code === lang }, name));
  }
  select.addEventListener("change", async () => {
    await loadLanguage(select.value, true);
    await rememberLanguage(select.value);
    await start();
  });
  await whoAmI();
  top.append(el("a", { href: "/", class: "brand" }, "miai"), accountBar(start), select);
}

// The page the path names, drawn in `main`: a function of `main` that draws it and returns it.
async function pageFor(path) {
  let m;
  if ((m = path.match(/^\/g\/([A-Za-z0-9_-]+)$/))) {
    const { showGame } = await import("./game.js");
    return (main) => showGame(main, m[1]);
  }
  if ((m = path.match(/^\/r\/([A-Za-z0-9_-]+)$/))) {
    const { showReview } = await import("./review.js");
    return (main) => showReview(main, { game: m[1] });
  }
  const account = await accountPageFor(path, loadLanguage);
  if (account) return account;
  if (path === "/learn") {
    const { showLearn } = await import("./learn.js");
    return (main) => showLearn(main);
  }
  if ((m = path.match(/^\/review(?:\/([A-Za-z0-9_-]+))?$/))) {
    const { showReview } = await import("./review.js");
    return (main) => showReview(main, m[1] ? { upload: m[1] } : {});
  }
  const { showLobby } = await import("./lobby.js");
  return (main) => {
    document.title = "miai · " + _("Play Go");
    return showLobby(main);
  };
}

async function start() {
  const mine = ++drawing;
  if (shown) shown.destroy();
  shown = null;
  await topBar();
  if (mine !== drawing) return; // a later start draws the page
  const main = document.getElementById("app");
  main.replaceChildren();
  const show = await pageFor(location.pathname);
  if (mine !== drawing) return;
  shown = show(main);
}

await whoAmI();
await loadLanguage(accountLanguage() || chooseLanguage());
await start();
