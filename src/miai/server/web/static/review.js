// The review page: a game of this server (/r/ID), an uploaded record kept by the server
// (/review/ID), or a form to upload one (/review, which moves to the review's own address once
// it is read). Move by move (a slider, the arrow keys), each step placing a move's stone and
// lifting its captured stones as the server listed them; the move shown is in the address
// (?move=N), so a reload or a shared link shows the same move. Variations tried on the board,
// the computer's analysis, the SGF and numbered diagrams of a range of moves.

import { _, colorName, describeResult, playerName } from "./i18n.js";
import { ApiError, api } from "./api.js";
import { errorText } from "./refusals.js";
import { el } from "./dom.js";
import { Board } from "./board.js";
import { analysisPanel } from "./analysis.js";
import { variations } from "./variation.js";
import { formatNumber } from "./reviewtexts.js";
import { termsText } from "./gameterms.js";
import { repairText } from "./repairs.js";

// The review drawn in `main`: `what` is {game: id}, {upload: id} or {} (the upload form). Its
// destroy() stops what the drawn review started (its keys, the analysis's polling).
export function showReview(main, what) {
  const page = {
    drawn: null, // the review drawn, once its record is here
    destroyed: false,
    destroy() {
      this.destroyed = true;
      if (this.drawn) this.drawn.destroy();
    },
  };
  const drawn = (r) => {
    if (!page.destroyed) page.drawn = draw(main, r);
  };
  const failed = (e) => {
    const missing = what.game ? _("There is no such game.") : _("There is no such review.");
    if (!page.destroyed) main.replaceChildren(el("p", { class: "error" }, e.status === 404 ? missing : e.message));
  };
  if (what.game || what.upload) {
    main.append(el("p", { class: "muted" }, _("Loading…")));
    const path = what.game ? `/api/games/${what.game}/review` : `/api/reviews/${what.upload}`;
    api("GET", path).then(drawn, failed);
    return page;
  }
  main.replaceChildren(uploadForm((r) => {
    history.replaceState(null, "", r.links.page); // the review's permanent address
    drawn(r);
  }));
  return page;
}

// The form that uploads a record (a file or pasted text); `done(review)` once the server kept it.
function uploadForm(done) {
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
      done(data);
    } catch (e) {
      // the reader's own words say where the record breaks: kept, marked as English
      error.replaceChildren(e.message, ...(e.body && e.body.message && e.body.error === "unreadable" ? [" ", el("small", { lang: "en" }, `(${e.body.message})`)] : []));
    }
  };
  return el("section", { class: "panel" },
    el("h1", {}, _("Review an SGF file")),
    el("p", {}, file), el("p", {}, text),
    el("button", { type: "button", class: "primary", id: "review-button", onclick: go }, _("Review")), error);
}

// The move the address names (?move=N), or null.
function moveInAddress() {
  const n = new URLSearchParams(location.search).get("move");
  return n !== null && /^\d+$/.test(n) ? Number(n) : null;
}

