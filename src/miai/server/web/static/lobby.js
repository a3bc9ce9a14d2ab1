// The lobby: play the computer at once, invite a friend (a link with the other seat's token),
// open a game to anyone, join an open game, watch a live one, review a record.

import { _, colorName, formatNumber, playerName, rulesName } from "./i18n.js";
import { api, keepSeat, seatToken } from "./api.js";
import { el } from "./dom.js";
import { describeControl } from "./clock.js";

const TIMES = [
  ["none", () => _("No clock")],
  ["byoyomi:300:30:3", () => "5:00 + 3×30 s"],
  ["byoyomi:600:30:5", () => "10:00 + 5×30 s"],
  ["fischer:300:5", () => _("5:00, +5 s a move")],
  ["canadian:600:300:25", () => _("10:00 + 25 stones in 5:00")],
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

function settings(form) {
  const data = new FormData(form);
  const rules = data.get("rules");
  const komi = data.get("komi");
  return {
    size: Number(data.get("size")),
    rules: komi ? `${rules} komi=${komi}` : rules,
    handicap: Number(data.get("handicap")),
    time: data.get("time"),
  };
}

// A listed game in words: its board, players (a computer seat as "miai level N"), rules, komi,
// handicap and clock.
function describeGame(g) {
  const who = (color) => playerName(g.players[color], g[color]) || (g.open && color === "white" ? "…" : "?");
  const parts = [`${g.size}×${g.size}`, `${who("black")} – ${who("white")}`, rulesName(g.rules.split(" ")[0]),
    _("komi {komi}", { komi: formatNumber(g.komi) })];
  if (g.handicap) parts.push(_("handicap {n}", { n: formatNumber(g.handicap) }));
  parts.push(describeControl(g.time, g.time_describe));
  return parts.join(" · ");
}

async function fillList(list, status, empty) {
  let games = [];
  try {
    games = (await api("GET", `/api/games?status=${status}&limit=20`)).games;
  } catch (e) {
    list.replaceChildren(el("li", { class: "error" }, e.message));
    return;
  }
  list.replaceChildren();
  if (!games.length) list.append(el("li", { class: "muted" }, empty));
  for (const g of games) {
    const mine = seatToken(g.id);
    const item = el("li", {}, el("span", {}, describeGame(g)));
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
    list.append(item);
  }
}

// The lobby drawn in `main`; its lists are read again every 10 s until destroy().
export function showLobby(main) {
  const form = el("form", { class: "settings", onsubmit: (e) => e.preventDefault() });
  const levels = Array.from({ length: 10 }, (_x, i) => [i + 1, String(i + 1)]);
  const handicaps = Array.from({ length: 10 }, (_x, i) => [i, i === 0 ? _("none") : String(i)]);
  form.append(
    select("size", _("Board"), [[9, "9×9"], [13, "13×13"], [19, "19×19"]], 9),
    select("rules", _("Rules"), RULES, "japanese"),
    select("handicap", _("Handicap"), handicaps, 0),
    select("time", _("Clock"), TIMES, "none"),
  );
  const result = el("div", { class: "invite", "aria-live": "polite" });

  async function create(extra) {
    result.replaceChildren();
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
      const game = await create({ black: "human", white: "human" });
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
      const game = await create({ black: "human", white: "human", open: true });
      if (!game) return;
      keepSeat(game.id, game.black_token);
      location.href = game.url;
    },
  }, _("Open a game to anyone"));

  const openList = el("ul", { class: "games", id: "open-games" });
  const liveList = el("ul", { class: "games", id: "live-games" });
  main.append(
    el("section", { class: "panel" },
      el("h1", {}, _("Play Go")),
      form,
      el("div", { class: "row" }, el("div", { class: "settings" }, level, colour), playComputer),
      el("div", { class: "row" }, invite, openGame),
      result,
    ),
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
  return { destroy: () => clearInterval(timer) };
}
