// Problems after the lessons (life and death, capturing): the player's move is judged by the
// server (POST /api/problems/{id}: the solution tree and the rules core), the computer answers
// or refutes; solved problems are kept in this browser, and in the account when signed in
// (GET/PUT /api/learn/progress, as the lessons' progress).

import { _ } from "./i18n.js";
import { api } from "./api.js";
import { Board } from "./board.js";
import { el } from "./dom.js";
import { refusalText } from "./refusals.js";
import { parseVertex } from "./vertex.js";

const SOLVED_KEY = "miai.problems";

function solvedSet() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

const sendSolved = (id) => api("PUT", "/api/learn/progress", { body: { problem: id } }).catch(() => {});

// The problems solved: this browser's joined with the account's, `saved` being the answer of
// GET /api/learn/progress; when signed in, what this browser solved as a guest joins the account.
export function joinSolved(saved) {
  const solved = solvedSet();
  const inAccount = new Set(saved.problems || []);
  for (const id of inAccount) solved.add(id);
  localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
  if (saved.signed_in) for (const id of solved) if (!inAccount.has(id)) sendSolved(id);
  return solved;
}

// The problems solved (joined as above) and `keep(id)`, which records one more.
async function loadSolved() {
  const saved = await api("GET", "/api/learn/progress").catch(() => ({ signed_in: false, problems: [] }));
  const solved = joinSolved(saved);
  const keep = (id) => {
    if (solved.has(id)) return;
    solved.add(id);
    localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
    if (saved.signed_in) sendSolved(id);
  };
  return { solved, keep };
}

// The mark of a solved problem: a check mark, and the word for those who do not see it.
const solvedMark = () => [el("span", { class: "done", "aria-hidden": "true" }, " ✓"), el("span", { class: "sr-only" }, " " + _("solved"))];

// The goal in words: "Black to kill", made from the goal and the colour.
export function goalText(p) {
  const black = p.to_play === "black";
  switch (p.goal) {
    case "kill": return black ? _("Black to play and kill.") : _("White to play and kill.");
    case "live": return black ? _("Black to play and live.") : _("White to play and live.");
    case "capture": return black ? _("Black to play and capture the marked stones.") : _("White to play and capture the marked stones.");
    default: return black ? _("Black to play and save the marked stones.") : _("White to play and save the marked stones.");
  }
}

const LEVELS = { beginner: () => _("beginner"), elementary: () => _("elementary"), intermediate: () => _("intermediate") };

// Show only the problem's part of the board (its SGF view, with a line of margin and the
// coordinates on the board's own edges): the board's viewBox, in its units of 10 per line.
function showView(board, problem) {
  const [from, to] = problem.view.map((v) => parseVertex(v, problem.size));
  if (!from || !to) return;
  const U = 10;
  const n = problem.size + 1;
  const x0 = from[0] === 0 ? 0 : (from[0] + 0.5) * U;
  const x1 = to[0] === problem.size - 1 ? n * U : (to[0] + 1.5) * U;
  const y0 = to[1] === problem.size - 1 ? 0 : (problem.size - to[1] - 0.5) * U;
  const y1 = from[1] === 0 ? n * U : (problem.size - from[1] + 0.5) * U;
  board.root.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
}

