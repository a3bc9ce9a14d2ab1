// The computer's analysis on the review page (docs/SERVER.md §3.6): the candidates of the
// position shown (POST /api/analysis), numbered on the board and listed with Black's win rate;
// and the analysis of the whole game, which the server runs and keeps (POST then GET the
// review's links.analysis): the page polls it while it runs, so the win-rate graph fills as the
// positions are searched, and lists the game's mistakes, each going to the position before it
// with the computer's better move on the board.

import { _, colorName, formatNumber, formatPercent } from "./i18n.js";
import { api } from "./api.js";
import { el, redraw } from "./dom.js";
import { drawGraph, moveAt } from "./graph.js";
import { formatDrop } from "./reviewtexts.js";

const POLL_MS = 700; // between two readings of a game's analysis under way
const MISTAKE_THRESHOLD = 0.05; // the server's (compute/gameanalysis.py): the least fall listed

// The request for the position after `n` moves of review `r`: the review's own facts and steps.
export function analysisRequest(r, n, seconds) {
  const moves = r.moves.slice(0, n).map((m) => (m.edits ? { color: m.color, move: m.move, edits: m.edits } : { color: m.color, move: m.move }));
  const body = { size: r.size, rules: r.rules, handicap: r.handicap, start: r.start, moves };
  if (seconds) body.seconds = seconds;
  return body;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The analysis panel: `current()` is the move number shown, `mark(numbers)` numbers points on
// the board, `go(n)` shows move n, `variation()` the request for a variation's position (null on
// the game's line); its destroy() stops the polling.
export function analysisPanel(r, { current, mark, go, variation }) {
  const total = r.moves.length;
  const status = el("p", { class: "status", "aria-live": "polite", id: "analysis-status" });
  const list = el("ol", { id: "candidates", "aria-label": _("Candidate moves") });
  const graphBox = el("div", { class: "winrate-graph", id: "winrate-graph" });
  const progress = el("p", { class: "muted", "aria-live": "polite", id: "graph-progress" });
  const mistakesBox = el("div", { id: "mistakes-box" });
  let shownFor = null; // the move number the candidates belong to
  let rates = null; // Black's win rate per position, null where not known yet
  let stopped = false;

  // An analysis answer shown: who is to play, Black's win rate, the candidates on the board.
  function showAnswer(a) {
    shownFor = current();
    status.textContent = _("{who} to play", { who: colorName(a.to_move) }) + " · " + _("Black's win rate: {p}", { p: formatPercent(a.winrate) });
    const numbers = {};
    list.replaceChildren();
    a.candidates.forEach((c, i) => {
      if (c.move !== "pass") numbers[c.move] = i + 1;
      list.append(el("li", { "data-move": c.move },
        _("{move}: Black's win rate {p} (visits: {visits})", { move: c.move === "pass" ? _("Pass") : c.move, p: formatPercent(c.winrate), visits: formatNumber(c.visits) })));
    });
    mark(numbers);
  }

  async function analyse() {
    const n = current();
    const body = variation() || analysisRequest(r, n);
    status.textContent = _("Analysing…");
    list.replaceChildren();
    try {
      const a = await api("POST", "/api/analysis", { body });
      if (current() !== n) { // the page moved on meanwhile
        status.textContent = "";
        return;
      }
      showAnswer(a);
    } catch (e) {
      status.textContent = e.message;
    }
  }

  // Called by the page when it shows another move: the candidates belong to the old one.
  function moved(n) {
    if (shownFor !== null && shownFor !== n) {
      shownFor = null;
      status.textContent = "";
      list.replaceChildren();
      mark({});
    }
    if (rates) redraw(graphBox, [drawGraph(rates, n)]);
  }

  // The game's analysis as the server has it: the graph, the progress and the mistakes.
  function showGame(state) {
    rates = state.positions.map((p) => (p ? p.winrate : null));
    const known = rates.filter((p) => p !== null).length;
    redraw(graphBox, [drawGraph(rates, current())]);
    progress.textContent = state.done || !state.running
      ? (state.error || (known < rates.length ? _("Analysed {n} of {total} positions.", { n: known, total: rates.length }) : ""))
      : known < rates.length
        ? _("Analysing the game: {n} of {total} positions…", { n: known, total: rates.length })
        : _("Checking the mistakes: the positions around them searched again…");
    showMistakes(state);
    graphButton.hidden = state.done || state.running;
  }

  function showMistakes(state) {
    if (!state.mistakes.length) {
      mistakesBox.replaceChildren(state.done ? el("p", { class: "muted", id: "no-mistakes" }, _("No move lost more than {p} of the win rate.", { p: formatPercent(MISTAKE_THRESHOLD, 0) })) : "");
      return;
    }
    const items = state.mistakes.map((m) => {
      const passes = _("passes"); // apart: Babel's extractor misses a call inside another's arguments
      const label = _("Move {n}: {who} {move}", { n: m.move, who: colorName(m.color), move: m.played === "pass" ? passes : m.played });
      const button = el("button", { type: "button", class: "link", "data-move": m.move, onclick: () => showMistake(m) }, label);
      const better = m.best ? " · " + _("better: {move}", { move: m.best === "pass" ? _("Pass") : m.best }) : "";
      return el("li", {}, button, " ", el("strong", { class: "drop" }, formatDrop(m.drop)), el("span", { class: "muted" }, better));
    });
    redraw(mistakesBox, [el("h4", {}, _("Mistakes")), el("ol", { id: "mistakes", "aria-label": _("Mistakes") }, items)]); // kept while the same
  }

  // A mistake shown: the position before it, the computer's better move numbered 1 on the board.
  function showMistake(m) {
    go(m.move - 1);
    shownFor = current();
    if (m.best && m.best !== "pass") mark({ [m.best]: 1 });
    list.replaceChildren();
    status.textContent = _("Move {n}: {who} played {move} and lost {drop}; the computer prefers {best}.", {
      n: m.move, who: colorName(m.color), move: m.played === "pass" ? _("Pass") : m.played, drop: formatPercent(m.drop),
      best: m.best === "pass" ? _("Pass") : m.best,
    });
  }

  // Read the game's analysis until it is done or stops; `start` asks the server to run it first.
  async function follow(start) {
    try {
      let state = await api(start ? "POST" : "GET", r.links.analysis);
      showGame(state);
      while (state.running && !stopped) {
        await sleep(POLL_MS);
        if (stopped || !document.body.contains(graphBox)) return;
        state = await api("GET", r.links.analysis);
        showGame(state);
      }
    } catch (e) {
      progress.textContent = e.message;
    }
  }

  // A press on the graph goes to the move under it, and dragging goes along the moves. The box
  // listens, not the graph, which each reading of a running analysis draws again: a click (press
  // and release) across a redraw would be lost.
  function pointAt(e) {
    const graph = graphBox.querySelector("svg.graph");
    const n = graph ? moveAt(graph, e.clientX) : null;
    if (n !== null && n !== current()) go(n);
  }
  graphBox.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !e.target.closest("svg.graph")) return;
    graphBox.setPointerCapture(e.pointerId);
    pointAt(e);
  });
  graphBox.addEventListener("pointermove", (e) => {
    if (graphBox.hasPointerCapture(e.pointerId)) pointAt(e);
  });

  const graphButton = el("button", { type: "button", id: "graph-button", onclick: () => follow(true) }, _("Analyse the game"));
  const root = el("section", { class: "analysis" },
    el("h3", {}, _("Analysis")),
    el("div", { class: "row" }, el("button", { type: "button", id: "analyse-button", onclick: analyse }, _("Analyse")), graphButton),
    status, list, progress, graphBox, mistakesBox);
  follow(false); // what is kept already: a reload shows the graph and the mistakes at once
  return { root, moved, showAnswer, destroy: () => { stopped = true; } };
}
