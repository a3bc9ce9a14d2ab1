// The game page's panels, drawn from the game's state: the players (name, presence, prisoners),
// their clocks, the time control, the status line, the chat and the count. They hold no state
// of their own and send nothing: the page (game.js) gives them what to draw and what to call.

import { _, colorName, describeResult, formatNumber, lang, ngettext, playerName } from "./i18n.js";
import { el } from "./dom.js";
import { describeControl, sideClock } from "./clock.js";
import { lastPasser } from "./gamestate.js";
import { seatName, termsText } from "./gameterms.js";

const COLORS = ["black", "white"];

// One player's row: {row, name, presence, captures, clock, sub}.
function playerRow(color) {
  const row = el("div", { class: `player ${color}`, "data-color": color });
  const parts = {
    row,
    name: el("span", { class: "name" }),
    presence: el("span", { class: "presence" }),
    captures: el("span", { class: "captures" }),
    clock: el("span", { class: "clock", role: "timer" }),
    sub: el("span", { class: "clock-sub", "aria-hidden": "true" }), // the timer's accessible name says it
  };
  row.append(
    el("span", { class: `dot ${color}`, "aria-hidden": "true" }),
    el("div", { class: "who" }, parts.name, parts.presence, parts.captures),
    el("div", { class: "time" }, parts.clock, parts.sub),
  );
  return parts;
}

function chatForm(onChat) {
  const input = el("input", { type: "text", maxlength: 300, "aria-label": _("Chat message"), placeholder: _("Say something") });
  const submit = (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text && onChat(text)) input.value = "";
  };
  return el("form", { class: "chat-form", onsubmit: submit }, input, el("button", { type: "submit" }, _("Send")));
}

function checkbox(id, label, checked, onChange) {
  const box = el("input", { type: "checkbox", id, checked });
  box.addEventListener("change", () => onChange(box.checked));
  return el("label", { for: id }, box, " ", label);
}

function options(confirmMove, onConfirmMove, muted, onMute) {
  return el("p", { class: "options" },
    checkbox("confirm-move", _("Confirm each move"), confirmMove, onConfirmMove), " ",
    checkbox("sound", _("Sound"), !muted, (on) => onMute(!on)));
}

// The page's frame around `board` (a Board) and `moves` (the move list's panel): the side
// panel's parts, and `root` and `dialog` to show. `onChat(text)` sends a chat message (whether it
// could); `onConfirmMove(on)` and `onMute(muted)` set the options. `announcer` is the live region
// for what happens besides the status line (a pass, a clock running low, a position shown).
// The chat form is shown to the players only: spectators watch (docs/SERVER.md §5).
export function gameLayout(gameId, board, moves, { confirmMove, muted, onChat, onConfirmMove, onMute }) {
  const side = el("aside", { class: "side" });
  const players = {};
  for (const color of COLORS) {
    players[color] = playerRow(color);
    side.append(players[color].row);
  }
  const parts = {
    players,
    control: el("p", { class: "control muted", id: "terms" }),
    status: el("p", { class: "status", id: "status", "aria-live": "polite" }),
    announcer: el("p", { class: "sr-only", id: "announcer", "aria-live": "assertive" }),
    message: el("p", { class: "message", id: "message", role: "alert" }),
    controls: el("div", { class: "controls", id: "controls" }),
    estimateBox: el("div", { class: "estimate", id: "estimate" }),
    lead: el("p", { class: "lead", id: "lead", "aria-live": "polite" }),
    // what the marks now count, said to a screen reader as a chain is marked from the keyboard
    announce: el("p", { class: "sr-only", id: "announce", "aria-live": "polite" }),
    markingBox: el("div", { class: "marking", id: "marking" }),
    scoreBox: el("div", { class: "score", id: "score" }),
    chatLog: el("ul", { class: "chat-log", "aria-live": "polite" }),
    chatForm: chatForm(onChat),
    dialog: el("div", { class: "dialog", hidden: true, role: "dialog", "aria-modal": "true" }),
  };
  side.append(
    parts.control, parts.status, parts.announcer, parts.message, parts.controls, parts.estimateBox, parts.lead,
    parts.announce, parts.markingBox, parts.scoreBox, moves.root,
    el("details", { class: "chat" }, el("summary", {}, _("Chat")), parts.chatLog, parts.chatForm),
    options(confirmMove, onConfirmMove, muted, onMute),
    el("p", { class: "links" },
      el("a", { href: `/r/${gameId}` }, _("Review")), " · ",
      el("a", { href: `/api/games/${gameId}/sgf` }, _("Download SGF"))),
  );
  parts.root = el("div", { class: "game" }, el("div", { class: "board-wrap" }, board.root), side);
  return parts;
}

