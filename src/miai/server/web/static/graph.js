// The win-rate graph of a review (SVG): Black's win rate (0 to 100%, a dashed 50% line) by move
// number, with its axes and their labels, the positions analysed so far joined by a line, and a
// marker on the move shown; `moveAt` reads the move under the pointer.

import { _ } from "./i18n.js";
import { svg } from "./dom.js";
import { formatNumber, formatPercent } from "./reviewtexts.js";

const W = 280; // the plot's width and height, in SVG units
const H = 100;
const LEFT = 40; // room for the axes' labels ("100 %" in es/it/pt) clear of the vertical title
const BOTTOM = 26;
const TOP = 6;
const RIGHT = 8;

// A step between the move numbers written on the x axis: about six of them.
function tickStep(total) {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000]) if (total / step <= 6) return step;
  return Math.ceil(total / 6);
}

function text(x, y, words, attrs = {}) {
  const t = svg("text", { x, y, ...attrs });
  t.textContent = words;
  return t;
}

// The graph of `rates` (Black's win rate per position, null where unknown), the marker on
// position `shown`. Its markup says all it shows (the last move in data-total), so `redraw` can keep it.
export function drawGraph(rates, shown) {
  const total = Math.max(1, rates.length - 1);
  const x = (n) => LEFT + (n / total) * W;
  const y = (p) => TOP + H - p * H;
  const g = svg("svg", {
    viewBox: `0 0 ${LEFT + W + RIGHT} ${TOP + H + BOTTOM}`, class: "graph", role: "img", "data-total": total,
    "aria-label": _("Black's win rate by move (click to go to a move)"),
  });
  g.append(svg("rect", { x: LEFT, y: TOP, width: W, height: H, class: "graph-back" }));
  for (const p of [0, 0.5, 1]) {
    g.append(text(LEFT - 3, y(p) + 2.5, formatPercent(p, 0), { "text-anchor": "end", class: "graph-label" }));
  }
  g.append(svg("line", { x1: LEFT, y1: y(0.5), x2: LEFT + W, y2: y(0.5), class: "graph-half" }));
  const step = tickStep(total);
  for (let n = 0; n <= total; n += step) {
    g.append(svg("line", { x1: x(n), y1: TOP + H, x2: x(n), y2: TOP + H + 3, class: "graph-tick" }));
    g.append(text(x(n), TOP + H + 11, formatNumber(n), { "text-anchor": "middle", class: "graph-label" }));
  }
  g.append(text(LEFT + W / 2, TOP + H + 22, _("Move"), { "text-anchor": "middle", class: "graph-label graph-axis" }));
  g.append(text(4, TOP + H / 2, _("Black's win rate"), { "text-anchor": "middle", class: "graph-label graph-axis", transform: `rotate(-90 4 ${TOP + H / 2})`, "dominant-baseline": "hanging" }));
  const known = rates.map((p, n) => [n, p]).filter(([, p]) => p !== null);
  g.append(svg("polyline", { points: known.map(([n, p]) => `${x(n).toFixed(1)},${y(p).toFixed(1)}`).join(" "), class: "graph-line" }));
  for (const [n, p] of known) {
    const dot = svg("circle", { cx: x(n), cy: y(p), r: rates.length > 60 ? 1 : 1.6, class: "graph-dot", "data-move": n });
    const title = svg("title");
    title.textContent = _("Move {n}: Black's win rate {p}", { n, p: formatPercent(p) });
    dot.append(title);
    g.append(dot);
  }
  if (shown !== null && shown <= total) {
    g.append(svg("line", { x1: x(shown), y1: TOP, x2: x(shown), y2: TOP + H, class: "graph-marker", "data-move": shown }));
  }
  return g;
}

// The move under the pointer at `clientX` on a graph that drawGraph made, the nearest one in range.
export function moveAt(graph, clientX) {
  const total = Number(graph.dataset.total);
  const box = graph.getBoundingClientRect();
  const units = ((clientX - box.left) / box.width) * (LEFT + W + RIGHT);
  return Math.max(0, Math.min(total, Math.round(((units - LEFT) / W) * total)));
}
