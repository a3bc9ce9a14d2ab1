// The review page: a game of this server (/r/ID) or an uploaded record (/review), move by move
// (a slider, the arrow keys), each step placing a move's stone and lifting its captured stones as
// the server listed them; SGF download and numbered diagrams of a range of moves.

import { _, colorName, describeResult, formatNumber, playerName, rulesName } from "./i18n.js";
import { ApiError, api } from "./api.js";
import { errorText } from "./refusals.js";
import { el } from "./dom.js";
import { Board } from "./board.js";
import { analysisPanel } from "./analysis.js";

// The review drawn in `main`: game `id`'s, or (id null) a form for a record to upload. Its
// destroy() stops what the drawn review started (its keys, the analysis's graph).
export function showReview(main, id) {
  const page = {
    drawn: null, // the review drawn, once its record is here
    destroyed: false,
    destroy() {
      this.destroyed = true;
      if (this.drawn) this.drawn.destroy();
    },
  };
  const drawn = (r, sgfText) => {
    if (!page.destroyed) page.drawn = draw(main, r, id, sgfText);
  };
  const failed = (e) => {
    if (!page.destroyed) main.replaceChildren(el("p", { class: "error" }, e.status === 404 ? _("There is no such game.") : e.message));
  };
  if (id) {
    main.append(el("p", { class: "muted" }, _("Loading…")));
    api("GET", `/api/games/${id}/review`).then((r) => drawn(r), failed);
    return page;
  }
  const file = el("input", { type: "file", accept: ".sgf,.gib,.ngf,application/x-go-sgf", id: "sgf-file", "aria-label": _("SGF file") });
  const text = el("textarea", { rows: 6, id: "sgf-text", "aria-label": _("SGF text"), placeholder: "(;GM[1]SZ[19];B[pd];W[dp]...)", style: "width:100%" });
  const error = el("p", { class: "error", role: "alert" });
  const go = async () => {
    error.textContent = "";
    const body = file.files && file.files[0] ? await file.files[0].arrayBuffer() : text.value;
    try {
      const answer = await fetch("/api/reviews", { method: "POST", headers: { "Content-Type": "application/x-go-sgf" }, body });
      const data = await answer.json();
      if (!answer.ok) throw new ApiError(answer.status, data);
      drawn(data, typeof body === "string" ? body : new TextDecoder().decode(body));
    } catch (e) {
      // the reader's own words say where the record breaks: kept, marked as English
      error.replaceChildren(e.message, ...(e.body && e.body.message && e.body.error === "unreadable" ? [" ", el("small", { lang: "en" }, `(${e.body.message})`)] : []));
    }
  };
  main.replaceChildren(el("section", { class: "panel" },
    el("h1", {}, _("Review an SGF file")),
    el("p", {}, file), el("p", {}, text),
    el("button", { type: "button", class: "primary", onclick: go }, _("Review")), error));
  return page;
}

