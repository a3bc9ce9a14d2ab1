// "Play someone now" (automatch) in the lobby, for signed-in players (a guest is asked to sign
// in): a board size, a time system, rated or not and the ranks the player accepts; the server pairs the first two requests that fit (docs/SERVER.md),
// and while the player waits the page asks every second, so that it goes to the game at once.

import { _, ngettext } from "./i18n.js";
import { api, keepSeat } from "./api.js";
import { el } from "./dom.js";
import { signedIn } from "./account.js";
import { CORRESPONDENCE } from "./timesystems.js";

const POLL_MS = 1000;
const TIMES = [
  ["byoyomi:300:30:3", () => "5:00 + 3×30 s"],
  ["byoyomi:600:30:5", () => "10:00 + 5×30 s"],
  ["fischer:300:5", () => _("5:00, +5 s a move")],
  ...CORRESPONDENCE,
];
const RANGES = [
  [1, () => ngettext("within {n} rank of mine", "within {n} ranks of mine", 1)],
  [3, () => ngettext("within {n} rank of mine", "within {n} ranks of mine", 3)],
  [5, () => ngettext("within {n} rank of mine", "within {n} ranks of mine", 5)],
  [9, () => ngettext("within {n} rank of mine", "within {n} ranks of mine", 9)],
  [30, () => _("any rank")],
];

function choice(name, label, options, chosen) {
  const s = el("select", { name, id: `am-${name}` });
  for (const [value, text] of options) s.append(el("option", { value, selected: String(value) === String(chosen) }, text()));
  return el("label", { for: `am-${name}` }, el("span", {}, label), s);
}

// Go to the game the server paired the player into (its seat kept when the answer has a token).
function goTo(game) {
  const token = game.token || game[`${game.seat}_token`];
  if (token) keepSeat(game.id, token);
  location.href = game.url || `/g/${game.id}`;
}

// The lobby's "Play someone now" panel; destroy() stops asking (the request stays until cancelled).
export function automatchPanel() {
  let timer = null;
  let started = 0;
  const form = el("form", { class: "settings", id: "automatch-form", onsubmit: (e) => e.preventDefault() });
  const rated = el("input", { type: "checkbox", id: "am-rated", name: "rated", checked: true });
  form.append(
    choice("size", _("Board"), [[9, () => "9×9"], [13, () => "13×13"], [19, () => "19×19"]], 9),
    choice("time", _("Clock"), TIMES, "byoyomi:300:30:3"),
    choice("ranks", _("Opponent"), RANGES, 3),
    el("label", { for: "am-rated", class: "check" }, el("span", {}, _("Rated")), rated),
  );
  const status = el("p", { class: "status", id: "automatch-status", "aria-live": "polite" });
  const error = el("p", { class: "message", role: "alert" });
  const start = el("button", { type: "button", class: "primary", id: "automatch-start" }, _("Play someone now"));
  const cancel = el("button", { type: "button", id: "automatch-cancel", hidden: true }, _("Cancel"));

  const waiting = (on) => {
    start.hidden = on;
    cancel.hidden = !on;
    for (const c of form.elements) c.disabled = on;
    if (!on) {
      clearInterval(timer);
      timer = null;
      status.textContent = "";
    }
  };
  const tick = async () => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    status.textContent = _("Looking for an opponent… ({s} s)", { s: seconds });
    try {
      const answer = await api("GET", "/api/automatch");
      if (answer.game) goTo(answer.game);
      else if (!answer.waiting && !answer.request) waiting(false);
    } catch {
      // the server away for a moment: ask again at the next tick
    }
  };
  start.addEventListener("click", async () => {
    error.textContent = "";
    const data = new FormData(form);
    const range = Number(data.get("ranks"));
    const body = { size: Number(data.get("size")), time: data.get("time"), rated: rated.checked, rank_low: -range, rank_high: range };
    try {
      const answer = await api("POST", "/api/automatch", { body });
      if (answer.game) return goTo(answer.game);
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    started = Date.now();
    waiting(true);
    tick();
    timer = setInterval(tick, POLL_MS);
  });
  cancel.addEventListener("click", async () => {
    try {
      await api("DELETE", "/api/automatch");
    } catch {
      // nothing to cancel any more
    }
    waiting(false);
  });
  const about = el("p", { class: "muted" }, _("The first player who asks for the same board and clock, within the ranks you accept, plays you."));
  const root = el("section", { class: "panel", id: "automatch" }, el("h2", {}, _("Play someone now")), about);
  if (signedIn()) root.append(form, el("div", { class: "row" }, start, cancel), status, error);
  else root.append(el("a", { href: "/signin?next=%2F", class: "button primary", id: "automatch-sign-in" }, _("Sign in to play someone now")));
  return { root, destroy: () => clearInterval(timer) };
}
