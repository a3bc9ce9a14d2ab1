// The lobby: play the computer at once, invite a friend (a link with the other seat's token),
// open a game to anyone, join an open game, watch a live one, review a record.

import { _, colorName, ngettext, rulesName } from "./i18n.js";
import { api, keepSeat, seatToken } from "./api.js";
import { el, redraw } from "./dom.js";
import { formatNumber, seatName, termsText } from "./gameterms.js";
import { describeControl } from "./clock.js";
import { automatchPanel, ratedSwitch } from "./automatch.js";
import { CORRESPONDENCE } from "./timesystems.js";

const TIMES = [
  ["none", () => _("No clock")],
  ["byoyomi:300:30:3", () => "5:00 + 3×30 s"],
  ["byoyomi:600:30:5", () => "10:00 + 5×30 s"],
  ["fischer:300:5", () => _("5:00, +5 s a move")],
  ["canadian:600:300:25", () => _("10:00 + 25 stones in 5:00")],
  ...CORRESPONDENCE, // days per move: automatch.js, timesystems.js
];
const RULES = ["japanese", "chinese", "korean", "aga", "new-zealand"].map((preset) => [preset, () => rulesName(preset)]);
const REFRESH_MS = 10000; // how often the lists of games are read again

function select(name, label, options, chosen) {
  const s = el("select", { name, id: `f-${name}` });
  for (const [value, text] of options) {
    s.append(el("option", { value, selected: String(value) === String(chosen) }, typeof text === "function" ? text() : text));
  }
  return el("label", { for: `f-${name}` }, el("span", {}, label), s);
}

// The usual komi of each preset (src/miai/rules.py's table) and with a handicap (docs/RULES.md §6).
const USUAL_KOMI = { japanese: 6.5, chinese: 7.5, korean: 6.5, aga: 7.5, "new-zealand": 7 };
const HANDICAP_KOMI = 0.5;
const MAX_KOMI = 1000; // miai.rules.MAX_KOMI: the server refuses more, either way

// White's points for the handicap stones under each preset (docs/RULES.md §6 and §8).
const HANDICAP_POINTS = {
  chinese: () => _("Chinese rules give White one point per handicap stone."),
  aga: () => _("AGA rules give White one point per handicap stone but the first (N−1)."),
};

function usualKomi(rules, handicap) {
  return handicap > 0 ? HANDICAP_KOMI : USUAL_KOMI[rules];
}

// What a handicap means under the chosen rules, said where the handicap is chosen.
function handicapNote(rules, handicap) {
  if (!handicap) return _("No handicap: Black plays first.");
  const points = HANDICAP_POINTS[rules] ? HANDICAP_POINTS[rules]() : _("These rules give White no points for the handicap stones.");
  return ngettext(
    "Black starts with {n} stone on the star points, then White plays first. {points} The komi is usually 0.5 with a handicap.",
    "Black starts with {n} stones on the star points, then White plays first. {points} The komi is usually 0.5 with a handicap.",
    handicap, { points },
  );
}

// A komi as typed ("6,5" or "6.5"), or NaN.
function readKomi(text) {
  const t = String(text).trim().replace(",", ".").replace("−", "-");
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}

function settings(form) {
  const data = new FormData(form);
  const komi = readKomi(data.get("komi"));
  return {
    size: Number(data.get("size")),
    rules: data.get("rules"),
    komi,
    handicap: Number(data.get("handicap")),
    time: data.get("time"),
  };
}

// The komi field: the rules' usual komi (0.5 with a handicap) until the player types another.
function komiField(form) {
  const input = el("input", { type: "text", name: "komi", id: "f-komi", class: "komi", inputmode: "decimal", required: true, autocomplete: "off" });
  const note = el("p", { class: "muted handicap-note", id: "handicap-note", "aria-live": "polite" });
  let typed = false;
  input.addEventListener("input", () => {
    typed = true;
    const komi = readKomi(input.value);
    input.setCustomValidity(Math.abs(komi) <= MAX_KOMI ? "" : _("The komi is a number from {low} to {high}, such as {example}.", { low: formatNumber(-MAX_KOMI), high: formatNumber(MAX_KOMI), example: formatNumber(6.5) }));
  });
  const follow = () => {
    const rules = form.elements.rules.value;
    const handicap = Number(form.elements.handicap.value);
    if (!typed) input.value = formatNumber(usualKomi(rules, handicap));
    note.textContent = handicapNote(rules, handicap);
  };
  return { label: el("label", { for: "f-komi" }, el("span", {}, _("Komi")), input), note, follow };
}

// A listed game in words: its size, its players, its terms and its clock.
function describeGame(g) {
  const ranked = (name, rank) => (name && rank ? `${name} [${rank}]` : name); // the rank of a signed-in player
  const who = [
    seatName(g.black, ranked(g.players.black, g.ranks?.black), _("no name")),
    seatName(g.white, ranked(g.players.white, g.ranks?.white), g.open ? _("waiting for a player") : _("no name")),
  ];
  const rated = g.rated ? _("rated") : null;
  return [`${g.size}×${g.size}`, `${who[0]} – ${who[1]}`, termsText(g), describeControl(g.time, g.time_describe), rated]
    .filter(Boolean).join(" · ");
}

async function fillList(list, status, empty) {
  let games = [];
  try {
    games = (await api("GET", `/api/games?status=${status}&limit=20`)).games;
  } catch (e) {
    list.replaceChildren(el("li", { class: "error" }, e.message));
    return;
  }
  const items = games.map((g) => gameItem(g, status));
  if (!games.length) items.push(el("li", { class: "muted" }, empty));
  redraw(list, items); // a game still listed keeps its row: a click on Join in progress goes on
}