// Review `r` drawn in `main`; its destroy() removes the keys' listener and stops the analysis.
function draw(main, r, id, sgfText) {
  document.title = `miai · ${_("Review")}`;
  const board = new Board(r.size);
  const total = r.moves.length;
  const slider = el("input", { type: "range", min: 0, max: total, value: total, id: "move-slider", "aria-label": _("Move number") });
  const counter = el("p", { class: "status", "aria-live": "polite", id: "move-counter" });
  const comment = el("div", { class: "comment", hidden: true });
  let shown = total;
  let analysis = null;

  // The stones after `n` moves, from the start and each move's stone and captures.
  function position(n) {
    const stones = {};
    for (const v of r.start.black) stones[v] = "black";
    for (const v of r.start.white) stones[v] = "white";
    let last = null;
    for (let i = 0; i < n; i++) {
      const m = r.moves[i];
      if (m.move !== "pass") stones[m.move] = m.color;
      for (const v of m.captured) delete stones[v];
      for (const e of m.edits || []) {
        for (const v of e.empty) delete stones[v];
        for (const v of e.black) stones[v] = "black";
        for (const v of e.white) stones[v] = "white";
      }
      last = m.move === "pass" ? null : m.move;
    }
    return { stones, last };
  }

  function show(n) {
    shown = Math.max(0, Math.min(total, n));
    slider.value = String(shown);
    const { stones, last } = position(shown);
    const finalDead = shown === total && r.score ? new Set(r.score.dead) : new Set();
    board.update({ stones, last, dead: finalDead });
    if (analysis) analysis.moved(shown);
    const m = shown ? r.moves[shown - 1] : null;
    const passes = _("passes");
    counter.textContent = m
      ? _("Move {n} of {total}: {who} {move}", { n: shown, total, who: colorName(m.color), move: m.move === "pass" ? passes : m.move })
      : _("Start: {total} moves", { total });
    const text = r.comments[String(shown)];
    comment.hidden = !text;
    comment.textContent = text || "";
  }

  slider.addEventListener("input", () => show(Number(slider.value)));
  const keys = (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10, Home: -total, End: total }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    show(shown + step);
  };
  document.addEventListener("keydown", keys);

  const nav = el("div", { class: "row" },
    el("button", { type: "button", onclick: () => show(0), "aria-label": _("First move") }, "«"),
    el("button", { type: "button", onclick: () => show(shown - 1), "aria-label": _("Previous move") }, "◀"),
    el("button", { type: "button", onclick: () => show(shown + 1), "aria-label": _("Next move") }, "▶"),
    el("button", { type: "button", onclick: () => show(total), "aria-label": _("Last move") }, "»"));

  const side = el("aside", { class: "side" });
  const names = `${colorName("black")}: ${playerName(r.players.black) || "?"} · ${colorName("white")}: ${playerName(r.players.white) || "?"}`;
  side.append(
    el("p", {}, names),
    el("p", { class: "muted" }, `${r.size}×${r.size} · ${rulesName(r.rules)} · ${_("komi {komi}", { komi: formatNumber(r.komi) })}`),
    el("p", { class: "status" }, r.result ? describeResult(r.result, true) : r.result_text || _("Not finished")),
    counter, slider, nav, comment);
  if (id) {
    side.append(el("p", {}, el("a", { href: `/api/games/${id}/sgf`, class: "button", download: `miai-${id}.sgf` }, _("Download SGF"))));
    side.append(...diagramTools(id, total));
  } else if (sgfText) {
    const blob = new Blob([sgfText], { type: "application/x-go-sgf" });
    side.append(el("p", {}, el("a", { href: URL.createObjectURL(blob), download: "review.sgf", class: "button" }, _("Download SGF"))));
  }
  analysis = analysisPanel(r, { current: () => shown, mark: (numbers) => board.update({ numbers }), go: show });
  side.append(analysis.root);
  if (r.repairs && r.repairs.length) side.append(el("details", {}, el("summary", {}, _("Repairs")), el("ul", { lang: "en" }, r.repairs.map((t) => el("li", {}, t)))));
  main.replaceChildren(el("div", { class: "review" }, el("div", { class: "board-wrap" }, board.root), side));
  show(total);
  return {
    destroy() {
      document.removeEventListener("keydown", keys);
      analysis.destroy();
    },
  };
}

// The numbered diagram of a range of game `id`'s moves: the range, its button and the figure.
// The server's figure (diagram.svg: its notes "12 at 7", "17 pass" in English) with the notes'
// words in the page's language, as a data: address for the image and its download.
function translatedDiagram(svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const words = { at: _("at"), pass: _("pass") };
  for (const note of doc.querySelectorAll("text.note")) note.textContent = words[note.textContent] || note.textContent;
  return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(doc));
}

function diagramTools(id, total) {
  const diagramBox = el("div", { class: "diagram" });
  const from = el("input", { type: "number", min: 1, max: Math.max(1, total), value: 1, id: "diagram-from", "aria-label": _("From move"), style: "width:5rem" });
  const to = el("input", { type: "number", min: 1, max: Math.max(1, total), value: Math.max(1, Math.min(total, 50)), id: "diagram-to", "aria-label": _("To move"), style: "width:5rem" });
  const showDiagram = async () => {
    const answer = await fetch(`/api/games/${id}/diagram.svg?moves=${from.value}-${to.value}`);
    if (!answer.ok) {
      diagramBox.replaceChildren(el("p", { class: "error" }, errorText(await answer.json(), answer.status)));
      return;
    }
    const url = translatedDiagram(await answer.text());
    diagramBox.replaceChildren(el("img", { src: url, alt: _("Moves {from} to {to}, numbered", { from: from.value, to: to.value }) }),
      el("a", { href: url, download: `miai-${id}-${from.value}-${to.value}.svg` }, _("Download the diagram")));
  };
  return [
    el("h3", {}, _("Diagram")),
    el("div", { class: "row" }, from, "–", to,
      el("button", { type: "button", id: "diagram-button", onclick: showDiagram }, _("Show the diagram"))),
    diagramBox,
  ];
}
