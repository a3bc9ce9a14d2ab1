// The board, drawn in SVG: lines, star points, coordinates, stones, the last move, the ko point,
// marks (dead stones, territory) and a ghost stone under the pointer. It knows no rule of Go: it
// draws what it is given and says which point was clicked. Every point is an element with
// data-vertex="D4" and an accessible name; data-stone="black"|"white" while a stone stands there.

import { _ } from "./i18n.js";
import { svg } from "./dom.js";
import { LETTERS, parseVertex, vertexName } from "./vertex.js";

const U = 10; // one grid step in SVG units
const MARGIN = 1.6 * U; // from the board's edge to the first line: the coordinates' own strip, clear of the edge stones
const LABEL = 0.6 * U; // from the board's edge to the middle of a coordinate

// The SVG position of column or row index `i` (from the top-left line).
const at = (i) => MARGIN + i * U;

function starPoints(size) {
  if (size < 7) return [];
  const edge = size >= 13 ? 3 : 2;
  const far = size - 1 - edge;
  const pts = [[edge, edge], [edge, far], [far, edge], [far, far]];
  if (size % 2 === 1 && size >= 9) {
    const mid = (size - 1) / 2;
    pts.push([mid, mid]);
    if (size >= 13) pts.push([mid, edge], [mid, far], [edge, mid], [far, mid]);
  }
  return pts;
}