// One game of the lobby's list `status`, with its Join, Your game or Watch.
function gameItem(g, status) {
  const mine = seatToken(g.id);
  const item = el("li", { "data-game": g.id }, el("span", {}, describeGame(g)));
  if (status === "open" && !mine) {
    item.append(
      el("button", {
        type: "button",
        onclick: async (e) => {
          e.target.disabled = true;
          try {
            const joined = await api("POST", `/api/games/${g.id}/join`, { body: {} });
            keepSeat(g.id, joined.white_token);
            location.href = joined.url;
          } catch (err) {
            e.target.replaceWith(el("span", { class: "error" }, _("Someone joined first.")));
          }
        },
      }, _("Join"))
    );
  } else if (mine) {
    item.append(el("a", { href: `/g/${g.id}`, class: "button" }, _("Your game")));
  } else {
    item.append(el("a", { href: `/g/${g.id}`, class: "button" }, _("Watch")));
  }
  return item;
}

// The lobby drawn in `main`; its lists are read again every 10 s until destroy().
export function showLobby(main) {
  const form = el("form", { class: "settings", onsubmit: (e) => e.preventDefault() });
  const levels = Array.from({ length: 10 }, (_x, i) => [i + 1, String(i + 1)]);
  const handicaps = [[0, _("none")], ...Array.from({ length: 8 }, (_x, i) => [i + 2, String(i + 2)])]; // 2 to 9 stones (docs/RULES.md §7)
  const komi = komiField(form);
  form.append(
    select("size", _("Board"), [[9, "9×9"], [13, "13×13"], [19, "19×19"]], 9),
    select("rules", _("Rules"), RULES, "japanese"),
    select("handicap", _("Handicap"), handicaps, 0),
    komi.label,
    select("time", _("Clock"), TIMES, "none"),
    ...[ratedSwitch()].filter(Boolean), // signed in: a game against a person may be rated (a guest gets none, not "null")
    komi.note,
  );
  const rated = () => Boolean(form.querySelector("#f-rated")?.checked);
  form.addEventListener("change", komi.follow);
  komi.follow();
  const result = el("div", { class: "invite", "aria-live": "polite" });

  async function create(extra) {
    result.replaceChildren();
    if (!form.reportValidity()) return null;
    const terms = settings(form);
    if (extra.rated && (terms.handicap > 0 || terms.komi !== USUAL_KOMI[terms.rules])) {
      // the server refuses it too (a rating counts both sides' chances as equal): said here in the page's words
      const komi = formatNumber(USUAL_KOMI[terms.rules]);
      result.append(el("p", { class: "error", id: "rated-terms" }, _("A rated game is even: no handicap, and the usual komi of its rules ({komi}).", { komi })));
      return null;
    }
    try {
      return await api("POST", "/api/games", { body: { ...settings(form), ...extra } });
    } catch (e) {
      result.append(el("p", { class: "error" }, e.message));
      return null;
    }
  }

  const level = select("level", _("Computer level"), levels, 1);
  const colour = select("color", _("You play"), [["black", () => colorName("black")], ["white", () => colorName("white")]], "black");
  const playComputer = el("button", {
    type: "button",
    class: "primary",
    onclick: async () => {
      const lv = document.getElementById("f-level").value;
      const me = document.getElementById("f-color").value;
      const other = me === "black" ? "white" : "black";
      const game = await create({ [me]: "human", [other]: `computer:${lv}` });
      if (!game) return;
      keepSeat(game.id, game[`${me}_token`]);
      location.href = game.url;
    },
  }, _("Play the computer"));

  const invite = el("button", {
    type: "button",
    onclick: async () => {
      const game = await create({ black: "human", white: "human", rated: rated() });
      if (!game) return;
      keepSeat(game.id, game.black_token);
      const link = `${location.origin}/g/${game.id}?seat=${encodeURIComponent(game.white_token)}`;
      const field = el("input", { type: "text", readonly: true, value: link, "aria-label": _("Invitation link"), id: "invite-link" });
      result.append(
        el("p", {}, _("Send this link to your friend: it gives them the White seat. You play Black.")),
        field,
        el("button", { type: "button", onclick: () => { field.select(); navigator.clipboard?.writeText(link); } }, _("Copy")),
        el("a", { href: game.url, class: "button primary", id: "go-to-game" }, _("Go to the game")),
      );
    },
  }, _("Invite a friend"));

  const openGame = el("button", {
    type: "button",
    onclick: async () => {
      const game = await create({ black: "human", white: "human", open: true, rated: rated() });
      if (!game) return;
      keepSeat(game.id, game.black_token);
      location.href = game.url;
    },
  }, _("Open a game to anyone"));

  const openList = el("ul", { class: "games", id: "open-games" });
  const liveList = el("ul", { class: "games", id: "live-games" });
  const automatch = automatchPanel();
  main.append(
    el("section", { class: "panel" },
      el("h1", {}, _("Play Go")),
      el("p", {}, el("a", { href: "/learn", class: "button", id: "learn-link" }, _("New to Go? Learn to play"))),
      form,
      el("div", { class: "row" }, el("div", { class: "settings" }, level, colour), playComputer),
      el("div", { class: "row" }, invite, openGame),
      result,
    ),
    automatch.root,
    el("section", { class: "panel" }, el("h2", {}, _("Open games")), openList),
    el("section", { class: "panel" }, el("h2", {}, _("Live games")), liveList),
    el("section", { class: "panel" }, el("h2", {}, _("Review")), el("a", { href: "/review", class: "button" }, _("Review an SGF file"))),
  );
  const refresh = () => {
    fillList(openList, "open", _("No open game. Open one!"));
    fillList(liveList, "live", _("No game is being played now."));
  };
  refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  return { destroy: () => { clearInterval(timer); automatch.destroy(); } };
}
