// The game page's panels, drawn from the game's state: the players (name, presence, prisoners),
// their clocks, the time control, the status line, the chat and the count. They hold no state
// of their own and send nothing: the page (game.js) gives them what to draw and what to call.

import { _, colorName, describeResult, formatNumber, ngettext, playerName } from "./i18n.js";
import { el } from "./dom.js";
import { describeControl, sideClock } from "./clock.js";

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
    sub: el("span", { class: "clock-sub" }),
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

function confirmOption(confirmMove, onConfirmMove) {
  const box = el("input", { type: "checkbox", id: "confirm-move", checked: confirmMove });
  box.addEventListener("change", () => onConfirmMove(box.checked));
  return el("p", { class: "options" }, el("label", { for: "confirm-move" }, box, " ", _("Confirm each move")));
}

// The page's frame around `board` (a Board): the side panel's parts, and `root` and `dialog` to
// show. `onChat(text)` sends a chat message (whether it could); `onConfirmMove(on)` sets the option.
// The chat form is shown to the players only: spectators watch (docs/SERVER.md §5).
export function gameLayout(gameId, board, { confirmMove, onChat, onConfirmMove }) {
  const side = el("aside", { class: "side" });
  const players = {};
  for (const color of COLORS) {
    players[color] = playerRow(color);
    side.append(players[color].row);
  }
  const parts = {
    players,
    control: el("p", { class: "control muted" }),
    status: el("p", { class: "status", id: "status", "aria-live": "polite" }),
    message: el("p", { class: "message", id: "message", role: "alert" }),
    controls: el("div", { class: "controls", id: "controls" }),
    markingBox: el("div", { class: "marking", id: "marking" }),
    scoreBox: el("div", { class: "score", id: "score" }),
    chatLog: el("ul", { class: "chat-log", "aria-live": "polite" }),
    chatForm: chatForm(onChat),
    dialog: el("div", { class: "dialog", hidden: true, role: "dialog", "aria-modal": "true" }),
  };
  side.append(
    parts.control, parts.status, parts.message, parts.controls, parts.markingBox, parts.scoreBox,
    el("details", { class: "chat" }, el("summary", {}, _("Chat")), parts.chatLog, parts.chatForm),
    confirmOption(confirmMove, onConfirmMove),
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
    const name = s.players[color] || (kind && kind.startsWith("computer") ? playerName(null, kind) : nameless);
    const you = _("you");
    p.name.textContent = `${colorName(color)}: ${playerName(name, kind)}` + (seat === color ? ` (${you})` : "");
    p.captures.textContent = ngettext("{n} prisoner", "{n} prisoners", s.captures[color]);
    const here = presence && (presence[color] || (kind && kind.startsWith("computer")));
    p.presence.textContent = here ? _("connected") : _("away");
    p.presence.className = `presence ${here ? "on" : "off"}`;
    p.row.classList.toggle("to-move", s.phase !== "finished" && s.to_move === color);
  }
}

// The time control and the komi in words.
export function controlText(s) {
  const clocks = s.clocks;
  let text = clocks && clocks.control !== "none"
    ? _("Clock: {control}", { control: describeControl(clocks.control, clocks.describe) })
    : _("No clock") + (s.komi !== undefined ? " · " : "") + _("komi {komi}", { komi: formatNumber(s.komi) });
  if (clocks && clocks.control !== "none") text += " · " + _("komi {komi}", { komi: formatNumber(s.komi) });
  return text;
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
  } else if (myTurn) {
    text = _("Your move.");
  } else {
    text = _("{who} to move.", { who: colorName(s.to_move) });
  }
  if (!connected) text += " " + _("(reconnecting…)");
  if (sending) text += " " + _("(sending…)");
  return text;
}

// Both clocks, `elapsed` ms after the state's clock view was true (frozen once the game is over).
export function renderClocks(players, s, elapsed) {
  const view = s.clocks;
  for (const color of COLORS) {
    const p = players[color];
    if (!view || view.control === "none") {
      p.clock.textContent = "";
      p.sub.textContent = "";
      continue;
    }
    const frozen = s.phase === "finished";
    const shown = sideClock(view, color, frozen ? 0 : elapsed);
    p.clock.textContent = shown.main;
    p.clock.classList.toggle("low", shown.low && !frozen);
    p.clock.classList.toggle("ticking", view.ticking === color && !frozen);
    p.sub.textContent = shown.sub;
    p.clock.setAttribute("aria-label", `${colorName(color)}: ${shown.main} ${shown.sub}`);
  }
}

// A chat message ({from, text}) added to the log, which scrolls to it.
export function addChat(log, d) {
  log.append(el("li", {}, el("b", {}, d.from === "spectator" ? _("Spectator") : colorName(d.from)), " ", d.text));
  log.scrollTop = log.scrollHeight;
}

const SCORE_ROWS = [
  ["territory", () => _("Territory")],
  ["stones", () => _("Stones")],
  ["prisoners", () => _("Prisoners")],
  ["dead", () => _("Dead stones")],
  ["compensation", () => _("Compensation")],
  ["komi", () => _("Komi")],
  ["handicap_bonus", () => _("Handicap")],
  ["total", () => _("Total")],
];

// The count of a finished game: the result, and each side's points row by row.
export function renderScore(box, s) {
  box.replaceChildren();
  if (s.phase !== "finished") return;
  box.append(el("h3", {}, describeResult(s.result, true)));
  const sc = s.score;
  if (!sc) return;
  const table = el("table", { class: "breakdown", id: "breakdown" },
    el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", { scope: "col" }, colorName("black")), el("th", { scope: "col" }, colorName("white")))));
  const body = el("tbody");
  for (const [key, label] of SCORE_ROWS) {
    const b = sc.black[key], w = sc.white[key];
    if (b === undefined || (b === 0 && w === 0 && key !== "total")) continue;
    body.append(el("tr", { "data-row": key }, el("th", { scope: "row" }, label()), el("td", {}, formatNumber(b)), el("td", {}, formatNumber(w))));
  }
  if (sc.neutral) body.append(el("tr", { "data-row": "neutral" }, el("th", { scope: "row" }, _("Neutral points (dame)")), el("td", { colspan: 2 }, formatNumber(sc.neutral))));
  table.append(body);
  box.append(table);
  if (sc.dead.length) box.append(el("p", { class: "muted" }, _("Dead stones: {list}", { list: sc.dead.join(" ") })));
}