// The players' rows: names (a computer's seat by its level), who is connected, prisoners, whose move.
export function renderPlayers(players, s, seat, presence) {
  for (const color of COLORS) {
    const p = players[color];
    const kind = s[color];
    const nameless = s.moves.length ? _("no name") : _("waiting for a player"); // a program's seat has none
    const name = seatName(kind, s.players[color], nameless);
    const you = _("you");
    p.name.textContent = `${colorName(color)}: ${playerName(name, kind)}` + (seat === color ? ` (${you})` : "");
    p.captures.textContent = ngettext("{n} prisoner", "{n} prisoners", s.captures[color]);
    const here = presence && (presence[color] || (kind && kind.startsWith("computer")));
    p.presence.textContent = here ? _("connected") : _("away");
    p.presence.className = `presence ${here ? "on" : "off"}`;
    p.row.classList.toggle("to-move", s.phase !== "finished" && s.to_move === color);
  }
}

// The game's terms in words: the rules, komi and handicap, and the time control.
export function controlText(s) {
  const clocks = s.clocks;
  const clock = clocks && clocks.control !== "none"
    ? _("Clock: {control}", { control: describeControl(clocks.control, clocks.describe) })
    : _("No clock");
  return `${termsText(s)} · ${clock}`;
}

// The status line: the result, the marking step (`step`, markingStage's), or whose move, then
// whether the page is reconnecting or sending.
export function statusText(s, step, { myTurn, connected, sending }) {
  let text;
  if (s.phase === "finished") {
    text = _("Game over: {result}", { result: describeResult(s.result) });
  } else if (s.phase === "marking") {
    const who = colorName(s.marking.to_act);
    text = {
      propose: _("Marking the dead stones: {who} proposes which stones are dead.", { who }),
      answer: _("Marking the dead stones: {who} accepts the proposal or proposes other dead stones.", { who }),
      final: _("Marking the dead stones: {who} accepts the counter-proposal or resumes play.", { who }),
    }[step.stage];
  } else if (lastPasser(s)) {
    text = passText(lastPasser(s), myTurn, s.to_move);
  } else if (myTurn) {
    text = _("Your move.");
  } else {
    text = _("{who} to move.", { who: colorName(s.to_move) });
  }
  if (!connected) text += " " + _("(reconnecting…)");
  if (sending) text += " " + _("(sending…)");
  return text;
}

// That `passer` has passed, told to the player who may end the play by passing too (`myTurn`), or
// to whoever else watches with whose move it is.
function passText(passer, myTurn, toMove) {
  if (myTurn) {
    const passed = passer === "white"
      ? _("White has passed: if you pass too, the game ends.")
      : _("Black has passed: if you pass too, the game ends.");
    return passed + " " + _("Your move.");
  }
  const passed = passer === "white" ? _("White has passed.") : _("Black has passed.");
  return passed + " " + _("{who} to move.", { who: colorName(toMove) });
}

// A number of points as the page's language writes it (15,5 in es, it and pt).
export function points(n) {
  return formatNumber(n);
}

// Who leads by the computer's estimate (its `score`), in words.
export function leadText(score) {
  const margin = score.black.total - score.white.total;
  if (margin > 0) return _("Black leads by {points}.", { points: points(margin) });
  if (margin < 0) return _("White leads by {points}.", { points: points(-margin) });
  return _("The game is even.");
}

