// A player's page (/p/NAME): the name, the rating and the rank it stands for, the games played,
// won and lost, the rating's history as a graph (SVG, with its axes) and the recent games.

import { _, lang } from "./i18n.js";
import { api } from "./api.js";
import { el, svg } from "./dom.js";
import { gameRow } from "./gamelist.js";

const RECENT = 10;
const W = 320;
const H = 160;
const PAD = { left: 40, right: 8, top: 8, bottom: 32 };

function number(value, digits = 0) {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
}

const START = 1500; // a new player's rating (docs/SERVER.md §6.1)

// The rating before the first rated game and after each one, oldest first: [{rating, ms}] (the
// start only when the history holds every rated game).
function history(player) {
  const points = (player.history || []).map((h) => ({ rating: Number(h.rating), ms: Number(h.ended ?? 0) }))
    .filter((p) => Number.isFinite(p.rating));
  if (points.length && points.length === player.rated_games) points.unshift({ rating: START, ms: 0 });
  return points;
}

// Round steps for an axis from `low` to `high`: about four ticks.
function ticks(low, high) {
  const span = Math.max(1, high - low);
  const step = [10, 20, 25, 50, 100, 200, 250, 500].find((s) => span / s <= 5) || 1000;
  const out = [];
  for (let t = Math.ceil(low / step) * step; t <= high; t += step) out.push(t);
  return out;
}

// The rating history as a line over the games: x the number of rated games played, y the rating,
// with both axes labelled.
export function ratingGraph(points) {
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph rating-graph", role: "img",
    "aria-label": _("Rating after each rated game") });
  const ratings = points.map((p) => p.rating);
  const low = Math.floor((Math.min(...ratings) - 20) / 10) * 10;
  const high = Math.ceil((Math.max(...ratings) + 20) / 10) * 10;
  const x = (i) => PAD.left + (points.length > 1 ? (i * (W - PAD.left - PAD.right)) / (points.length - 1) : (W - PAD.left - PAD.right) / 2);
  const y = (r) => PAD.top + ((high - r) * (H - PAD.top - PAD.bottom)) / (high - low);
  box.append(svg("rect", { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom, class: "graph-back" }));
  for (const t of ticks(low, high)) {
    box.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t), class: "graph-grid" }));
    const label = svg("text", { x: PAD.left - 4, y: y(t) + 3, class: "graph-label", "text-anchor": "end" });
    label.textContent = number(t);
    box.append(label);
  }
  const last = points.length - 1;
  for (const i of new Set([0, Math.floor(last / 2), last])) {
    const label = svg("text", { x: x(i), y: H - PAD.bottom + 11, class: "graph-label", "text-anchor": "middle" });
    label.textContent = number(i);
    box.append(label);
  }
  const caption = svg("text", { x: (PAD.left + W - PAD.right) / 2, y: H - 3, class: "graph-label", "text-anchor": "middle" });
  caption.textContent = _("rated games played");
  box.append(caption);
  box.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "graph-line" }));
  points.forEach((p, i) => box.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 2.2, class: "graph-dot" })));
  return box;
}

function fact(label, value, id) {
  return [el("dt", {}, label), el("dd", { id }, value)];
}

export function showPlayer(main, name) {
  document.title = `miai · ${name}`;
  let destroyed = false;
  main.append(el("p", { class: "muted" }, _("Loading…")));
  (async () => {
    let player;
    let games = [];
    try {
      player = await api("GET", `/api/players/${encodeURIComponent(name)}`);
      games = (await api("GET", `/api/players/${encodeURIComponent(name)}/games?limit=${RECENT}`)).games || [];
    } catch (e) {
      if (!destroyed) main.replaceChildren(el("p", { class: "error" }, e.status === 404 ? _("There is no player by that name.") : e.message));
      return;
    }
    if (destroyed) return;
    const points = history(player);
    const wins = player.wins ?? 0;
    const losses = player.losses ?? 0;
    main.replaceChildren(
      el("section", { class: "panel player-page" },
        el("h1", {}, player.name, player.rank ? el("span", { class: "rank", id: "player-rank" }, ` [${player.rank}]`) : null),
        el("dl", { class: "facts" },
          ...fact(_("Rating"), player.rating === undefined || player.rating === null ? "–"
            : `${number(player.rating)} ± ${number(2 * (player.deviation || 0))}`, "player-rating"),
          ...fact(_("Games"), number(player.games ?? 0), "player-games"),
          ...fact(_("Wins"), number(wins), "player-wins"),
          ...fact(_("Losses"), number(losses), "player-losses"),
        ),
        el("h2", {}, _("Rating history")),
        points.length ? ratingGraph(points) : el("p", { class: "muted" }, _("No rated game yet.")),
      ),
      el("section", { class: "panel" },
        el("h2", {}, _("Recent games")),
        el("ul", { class: "games", id: "player-games-list" },
          games.length ? games.map((g) => gameRow(g, player.name)) : el("li", { class: "muted" }, _("No game yet.")))),
    );
  })();
  return { destroy: () => { destroyed = true; } };
}

const ranks = new Map(); // a player's name -> their rank, read once per page ("" while unknown)

// On the game page: each seat held by a signed-in player named as a link to their page, with
// their rank ("Black: Ana [3k] (you)"). `players` are gameview.js's rows, `s` the game's state.
export function linkPlayerNames(players, s) {
  for (const color of ["black", "white"]) {
    const name = s.players && s.players[color];
    const node = players[color] && players[color].name;
    if (!name || !node || !(s.accounts && s.accounts[color])) continue;
    if (!ranks.has(name)) {
      ranks.set(name, "");
      api("GET", `/api/players/${encodeURIComponent(name)}`)
        .then((p) => { ranks.set(name, p.rank || ""); linkPlayerNames(players, s); })
        .catch(() => {});
    }
    const text = node.querySelector("a") ? node.dataset.plain : node.textContent; // drawn before: its words
    const at = text.indexOf(name);
    if (at < 0) continue;
    node.dataset.plain = text;
    const rank = ranks.get(name);
    node.replaceChildren(text.slice(0, at), el("a", { href: `/p/${encodeURIComponent(name)}`, class: "player-link" }, name),
      rank ? ` [${rank}]` : "", text.slice(at + name.length));
  }
}
