// The game page's move list: the move number, every move as an option of a list box (compact,
// scrolled to the last; one tab stop, the arrows move along it, Enter or a click chooses), and a
// way back to the game while an earlier position is shown. Choosing a move shows
// the position after it, read-only; the positions come from the game's review (the server's
// steps: each move's stone and the stones it captured), so the page needs no rule of Go.

import { _ } from "./i18n.js";
import { el } from "./dom.js";

// The panel: {root, heading, list, back}; `onPick(n)` shows the position after move n (null: the game).
export function moveListPanel(onPick) {
  const heading = el("h3", { class: "move-number", id: "move-number" });
  const back = el("button", { type: "button", class: "primary", id: "back-to-game", hidden: true, onclick: () => onPick(null) }, _("Back to the game"));
  const list = el("ol", { class: "move-list", id: "move-list", role: "listbox", "aria-label": _("Moves") });
  list.addEventListener("click", (e) => {
    const b = e.target.closest("[data-move]");
    if (b) onPick(Number(b.dataset.move));
  });
  list.addEventListener("keydown", (e) => {
    const b = e.target.closest("[data-move]");
    if (!b) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onPick(Number(b.dataset.move));
      return;
    }
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    if (!step) return;
    e.preventDefault();
    const next = list.querySelector(`[data-move="${Number(b.dataset.move) + step}"]`);
    if (next) {
      next.focus();
      onPick(Number(next.dataset.move));
    }
  });
  const root = el("section", { class: "moves", "aria-labelledby": "move-number" }, heading, list, back);
  return { root, heading, list, back };
}

// The panel for `moves` (the game's, "pass" for a pass) with move `viewing` shown (null: the game
// as it stands).
export function renderMoveList(panel, moves, viewing) {
  const total = moves.length;
  panel.heading.textContent = viewing === null
    ? _("Move {n}", { n: total })
    : _("Move {n} of {total}", { n: viewing, total });
  panel.back.hidden = viewing === null;
  const items = panel.list.children;
  if (items.length > total) panel.list.replaceChildren(); // moves taken back
  for (let i = panel.list.children.length; i < total; i++) {
    const move = moves[i] === "pass" ? _("pass") : moves[i];
    panel.list.append(el("li", { role: "option", "data-move": i + 1, class: "move", "aria-selected": "false" },
      el("span", { class: "n" }, String(i + 1)), " ", move));
  }
  for (const b of panel.list.querySelectorAll("[data-move]")) {
    const current = Number(b.dataset.move) === (viewing === null ? total : viewing);
    b.classList.toggle("current", current);
    b.tabIndex = current ? 0 : -1; // the list is one tab stop; the arrows move along it
    b.setAttribute("aria-selected", current ? "true" : "false");
  }
  const current = panel.list.querySelector(".current");
  if (current && viewing === null) panel.list.scrollTop = panel.list.scrollHeight;
}

// The position after move `n` of a review ({start, moves: [{color, move, captured}]}):
// {stones: {vertex: colour}, last}.
export function positionAt(review, n) {
  const stones = {};
  for (const v of review.start.black) stones[v] = "black";
  for (const v of review.start.white) stones[v] = "white";
  let last = null;
  for (const step of review.moves.slice(0, n)) {
    if (step.move === "pass") {
      last = null;
      continue;
    }
    stones[step.move] = step.color;
    for (const v of step.captured) delete stones[v];
    last = step.move;
  }
  return { stones, last };
}