// Both clocks, `elapsed` ms after the state's clock view was true (frozen once the game is over):
// what each shows ({black, white}: sideClock's), or null in a game without a clock.
export function renderClocks(players, s, elapsed) {
  const view = s.clocks;
  const shownBy = {};
  for (const color of COLORS) {
    const p = players[color];
    if (!view || view.control === "none") {
      p.clock.textContent = "";
      p.sub.textContent = "";
      continue;
    }
    const frozen = s.phase === "finished";
    const shown = sideClock(view, color, frozen ? 0 : elapsed);
    shownBy[color] = shown;
    p.clock.textContent = shown.main;
    p.clock.classList.toggle("low", shown.low && !frozen);
    p.clock.classList.toggle("ticking", view.ticking === color && !frozen);
    p.sub.textContent = shown.sub;
    p.sub.classList.toggle("low", shown.low && !frozen);
    p.clock.setAttribute("aria-label", `${colorName(color)}: ${shown.spoken}`);
  }
  return view && view.control !== "none" ? shownBy : null;
}

// A chat line ({from, name, text, at_ms}) added to the log, which scrolls to it: its time, the
// speaker's name (else the seat's colour) and the text.
export function addChat(log, d) {
  const when = new Date(d.at_ms);
  const time = el("time", { datetime: when.toISOString(), class: "muted" }, new Intl.DateTimeFormat(lang === "pt" ? "pt-PT" : lang, { hour: "2-digit", minute: "2-digit" }).format(when));
  log.append(el("li", {}, time, " ", el("b", {}, playerName(d.name) || colorName(d.from)), " ", d.text));
  log.scrollTop = log.scrollHeight;
}

// The rows of a count, by how the rules count (area: stones and territory; territory: territory,
// prisoners and dead stones), each shown even at 0; compensation and the handicap bonus when any.
const SCORE_ROWS = {
  area: [["stones", () => _("Stones")], ["territory", () => _("Territory")]],
  territory: [["territory", () => _("Territory")], ["prisoners", () => _("Prisoners")], ["dead", () => _("Dead stones")]],
};
const SCORE_EXTRA = [
  ["compensation", () => _("Compensation")],
  ["komi", () => _("Komi")],
  ["handicap_bonus", () => _("Handicap")],
];

// The breakdown table of a count (`sc`, the server's score), with `caption`.
function scoreTable(sc, caption) {
  const table = el("table", { class: "breakdown", id: "breakdown" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", { scope: "col" }, colorName("black")), el("th", { scope: "col" }, colorName("white")))));
  const body = el("tbody");
  const row = (key, label, b, w) => body.append(
    el("tr", { "data-row": key }, el("th", { scope: "row" }, label), el("td", {}, points(b)), el("td", {}, points(w))));
  for (const [key, label] of SCORE_ROWS[sc.scoring] || []) row(key, label(), sc.black[key], sc.white[key]);
  for (const [key, label] of SCORE_EXTRA) {
    if (sc.black[key] || sc.white[key] || key === "komi") row(key, label(), sc.black[key], sc.white[key]);
  }
  row("total", _("Total"), sc.black.total, sc.white.total);
  if (sc.neutral) body.append(el("tr", { "data-row": "neutral" }, el("th", { scope: "row" }, _("Neutral points (dame)")), el("td", { colspan: 2 }, points(sc.neutral))));
  table.append(body);
  return table;
}

// What the marks count, in one sentence: how many stones are marked dead and, once the server
// has counted them (`count`), the result they give.
export function markingSummary(marked, count) {
  const text = ngettext("{n} stone marked dead.", "{n} stones marked dead.", marked);
  return count ? text + " " + _("If these stones are dead: {result}", { result: describeResult(count.score.result) }) : text;
}

// The count: of a finished game (its result is the status line's, said once), or in the marking
// phase the count of the stones marked now (`count`, the server's answer for them).
export function renderScore(box, s, count) {
  box.replaceChildren();
  if (s.phase === "finished" && s.score) {
    box.append(scoreTable(s.score, _("The count")));
  } else if (s.phase === "marking" && count) {
    box.append(scoreTable(count.score, _("If these stones are dead: {result}", { result: describeResult(count.score.result) })));
  }
}
