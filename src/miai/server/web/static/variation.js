// Variations on the review page: a click on the board tries a move from the position shown.
// The server replays it through the rules core (POST /api/analysis, docs/SERVER.md §3.6): an
// illegal move is refused with its rule, said in words; a legal one is answered with the stones
// after it and the computer's best reply, which is played too, and the position after the reply
// is analysed. The page draws the stones it is sent: it knows no rule of Go. "Back to the game"
// returns to the game's line.

import { _ } from "./i18n.js";
import { api } from "./api.js";
import { el } from "./dom.js";
import { refusalText } from "./refusals.js";
import { analysisRequest } from "./analysis.js";

const REPLY_SECONDS = 0.5; // the computer's reply to a move tried
const ANSWER_SECONDS = 1; // the analysis of the position after the reply

// The variations of review `r`, drawn on `board`: `shown()` is the move number shown (where a
// variation starts), `analysed(answer)` shows an analysis of the variation's position, `back()`
// shows the game's line again.
export function variations(r, { board, shown, analysed, back }) {
  let line = null; // the variation shown: {base, moves: [vertex, ...]}, or null
  let busy = false;
  const status = el("p", { class: "status", id: "variation-status", "aria-live": "polite" });
  const backButton = el("button", { type: "button", id: "variation-back", hidden: true, onclick: () => back() }, _("Back to the game"));
  const root = el("div", { class: "variation" }, status, backButton);

  const request = (base, moves, seconds) => {
    const body = analysisRequest(r, base, seconds);
    body.moves = [...body.moves, ...moves];
    return body;
  };

  function describe(base, moves) {
    const numbered = moves.map((m, i) => `${base + i + 1}. ${m === "pass" ? _("Pass") : m}`).join("  ");
    return _("Variation from move {n}: {moves}", { n: base, moves: numbered });
  }

  async function play(vertex) {
    if (busy) return;
    busy = true;
    const base = line ? line.base : shown();
    const tried = [...(line ? line.moves : []), vertex];
    status.textContent = _("The computer is thinking…");
    try {
      const mine = await api("POST", "/api/analysis", { body: request(base, tried, REPLY_SECONDS) });
      const reply = mine.candidates.length ? mine.candidates[0].move : null;
      let answer = mine;
      const moves = reply ? [...tried, reply] : tried;
      if (reply) answer = await api("POST", "/api/analysis", { body: request(base, moves, ANSWER_SECONDS) });
      line = { base, moves };
      const last = moves[moves.length - 1] === "pass" ? vertex : moves[moves.length - 1];
      board.ghostColor = answer.to_move;
      board.update({ stones: Object.fromEntries([
        ...answer.stones.black.map((v) => [v, "black"]), ...answer.stones.white.map((v) => [v, "white"])]), last, dead: new Set(), numbers: {} });
      status.textContent = describe(base, moves);
      backButton.hidden = false;
      analysed(answer);
    } catch (e) {
      status.textContent = e.status === 422 && e.body && e.body.reason ? refusalText({ reason: e.body.reason }, vertex) : e.message;
    } finally {
      busy = false;
    }
  }

  // Back on the game's line (the page shows a move): the variation is forgotten.
  function leave() {
    line = null;
    status.textContent = "";
    backButton.hidden = true;
  }

  // The request for the variation's position (for the Analyse button), or null on the game's line.
  function current(seconds) {
    return line ? request(line.base, line.moves, seconds) : null;
  }

  return { root, play, leave, current };
}
