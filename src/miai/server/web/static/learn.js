// The course (/learn): lessons that teach the rules by playing. Every answer is judged by the
// server's rules core (POST /api/learn/{lesson}/{step}); a wrong one is explained with the rule's
// own words (the refusals of a game, refusals.js). Progress is kept in this browser, and in the
// account when signed in (GET/PUT /api/learn/progress), the problems' too (problems.js).

import { _, colorName, lang } from "./i18n.js";
import { api, keepSeat } from "./api.js";
import { Board } from "./board.js";
import { el } from "./dom.js";
import { refusalText } from "./refusals.js";
import { joinSolved, showProblems } from "./problems.js";

const PROGRESS_KEY = "miai.learn";
const number = (x) => new Intl.NumberFormat(lang).format(x);

function loadProgress() {
  try {
    return JSON.parse(localStorage.getItem(PROGRESS_KEY) || "{}");
  } catch {
    return {};
  }
}

function saveProgress(progress) {
  localStorage.setItem(PROGRESS_KEY, JSON.stringify(progress));
}

// Why an answer is wrong, in words: the verdict's values (miai.lessons.judges.Why).
export function explain(v) {
  const points = (list) => list.join(" ");
  switch (v.why) {
    case "illegal": return refusalText(v, v.move);
    case "legal": return _("{vertex} is a legal move: the rules allow it.", { vertex: v.move });
    case "still-there": return _("The stones are still there: they have {n} liberties left.", { n: number(v.liberties) });
    case "not-a-liberty": return _("{vertex} is not a liberty: a liberty is an empty point next to the stone along a line.", { vertex: v.move });
    case "not-atari": return _("Not atari: the stones have {n} liberties.", { n: number(v.liberties) });
    case "play-goes-on": return _("Play goes on: the game ends only after two passes in a row.");
    case "dead-wrong":
    case "proposal-wrong":
      return [
        v.missed.length ? _("Dead but not marked: {points}.", { points: points(v.missed) }) : "",
        v.alive.length ? _("Marked but alive: {points}.", { points: points(v.alive) }) : "",
      ].join(" ").trim();
    case "proposal-right": return _("That proposal named exactly the dead stones: refusing it only makes play resume.");
    case "count-wrong": return _("Not quite: count again for {colors}.", { colors: v.colors.map(colorName).join(", ") });
    case "winner-wrong": return _("No: add the komi to White's points and compare.");
    case "not-first": return _("No: look at whose stones are already on the board.");
    case "not-handicap": return _("Not a handicap point for this number of stones: {points}.", { points: points(v.points) });
    case "not-the-move": return _("That is not move {n}: look for the stone numbered {n}.", { n: v.number });
    default: return _("That answer cannot be read here.");
  }
}

// How to give the answer, where the board alone does not say it.
const HINTS = {
  dead: () => _("Click a stone to mark it dead (click again to take the mark off), then press Done."),
  count: () => _("Type each side's points, then press Check."),
};

