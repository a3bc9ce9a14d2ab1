// "Play someone now" (automatch) in the lobby, for signed-in players (a guest is asked to sign
// in): a board size, a time system, rated or not and the ranks the player accepts; the server pairs the first two requests that fit (docs/SERVER.md),
// and while the player waits the page keeps a long poll open (GET /api/automatch?wait=25), so
// that it goes to the game at once.

import { _, ngettext } from "./i18n.js";
import { api, keepSeat } from "./api.js";
import { el } from "./dom.js";
import { signedIn } from "./account.js";
import { CORRESPONDENCE } from "./timesystems.js";

const WAIT_S = 25;
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

// Go to the game the server paired the player into, its seat kept with the player's credential.
function goTo(paired) {
  if (paired.token) keepSeat(paired.game, paired.token);
  location.href = paired.url || `/g/${paired.game}`;
}

// The lobby form's "Rated" switch for a game made to invite a friend or open to anyone: only
// for a signed-in player (the server rates a game between two signed-in players); null for a guest.
export function ratedSwitch() {
  if (!signedIn()) return null;
  const box = el("input", { type: "checkbox", id: "f-rated", name: "rated" });
  return el("label", { for: "f-rated", class: "check" }, el("span", {}, _("Rated")), box);
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

  let asking = false; // a request of this page is waiting
  const waiting = (on) => {
    asking = on;
    start.hidden = on;
    cancel.hidden = !on;
    for (const c of form.elements) c.disabled = on;
    clearInterval(timer);
    timer = null;
    status.textContent = "";
    if (on) {
      started = Date.now();
      const tick = () => {
        status.textContent = _("Looking for an opponent… ({s} s)", { s: Math.floor((Date.now() - started) / 1000) });
      };
      tick();
      timer = setInterval(tick, 1000);
    }
  };
  // Wait for the pairing: one long poll after another while the request waits.
  const poll = async () => {
    while (asking) {
      let answer;
      try {
        answer = await api("GET", `/api/automatch?wait=${WAIT_S}`);
      } catch (e) {
        if (e.status === 404 || e.status === 401) return waiting(false); // no request any more
        await new Promise((r) => setTimeout(r, 1000)); // the server away a moment: ask again
        continue;
      }
      if (answer.status === "paired" && asking) return goTo(answer);
    }
  };
  start.addEventListener("click", async () => {
    error.textContent = "";
    const data = new FormData(form);
    const range = Number(data.get("ranks"));
    const body = { size: Number(data.get("size")), time_control: data.get("time"), rated: rated.checked, rank_range: [-range, range] };
    let answer;
    try {
      answer = await api("POST", "/api/automatch", { body });
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    if (answer.status === "paired") return goTo(answer);
    waiting(true);
    poll();
  });
  cancel.addEventListener("click", async () => {
    waiting(false);
    try {
      const answer = await api("DELETE", "/api/automatch");
      if (answer.status === "paired") goTo(answer); // the pairing came first
    } catch {
      // nothing to cancel any more
    }
  });
  const about = el("p", { class: "muted" }, _("The first player who asks for the same board and clock, within the ranks you accept, plays you."));
  const root = el("section", { class: "panel", id: "automatch" }, el("h2", {}, _("Play someone now")), about);
  if (signedIn()) root.append(form, el("div", { class: "row" }, start, cancel), status, error);
  else root.append(el("a", { href: "/signin?next=%2F", class: "button primary", id: "automatch-sign-in" }, _("Sign in to play someone now")));
  return { root, destroy: () => { asking = false; clearInterval(timer); } };
}