export class Board {
  constructor(size, { onClick = null } = {}) {
    this.size = size;
    this.onClick = onClick;
    this.points = new Map();
    this.ghostColor = null; // the colour of the ghost stone under the pointer, or null
    const full = 2 * MARGIN + (size - 1) * U;
    this.root = svg("svg", {
      viewBox: `0 0 ${full} ${full}`,
      class: "board",
      role: "grid",
      "aria-label": _("Go board, {size}×{size}", { size }),
    });
    this.root.append(svg("rect", { x: 0, y: 0, width: full, height: full, class: "wood", rx: 2 }));
    const lines = svg("g", { class: "lines" });
    for (let i = 0; i < size; i++) {
      const p = at(i);
      lines.append(svg("line", { x1: at(0), y1: p, x2: at(size - 1), y2: p }));
      lines.append(svg("line", { x1: p, y1: at(0), x2: p, y2: at(size - 1) }));
    }
    for (const [c, r] of starPoints(size)) {
      lines.append(svg("circle", { cx: at(c), cy: at(size - 1 - r), r: 1.1, class: "hoshi" }));
    }
    this.root.append(lines);
    const coords = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let i = 0; i < size; i++) {
      const p = at(i);
      const row = at(size - 1 - i) + 1.2; // the text's baseline, its middle on the line
      for (const [x, y, t] of [
        [p, LABEL + 1.2, LETTERS[i]],
        [p, full - LABEL + 1.2, LETTERS[i]],
        [LABEL, row, String(i + 1)],
        [full - LABEL, row, String(i + 1)],
      ]) {
        const text = svg("text", { x, y, "text-anchor": "middle" });
        text.textContent = t;
        coords.append(text);
      }
    }
    this.root.append(coords);
    this.layer = svg("g", { class: "points" });
    for (let r = size - 1; r >= 0; r--) {
      for (let c = 0; c < size; c++) {
        const name = vertexName(c, r);
        const g = svg("g", { "data-vertex": name, role: "gridcell", tabindex: "-1" });
        const x = at(c);
        const y = at(size - 1 - r);
        g.append(svg("rect", { x: x - U / 2, y: y - U / 2, width: U, height: U, class: "hit" }));
        g.addEventListener("click", () => this.onClick && this.onClick(name));
        g.addEventListener("pointerenter", () => this._ghost(name, true));
        g.addEventListener("pointerleave", () => this._ghost(name, false));
        g.addEventListener("keydown", (e) => this._key(e, c, r, name));
        this.layer.append(g);
        this.points.set(name, { g, x, y, stone: null, mark: null });
      }
    }
    this.root.append(this.layer);
    const mid = Math.floor(size / 2);
    this.focused = vertexName(mid, mid);
    this.points.get(this.focused).g.setAttribute("tabindex", "0"); // the board is one tab stop
    this.state = { stones: {}, last: null, ko: null, dead: new Set(), territory: {}, compensable: {}, pending: null, numbers: {} };
  }

  // The keyboard: arrows move between points (one tab stop, "roving"), Enter or Space plays.
  _key(e, c, r, name) {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (step) {
      e.preventDefault();
      const nc = Math.max(0, Math.min(this.size - 1, c + step[0]));
      const nr = Math.max(0, Math.min(this.size - 1, r + step[1]));
      const next = vertexName(nc, nr);
      this.points.get(this.focused).g.setAttribute("tabindex", "-1");
      this.focused = next;
      const g = this.points.get(next).g;
      g.setAttribute("tabindex", "0");
      g.focus();
    } else if ((e.key === "Enter" || e.key === " ") && this.onClick) {
      e.preventDefault();
      this.onClick(name);
    }
  }

  _ghost(name, on) {
    const p = this.points.get(name);
    const old = p.g.querySelector(".ghost");
    if (old) old.remove();
    if (!on || !this.ghostColor || p.stone) return;
    p.g.append(svg("circle", { cx: p.x, cy: p.y, r: U * 0.47, class: `ghost ${this.ghostColor}` }));
  }

  // stones: {vertex: "black"|"white"}; last, ko, pending: a vertex or null; dead: Set of vertices;
  // territory: {vertex: "black"|"white"}; compensable: {vertex: "black"|"white"}, the colour whose
  // compensable area (docs/RULES.md §5.8) the point is in; numbers: {vertex: number on the stone}.
  update(next) {
    this.state = { ...this.state, ...next };
    const { stones, last, ko, dead, territory, compensable, pending, numbers } = this.state;
    for (const [name, p] of this.points) {
      const color = stones[name] || null;
      const isDead = color && dead.has(name);
      const key = [color, name === last, name === ko, isDead, territory[name] || "", compensable[name] || "", name === pending, numbers[name] || ""].join("|");
      if (p.key === key) continue;
      p.key = key;
      for (const old of p.g.querySelectorAll(".stone, .mark, .ghost")) old.remove();
      p.stone = color;
      if (color) p.g.setAttribute("data-stone", color);
      else p.g.removeAttribute("data-stone");
      let label = name;
      if (color) label += ", " + (color === "black" ? _("black stone") : _("white stone"));
      else label += ", " + _("empty");
      if (color) {
        p.g.append(svg("circle", { cx: p.x, cy: p.y, r: U * 0.47, class: `stone ${color}${isDead ? " dead" : ""}` }));
      }
      if (isDead) {
        label += ", " + _("dead");
        const d = U * 0.22;
        p.g.append(svg("path", { d: `M${p.x - d} ${p.y - d}L${p.x + d} ${p.y + d}M${p.x + d} ${p.y - d}L${p.x - d} ${p.y + d}`, class: `mark cross on-${color}` }));
      }
      if (numbers[name]) {
        label += ", " + _("candidate {n}", { n: numbers[name] });
        p.g.setAttribute("data-number", String(numbers[name]));
      } else p.g.removeAttribute("data-number");
      if (numbers[name]) {
        const t = svg("text", { x: p.x, y: p.y + 1.5, "text-anchor": "middle", class: `mark number on-${color || "empty"}` });
        t.textContent = String(numbers[name]);
        p.g.append(t);
      } else if (name === last && color) {
        label += ", " + _("last move");
        p.g.append(svg("circle", { cx: p.x, cy: p.y, r: U * 0.2, class: `mark last on-${color}` }));
      }
      if (name === ko && !color) {
        label += ", " + _("ko: cannot be retaken now");
        p.g.append(svg("rect", { x: p.x - 2.2, y: p.y - 2.2, width: 4.4, height: 4.4, class: "mark ko" }));
      }
      if (territory[name] && (!color || isDead)) {
        label += ", " + (territory[name] === "black" ? _("black territory") : _("white territory"));
        p.g.append(svg("rect", { x: p.x - 1.6, y: p.y - 1.6, width: 3.2, height: 3.2, class: `mark territory ${territory[name]}` }));
      }
      if (compensable[name]) {
        p.g.setAttribute("data-compensable", compensable[name]);
        label += ", " + (compensable[name] === "black" ? _("in Black's compensable area") : _("in White's compensable area"));
        if (!color) {
          p.g.append(svg("circle", { cx: p.x, cy: p.y, r: U * 0.16, class: `mark compensable ${compensable[name]}` }));
        }
      } else {
        p.g.removeAttribute("data-compensable");
      }
      if (name === pending && !color) {
        label += ", " + _("your move, not yet confirmed");
        p.g.append(svg("circle", { cx: p.x, cy: p.y, r: U * 0.47, class: `mark pending ${this.ghostColor || "black"}` }));
      }
      p.g.setAttribute("aria-label", label);
    }
  }
}