// One step drawn in `box`: the board, the task's controls, the feedback; `onRight` when solved.
function showStep(box, lesson, index, onRight) {
  const step = lesson.steps[index];
  const feedback = el("div", { class: "feedback", id: "learn-feedback", "aria-live": "polite" });
  const board = new Board(step.size, { onClick: (v) => clicked(v) });
  const controls = el("div", { class: "row controls", id: "learn-controls" });
  let given = []; // the points of a multi-point answer so far (handicap, replay, dead)
  let solved = false;
  const start = { stones: step.stones, last: step.last, ko: step.ko, dead: new Set(step.proposal), numbers: {} };
  const noMove = ["dead", "agree", "count", "winner", "first", "liberty"].includes(step.task);
  board.ghostColor = noMove ? null : step.task === "handicap" ? "black" : step.to_move;
  board.update(start);
  let kept = start; // the position of the answer right so far
  let replied = Promise.resolve(); // the answers go one at a time, each built on the replies before it

  async function send(answer) {
    if (solved) return;
    let v;
    try {
      v = await api("POST", `/api/learn/${lesson.id}/${index + 1}`, { body: { answer } });
    } catch (e) {
      feedback.replaceChildren(el("p", { class: "error" }, e.message));
      return;
    }
    if (v.outcome === "more") {
      given = answer;
      if (step.task === "replay") board.ghostColor = v.to_move;
      kept = { stones: v.stones, last: v.last, ko: v.ko };
      board.update(kept);
      feedback.className = "feedback";
      feedback.replaceChildren(el("p", { class: "muted" }, _("Right so far: go on.")));
      return;
    }
    if (v.outcome === "wrong") {
      board.update({ ...kept, dead: new Set(step.proposal) }); // a record or a handicap keeps what was right so far
      feedback.className = "feedback wrong";
      feedback.replaceChildren(el("p", { class: "why" }, explain(v)), el("p", {}, _("Try again.")));
      return;
    }
    solved = true;
    board.update({ stones: v.stones, last: v.last, ko: v.ko, dead: new Set(v.dead) });
    feedback.className = "feedback right";
    const said = [_("Right!")];
    if (v.reason) said.push(refusalText(v, v.move));
    if (step.done) said.push(step.done[lang] || step.done.en);
    feedback.replaceChildren(el("p", {}, said.join(" ")));
    onRight(feedback);
  }

  function clicked(vertex) {
    if (solved) return;
    if (step.task === "dead") {
      const dead = new Set(board.state.dead);
      if (!step.stones[vertex]) return;
      dead.has(vertex) ? dead.delete(vertex) : dead.add(vertex);
      board.update({ dead });
    } else if (step.task === "handicap" || step.task === "replay") {
      // a quick second click waits for the first reply; a failure is logged and the clicks go on
      replied = replied.then(() => send([...given, vertex])).catch((e) => console.error(e));
    } else if (!["agree", "count", "winner", "first"].includes(step.task)) {
      send([vertex]);
    }
  }

  const button = (label, answer, id) => el("button", { type: "button", id, onclick: () => send(typeof answer === "function" ? answer() : answer) }, label);
  if (step.task === "end") controls.append(button(_("Pass"), ["pass"], "learn-pass"));
  if (step.task === "dead") controls.append(button(_("Done"), () => [...board.state.dead], "learn-done"));
  if (step.task === "agree") controls.append(button(_("Accept"), ["accept"], "learn-accept"), button(_("Refuse"), ["refuse"], "learn-refuse"));
  if (step.task === "winner" || step.task === "first") {
    controls.append(button(colorName("black"), ["black"], "learn-black"), button(colorName("white"), ["white"], "learn-white"));
    if (step.task === "winner") controls.append(button(_("A draw (jigo)"), ["draw"], "learn-draw"));
  }
  if (step.task === "count") {
    const field = (color) => el("label", {}, el("span", {}, colorName(color)), el("input", { type: "number", step: "0.5", id: `learn-${color}`, inputmode: "decimal" }));
    controls.append(field("black"), field("white"), button(_("Check"), () => ["black", "white"].map((c) => document.getElementById(`learn-${c}`).value), "learn-check"));
  }
  board.root.setAttribute("id", "learn-board");
  const boards = el("div", { class: "learn-boards" }, board.root);
  if (step.figure) {
    const figure = new Board(step.size);
    figure.update({ stones: step.figure.stones, numbers: step.figure.numbers });
    figure.root.classList.add("figure");
    figure.root.setAttribute("id", "learn-figure");
    boards.append(figure.root);
  }
  box.replaceChildren(
    el("p", { class: "muted", id: "learn-step" }, _("Step {n} of {total}", { n: index + 1, total: lesson.steps.length })),
    el("p", { class: "task", id: "learn-task" }, step.text[lang] || step.text.en),
    HINTS[step.task] ? el("p", { class: "muted", id: "learn-hint" }, HINTS[step.task]()) : "",
    boards,
    controls,
    feedback,
  );
}