// The stones after `n` moves of review `r`, from the start and each move's stone and captures.
export function position(r, n) {
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

// Who plays after `n` moves of `r`: the record's next mover, else the other of the last one.
function toMove(r, n) {
  if (n < r.moves.length) return r.moves[n].color;
  if (n > 0) return r.moves[n - 1].color === "black" ? "white" : "black";
  return r.handicap > 1 ? "white" : "black";
}

// A player as the record names them: "Shin Jinseo (9p)", or "?" for a seat without a name.
function player(r, color) {
  const name = playerName(r.players[color]) || "?";
  const rank = r.ranks && r.ranks[color];
  return rank ? `${name} (${rank})` : name;
}

// Review `r` drawn in `main`; its destroy() removes the keys' listener and stops the analysis.
function draw(main, r) {
  document.title = `miai · ${_("Review")}`;
  const total = r.moves.length;
  const slider = el("input", { type: "range", min: 0, max: total, value: total, id: "move-slider", "aria-label": _("Move number") });
  const counter = el("p", { class: "status", "aria-live": "polite", id: "move-counter" });
  const comment = el("div", { class: "comment", hidden: true });
  let shown = total;
  let analysis = null;
  const tryMove = (vertex) => variation.play(vertex);
  const board = new Board(r.size, { onClick: tryMove });

  function show(n, { keepVariation = false } = {}) {
    if (!keepVariation) variation.leave();
    shown = Math.max(0, Math.min(total, n));
    slider.value = String(shown);
    const url = new URL(location.href);
    url.searchParams.set("move", String(shown));
    history.replaceState(null, "", url.pathname + url.search);
    const { stones, last } = position(r, shown);
    const finalDead = shown === total && r.score ? new Set(r.score.dead) : new Set();
    board.ghostColor = toMove(r, shown);
    board.update({ stones, last, dead: finalDead, numbers: {} });
    if (analysis) analysis.moved(shown);
    const m = shown ? r.moves[shown - 1] : null;
    const passes = _("passes"); // apart: Babel's extractor misses a call inside another's arguments
    counter.textContent = m
      ? _("Move {n} of {total}: {who} {move}", { n: shown, total, who: colorName(m.color), move: m.move === "pass" ? passes : m.move })
      : _("Start: {total} moves", { total });
    const text = r.comments[String(shown)];
    comment.hidden = !text;
    comment.textContent = text || "";
  }

  const variation = variations(r, {
    board,
    shown: () => shown,
    analysed: (a) => analysis && analysis.showAnswer(a),
    back: () => show(shown),
  });

  slider.addEventListener("input", () => show(Number(slider.value)));
  const keys = (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.target instanceof HTMLTextAreaElement) return;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10, Home: -total, End: total }[e.key];
    if (step === undefined || (e.target instanceof Element && e.target.closest("svg.board"))) return;
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
  side.append(
    el("p", { id: "review-players" }, `${colorName("black")}: ${player(r, "black")} · ${colorName("white")}: ${player(r, "white")}`),
    el("p", { class: "muted", id: "review-rules" }, `${formatNumber(r.size)}×${formatNumber(r.size)} · ${termsText(r)}`),
    el("p", { class: "status" }, r.result ? describeResult(r.result, true) : r.result_text || _("Not finished")),
    counter, slider, nav, variation.root, comment,
    el("p", { class: "row" },
      el("a", { href: r.links.sgf, class: "button", id: "download-sgf", download: `miai-${r.id}.sgf` }, _("Download SGF")),
      el("a", { href: r.links.page, id: "review-link" }, _("Link to this review"))));
  side.append(...diagramTools(r, total));
  analysis = analysisPanel(r, { current: () => shown, mark: (numbers) => board.update({ numbers }), go: show, variation: () => variation.current() });
  side.append(analysis.root);
  if (r.repairs && r.repairs.length) side.append(el("details", {}, el("summary", {}, _("Repairs")), el("ul", {}, r.repairs.map((t, i) => repairItem(t, (r.repair_details || [])[i])))));
  main.replaceChildren(el("div", { class: "review" }, el("div", { class: "board-wrap" }, board.root), side));
  const asked = moveInAddress();
  show(asked === null ? total : asked);
  return {
    destroy() {
      document.removeEventListener("keydown", keys);
      analysis.destroy();
    },
  };
}

// One line of the repairs list: in the page's language, or the English as sent (marked so).
function repairItem(english, detail) {
  const { text, translated } = repairText(english, detail);
  return el("li", translated ? {} : { lang: "en" }, text);
}

// The server's figure (diagram.svg: its notes "12 at 7", "17 pass" in English) with the notes'
// words in the page's language, as a data: address for the image (the download is the server's).
function translatedDiagram(svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const words = { at: _("at"), pass: _("pass") };
  for (const note of doc.querySelectorAll("text.note")) note.textContent = words[note.textContent] || note.textContent;
  return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(doc));
}

// The numbered diagram of a range of review `r`'s moves: the range, its button, the figure
// and a link to download it.
function diagramTools(r, total) {
  const diagramBox = el("div", { class: "diagram", id: "diagram-box" });
  const from = el("input", { type: "number", min: 1, max: Math.max(1, total), value: 1, id: "diagram-from", "aria-label": _("From move"), style: "width:5rem" });
  const to = el("input", { type: "number", min: 1, max: Math.max(1, total), value: Math.max(1, Math.min(total, 50)), id: "diagram-to", "aria-label": _("To move"), style: "width:5rem" });
  const showDiagram = async () => {
    const url = `${r.links.diagram}?moves=${from.value}-${to.value}`;
    const answer = await fetch(url);
    if (!answer.ok) {
      const refusal = answer.status === 400 ? _("Choose moves from 1 to {total}.", { total }) : errorText({ status: answer.status, ...(await answer.json()) });
      diagramBox.replaceChildren(el("p", { class: "error" }, refusal));
      return;
    }
    diagramBox.replaceChildren(el("img", { src: translatedDiagram(await answer.text()), alt: _("Moves {from} to {to}, numbered", { from: from.value, to: to.value }) }),
      el("a", { href: url, download: `miai-${r.id}-${from.value}-${to.value}.svg`, id: "download-diagram" }, _("Download the diagram")));
  };
  return [
    el("h3", {}, _("Diagram")),
    el("div", { class: "row" }, from, "–", to,
      el("button", { type: "button", id: "diagram-button", onclick: showDiagram }, _("Show the diagram"))),
    diagramBox,
  ];
}
