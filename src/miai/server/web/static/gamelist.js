// A player's games as a list: for each, the opponent (to their page), the board, rated or not,
// and for a game under way whose turn it is and the time left to move, for a finished one the
// result from the player's side, its SGF and its review. Used by "My games" and the players' pages.

import { _, colorName, describeResult } from "./i18n.js";
import { el } from "./dom.js";
import { daysAndHours, formatMs } from "./clock.js";
import { playerHref } from "./account.js";

const DAY_MS = 86400000;
const HOUR_MS = 3600000;

// A game's player names: the API's `players` (display names) or its seats.
function names(g) {
  const p = g.players || {};
  return { black: p.black || g.black_name || g.black || "?", white: p.white || g.white_name || g.white || "?" };
}

// The colour `name` plays in `g` (null when they play neither seat).
export function colorOf(g, name) {
  if (g.seat === "black" || g.seat === "white") return g.seat;
  const n = names(g);
  const key = String(name || "").toLowerCase();
  if (String(n.black).toLowerCase() === key) return "black";
  if (String(n.white).toLowerCase() === key) return "white";
  return null;
}

export function finished(g) {
  return Boolean(g.result) || g.phase === "finished" || g.status === "finished";
}

// Time as a correspondence player reads it: "3 days 4 h", "5 h 12 min", else the clock's "4:05".
export function timeLeftText(ms) {
  if (ms >= DAY_MS) return daysAndHours(ms);
  if (ms >= HOUR_MS) return `${Math.floor(ms / HOUR_MS)} h ${Math.floor((ms % HOUR_MS) / 60000)} min`;
  return formatMs(ms);
}

// The milliseconds left to the side to move, when the game has a clock.
function timeLeftMs(g) {
  if (typeof g.time_left_ms === "number") return g.time_left_ms;
  const side = g.to_move;
  const left = side && g.clocks && g.clocks.time_left && g.clocks.time_left[side];
  return left && typeof left.ms === "number" ? left.ms : null;
}

// What a game under way waits for: "Your turn · 2 days 3 h" for the player (`mine`), else "Alice's turn".
export function turnText(g, color, mine) {
  const n = names(g);
  const who = g.to_move;
  if (!who) return _("Counting: the stones are being marked");
  const ms = timeLeftMs(g);
  const turn = mine && (g.your_turn ?? who === color) ? _("Your turn") : _("{name}'s turn", { name: n[who] });
  if (ms === null) return turn;
  const left = _("{time} left", { time: timeLeftText(ms) });
  return [turn, left].join(" · ");
}

// A finished game's result from `color`'s side: "Won: White wins by resignation".
export function resultText(g, color) {
  const words = describeResult(g.result);
  const winner = /^([BW])\+/.exec(g.result || "");
  if (!color || !winner) return words;
  const won = (winner[1] === "B") === (color === "black");
  const outcome = won ? _("Won") : _("Lost");
  return [outcome, words].join(": ");
}

// One game's row, seen by player `name` (the player of the page, or the signed-in one).
export function gameRow(g, name, { mine = false } = {}) {
  const color = colorOf(g, name);
  const n = names(g);
  const opponent = color ? n[color === "black" ? "white" : "black"] : null;
  const over = finished(g);
  const who = color
    ? el("span", {}, _("{color} against", { color: colorName(color) }), " ",
        el("a", { href: playerHref(opponent) }, opponent))
    : el("span", {}, `${n.black} – ${n.white}`);
  const facts = [`${g.size}×${g.size}`, g.rated ? _("rated") : _("unrated")].join(" · ");
  const state = over ? resultText(g, color) : turnText(g, color, mine);
  const waits = !over && mine && (g.your_turn ?? g.to_move === color);
  const links = over
    ? [el("a", { href: g.review || `/r/${g.id}`, class: "button" }, _("Review")), el("a", { href: g.sgf || `/api/games/${g.id}/sgf`, class: "button" }, _("SGF"))]
    : [el("a", { href: `/g/${g.id}`, class: waits ? "button primary" : "button" }, mine ? _("Play") : _("Watch"))];
  const row = el("li", { "data-game": g.id, class: waits ? "your-turn" : null },
    el("div", { class: "game-facts" }, who, el("small", { class: "muted" }, ` · ${facts}`), el("div", { class: "state" }, state)),
    el("div", { class: "game-links" }, ...links),
  );
  return row;
}