// The end of the course: the first game against the computer at the lowest level.
function showEnd(box) {
  const play = el("button", {
    type: "button",
    class: "primary",
    id: "learn-first-game",
    onclick: async () => {
      const game = await api("POST", "/api/games", { body: { size: 9, rules: "japanese", handicap: 0, time: "none", black: "human", white: "computer:1" } });
      keepSeat(game.id, game.black_token);
      location.href = game.url;
    },
  }, _("Play your first 9×9 game"));
  box.replaceChildren(
    el("h2", {}, _("You know the rules!")),
    el("p", {}, _("Now play your first 9×9 game against the computer at its lowest level. When you win, try level 2 from the lobby.")),
    el("div", { class: "row" }, play,
      el("button", { type: "button", id: "learn-end-problems", onclick: () => showProblems(box) }, _("Solve problems"))),
  );
}

// The course drawn in `main`: the lessons' list and the lesson being taken.
export function showLearn(main) {
  const nav = el("ol", { class: "lessons", id: "learn-lessons" });
  const box = el("section", { class: "panel lesson", id: "learn-lesson" });
  const problems = el("button", { type: "button", id: "learn-problems", onclick: () => { drawNav(-1); showProblems(box); } }, _("Problems"));
  main.append(el("section", { class: "panel" }, el("h1", {}, _("Learn to play Go")), nav, el("p", {}, problems)), box);
  let lessons = [];
  const progress = loadProgress();
  let signedIn = false;

  function keep(lessonId, steps) {
    if (steps <= (progress[lessonId] || 0)) return;
    progress[lessonId] = steps;
    saveProgress(progress);
    if (signedIn) api("PUT", "/api/learn/progress", { body: { lesson: lessonId, steps } }).catch(() => {});
  }

  function drawNav(current) {
    nav.replaceChildren(...lessons.map((l, i) => el("li", { class: i === current ? "current" : "" },
      el("a", { href: "#" + l.id, onclick: (e) => { e.preventDefault(); open(i); } }, l.title[lang] || l.title.en),
      progress[l.id] >= l.steps.length ? el("span", { class: "done", "aria-label": _("done") }, " ✓") : "")));
  }

  function open(i, stepIndex = 0) {
    if (i >= lessons.length) {
      drawNav(-1);
      showEnd(box);
      return;
    }
    const lesson = lessons[i];
    drawNav(i);
    const stepBox = el("div", {});
    box.replaceChildren(el("h2", { id: "learn-title" }, lesson.title[lang] || lesson.title.en), el("p", { class: "intro" }, lesson.intro[lang] || lesson.intro.en), stepBox);
    const next = (k) => showStep(stepBox, lesson, k, (feedback) => {
      keep(lesson.id, k + 1);
      const last = k + 1 >= lesson.steps.length;
      feedback.append(el("button", { type: "button", class: "primary", id: "learn-next", onclick: () => (last ? open(i + 1) : next(k + 1)) },
        last ? (i + 1 >= lessons.length ? _("Finish the course") : _("Next lesson")) : _("Next step")));
    });
    next(stepIndex);
  }

  Promise.all([api("GET", "/api/learn"), api("GET", "/api/learn/progress").catch(() => ({ signed_in: false, progress: {} }))]).then(([course, saved]) => {
    lessons = course.lessons;
    signedIn = saved.signed_in;
    for (const [id, steps] of Object.entries(saved.progress)) progress[id] = Math.max(progress[id] || 0, steps);
    saveProgress(progress);
    if (signedIn) { // what this browser solved as a guest joins the account
      for (const l of lessons) if ((progress[l.id] || 0) > (saved.progress[l.id] || 0)) api("PUT", "/api/learn/progress", { body: { lesson: l.id, steps: Math.min(progress[l.id], l.steps.length) } }).catch(() => {});
    }
    joinSolved(saved); // and so do the problems it solved
    const first = lessons.findIndex((l) => (progress[l.id] || 0) < l.steps.length);
    if (first < 0) open(lessons.length); // the course done: its end, the first game
    else open(first, progress[lessons[first].id] || 0); // where the learner stopped
  }).catch((e) => box.replaceChildren(el("p", { class: "error" }, e.message)));
  document.title = "miai · " + _("Learn to play Go");
  return { destroy: () => {} };
}