// One problem drawn in `box`; `keep` records it solved, `next` opens the next one.
function showProblem(box, problem, index, total, { solved, keep, next, list }) {
  let replied = Promise.resolve(); // the moves go one at a time, each after the computer's answer to the one before
  const board = new Board(problem.size, { onClick: (v) => { replied = replied.then(() => play(v)).catch((e) => console.error(e)); } });
  board.root.setAttribute("id", "problem-board");
  board.ghostColor = problem.to_play;
  showView(board, problem);
  const feedback = el("div", { class: "feedback", id: "problem-feedback", "aria-live": "polite" });
  let played = [];
  let over = false;
  const reset = () => {
    played = [];
    over = false;
    board.update({ stones: problem.stones, last: null, dead: new Set(), numbers: {} });
    feedback.className = "feedback";
    feedback.replaceChildren();
  };

  async function play(vertex) {
    if (over) return;
    let v;
    try {
      v = await api("POST", `/api/problems/${problem.id}`, { body: { played, move: vertex } });
    } catch (e) {
      feedback.replaceChildren(el("p", { class: "error" }, e.message));
      return;
    }
    if (v.outcome === "illegal") {
      feedback.className = "feedback wrong";
      feedback.replaceChildren(el("p", { class: "why" }, refusalText(v, vertex)));
      return;
    }
    played = [...played, vertex, ...(v.reply ? [v.reply] : [])];
    board.update({ stones: v.stones, last: v.reply || vertex });
    if (v.outcome === "right") {
      feedback.className = "feedback";
      feedback.replaceChildren(el("p", {}, _("Good. The computer answers at {vertex}: go on.", { vertex: v.reply })));
      return;
    }
    over = true;
    if (v.outcome === "solved") {
      keep(problem.id);
      box.querySelector("#problem-title").replaceChildren(_("Problem {n} of {total}", { n: index + 1, total }), ...solvedMark());
      list();
      feedback.className = "feedback right";
      feedback.replaceChildren(el("p", {}, _("Solved!")),
        total > 1 ? el("button", { type: "button", class: "primary", id: "problem-next", onclick: next }, _("Next problem")) : "");
      return;
    }
    feedback.className = "feedback wrong";
    feedback.replaceChildren(
      el("p", { class: "why" }, v.reply ? _("Not this one: the computer answers at {vertex} and wins.", { vertex: v.reply }) : _("Not this one: that move does not reach the goal.")),
      el("button", { type: "button", id: "problem-retry", onclick: reset }, _("Try again")),
    );
  }

  box.replaceChildren(
    el("h2", { id: "problem-title" }, _("Problem {n} of {total}", { n: index + 1, total }), ...(solved.has(problem.id) ? solvedMark() : [])),
    el("p", { class: "muted", title: problem.source }, LEVELS[problem.level] ? LEVELS[problem.level]() : problem.level), // the source as its file states it
    el("p", { class: "task", id: "problem-goal" }, goalText(problem)),
    el("p", { class: "muted", id: "problem-marked" }, _("The marked stones: {points}.", { points: problem.targets.join(" ") })),
    el("div", { class: "learn-boards" }, board.root),
    feedback,
    el("h3", { id: "problem-count" }),
    el("ol", { class: "problem-list", id: "problem-list", "aria-label": _("Problems") }),
  );
  reset();
}

// The first problem not solved from `from` on (round the list), or `from` when all are.
function nextOpen(problems, solved, from) {
  for (let k = 0; k < problems.length; k++) {
    const i = (from + k) % problems.length;
    if (!solved.has(problems[i].id)) return i;
  }
  return from % problems.length;
}

// The problems, from the first one not solved yet, drawn in `box`, with the list of them all
// (the solved ones checked) to choose another.
export async function showProblems(box) {
  const { problems } = await api("GET", "/api/problems");
  const { solved, keep } = await loadSolved();
  const open = (i) => {
    const list = () => {
      box.querySelector("#problem-list").replaceChildren(...problems.map((p, k) => el("li", {},
        el("button", { type: "button", class: [k === i ? "current" : "", solved.has(p.id) ? "solved" : ""].join(" ").trim(), "aria-current": k === i ? "true" : "false", onclick: () => open(k) },
          String(k + 1), ...(solved.has(p.id) ? solvedMark() : [])))));
      box.querySelector("#problem-count").textContent = _("Solved: {n} of {total}", { n: solved.size, total: problems.length });
    };
    showProblem(box, problems[i], i, problems.length, { solved, keep, next: () => open(nextOpen(problems, solved, i + 1)), list });
    list();
  };
  open(nextOpen(problems, solved, 0));
}
