// "My games" (/me): the signed-in player's games under way (those waiting for their move first,
// with the time left) and their finished ones (result, SGF, review), newest first, a page at a
// time; and the "your turn" notices (turns.js) switched on here.

import { _ } from "./i18n.js";
import { api } from "./api.js";
import { el, redraw } from "./dom.js";
import { me, signedIn, whoAmI } from "./account.js";
import { finished, gameRow } from "./gamelist.js";
import { notificationsControl } from "./turns.js";

const PAGE = 20;

export function showMyGames(main) {
  document.title = `miai · ${_("My games")}`;
  let destroyed = false;
  const waiting = el("ul", { class: "games", id: "my-turn-games" });
  const ongoing = el("ul", { class: "games", id: "ongoing-games" });
  const done = el("ul", { class: "games", id: "finished-games" });
  const pager = el("div", { class: "row pager" });
  const error = el("p", { class: "message", role: "alert" });
  const cursors = [null]; // the `before` of each page shown, the first page's null

  async function load() {
    await whoAmI();
    if (destroyed) return;
    if (!signedIn()) {
      main.replaceChildren(el("section", { class: "panel" },
        el("h1", {}, _("My games")),
        el("p", {}, _("Sign in to see your games from any browser.")),
        el("a", { href: "/signin?next=%2Fme", class: "button primary" }, _("Sign in"))));
      return;
    }
    let answer;
    try {
      const before = cursors[cursors.length - 1];
      answer = await api("GET", `/api/me/games?limit=${PAGE}${before ? `&before=${encodeURIComponent(before)}` : ""}`);
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    if (destroyed) return;
    const games = answer.games || [];
    const mineToMove = (g) => !finished(g) && Boolean(g.your_turn);
    fill(waiting, games.filter((g) => mineToMove(g)), _("No game is waiting for your move."));
    fill(ongoing, games.filter((g) => !finished(g) && !mineToMove(g)), _("No other game under way."));
    fill(done, games.filter(finished), _("No finished game yet."));
    const newer = el("button", { type: "button", hidden: cursors.length < 2, onclick: () => { cursors.pop(); load(); } }, _("Newer games"));
    const older = el("button", { type: "button", hidden: !answer.next, "data-before": answer.next || "",
      onclick: (e) => { cursors.push(e.currentTarget.dataset.before); load(); } }, _("Older games"));
    redraw(pager, [newer, older]); // the cursor in the markup: a button kept is the one drawn
  }

  function fill(list, games, empty) {
    const rows = games.map((g) => gameRow(g, me.name, { mine: true }));
    redraw(list, rows.length ? rows : [el("li", { class: "muted" }, empty)]); // unchanged rows stay, and a click on them
  }

  main.append(
    el("section", { class: "panel" }, el("h1", {}, _("My games")), notificationsControl(), error,
      el("h2", {}, _("Waiting for your move")), waiting),
    el("section", { class: "panel" }, el("h2", {}, _("Under way")), ongoing),
    el("section", { class: "panel" }, el("h2", {}, _("Finished")), done, pager),
  );
  load();
  const timer = setInterval(() => { if (cursors.length === 1) load(); }, 30000);
  return { destroy: () => { destroyed = true; clearInterval(timer); } };
}
