// The computer's analysis on the review page (POST /api/analysis, docs/SERVER.md §3.6): the
// candidates of the position shown, numbered on the board and listed as text with Black's win
// rate; and a win-rate graph over the game, one short analysis per position, in order, with
// its progress and a Stop button, drawn in SVG (clicking it goes to that move).

import { _, colorName, formatNumber, formatPercent } from "./i18n.js";
import { api } from "./api.js";
import { el, svg } from "./dom.js";

const GRAPH_SECONDS = 0.3; // per position of the graph
const W = 300;
const H = 100;

// The request for the position after `n` moves of review `r`: the review's own facts and steps.
export function analysisRequest(r, n, seconds) {
  const moves = r.moves.slice(0, n).map((m) => (m.edits ? { color: m.color, move: m.move, edits: m.edits } : { color: m.color, move: m.move }));
  const body = { size: r.size, rules: r.rules, handicap: r.handicap, start: r.start, moves };
  if (seconds) body.seconds = seconds;
  return body;
}

const percent = (x) => formatPercent(x);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The analysis panel: `current()` is the move number shown, `mark(numbers)` numbers the
// candidates on the board, `go(n)` shows move n; its destroy() stops the graph.
export function analysisPanel(r, { current, mark, go }) {
  const total = r.moves.length;
  const status = el("p", { class: "status", "aria-live": "polite", id: "analysis-status" });
  const list = el("ol", { id: "candidates", "aria-label": _("Candidate moves") });
  const graphBox = el("div", { class: "winrate-graph", id: "winrate-graph" });
  const progress = el("p", { class: "muted", "aria-live": "polite", id: "graph-progress" });
  let shownFor = null; // the move number the candidates belong to
  let running = null; // the graph's run: {stopped}

  async function analyse() {
    const n = current();
    status.textContent = _("Analysing…");
    list.replaceChildren();
    try {
      const a = await api("POST", "/api/analysis", { body: analysisRequest(r, n) });
      if (current() !== n) { // the page moved on meanwhile
        status.textContent = "";
        return;
      }
      shownFor = n;
      status.textContent = _("{who} to play", { who: colorName(a.to_move) }) + " · " + _("Black's win rate: {p}", { p: percent(a.winrate) });
      const numbers = {};
      a.candidates.forEach((c, i) => {
        if (c.move !== "pass") numbers[c.move] = i + 1;
        list.append(el("li", { "data-move": c.move },
          _("{move}: Black's win rate {p} (visits: {visits})", { move: c.move === "pass" ? _("Pass") : c.move, p: percent(c.winrate), visits: formatNumber(c.visits) })));
      });
      mark(numbers);
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
  }

  function drawGraph(rates) {
    const x = (n) => (total ? (n / total) * W : 0);
    const y = (p) => H - p * H;
    const g = svg("svg", { viewBox: `-4 -4 ${W + 8} ${H + 8}`, class: "graph", role: "img", "aria-label": _("Black's win rate by move (click to go to a move)") });
    g.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "graph-back" }));
    g.append(svg("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-half" }));
    const known = rates.map((p, n) => [n, p]).filter(([, p]) => p !== null);
    g.append(svg("polyline", { points: known.map(([n, p]) => `${x(n).toFixed(1)},${y(p).toFixed(1)}`).join(" "), class: "graph-line" }));
    for (const [n, p] of known) {
      const dot = svg("circle", { cx: x(n), cy: y(p), r: 1.6, class: "graph-dot", "data-move": n });
      const title = svg("title");
      title.textContent = _("Move {n}: Black's win rate {p}", { n, p: percent(p) });
      dot.append(title);
      g.append(dot);
    }
    g.addEventListener("click", (e) => {
      const box = g.getBoundingClientRect();
      const fraction = (e.clientX - box.left) / box.width;
      const n = Math.round(((fraction * (W + 8) - 4) / W) * total);
      go(Math.max(0, Math.min(total, n)));
    });
    graphBox.replaceChildren(g);
  }

  async function graph() {
    if (running) return;
    const run = { stopped: false };
    running = run;
    graphButton.disabled = true;
    stopButton.hidden = false;
    const rates = new Array(total + 1).fill(null);
    try {
      for (let n = 0; n <= total && !run.stopped; n++) {
        if (!document.body.contains(graphBox)) break; // the page was left
        progress.textContent = _("Analysing position {n} of {total}…", { n, total });
        try {
          rates[n] = (await api("POST", "/api/analysis", { body: analysisRequest(r, n, GRAPH_SECONDS) })).winrate;
        } catch (e) {
          if (e.status === 429 || e.status === 503) {
            await sleep(1000 * ((e.body && e.body.retry_after) || 2));
            n--; // the same position again
            continue;
          }
          throw e;
        }
        drawGraph(rates);
      }
      progress.textContent = run.stopped ? _("Stopped.") : "";
    } catch (e) {
      progress.textContent = e.message;
    } finally {
      running = null;
      graphButton.disabled = false;
      stopButton.hidden = true;
    }
  }

  const graphButton = el("button", { type: "button", id: "graph-button", onclick: graph }, _("Win-rate graph"));
  const stopButton = el("button", { type: "button", id: "graph-stop", hidden: true, onclick: () => running && (running.stopped = true) }, _("Stop"));
  const root = el("section", { class: "analysis" },
    el("h3", {}, _("Analysis")),
    el("div", { class: "row" }, el("button", { type: "button", id: "analyse-button", onclick: analyse }, _("Analyse")), graphButton, stopButton),
    status, list, progress, graphBox);
  return { root, moved, destroy: () => running && (running.stopped = true) };
}
