// The game page: the board, the clocks, the actions over the WebSocket, the marking phase and
// the count. All rules are the server's: the page sends what the player does and draws what the
// server answers (events, or the whole state when an event is more than a stone and its captures).
// It joins three parts: the socket (gamesocket.js), the state and its events (gamestate.js), and
// the views (board.js, gameview.js, gamecontrols.js).

import { _ } from "./i18n.js";
import { api, seatToken } from "./api.js";
import { el } from "./dom.js";
import { Board } from "./board.js";
import { GameSocket } from "./gamesocket.js";
import {
  DeadMarks, Outcome, applyEvent, chainOf, compensableMap, eventClockAt, isMyTurn, lastMove, markingStage, territoryMap,
  toMap, withSuggestion,
} from "./gamestate.js";
import {
  addChat, controlText, gameLayout, leadText, markingSummary, renderClocks, renderPlayers, renderScore, statusText,
} from "./gameview.js";
import { renderClaim, renderControls, renderEstimate, renderMarking } from "./gamecontrols.js";
import { errorText, refusalText } from "./refusals.js";
import { seatLinkBox, seatOfPlayer, takeSeatFromAddress } from "./seatlink.js";
import { linkPlayerNames } from "./players.js";
import { Sounds } from "./sounds.js";
import { ClockWatch } from "./clockwatch.js";
import { moveListPanel, positionAt, renderMoveList } from "./movelist.js";

const TICK_MS = 200; // the clocks' and the claim's countdown, and the actions' resends
const CONFIRM_KEY = "miai.confirmMove";
const QUIET_EVENTS = new Set(["clock"]); // events that change nothing a player acts on (a restart's note)

// Game `id` drawn in `main`; destroy() closes its socket and stops its timer.
export function showGame(main, id) {
  const page = new GamePage(main, id);
  page.start();
  return page;
}

class GamePage {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    takeSeatFromAddress(id); // ?seat= (an invitation) or #seat= (a seat link)
    this.token = seatToken(id);
    this.seat = null;
    this.hello = false; // the server has greeted this page's socket
    this.state = null;
    this.presence = null;
    this.clockAt = Date.now(); // the local time at which the state's clocks were true
    this.queue = null; // events that arrive while the whole state is being fetched
    this.marks = new DeadMarks();
    this.suggestion = null; // the last `suggestion` frame: the computer's estimate of a marking phase
    this.count = null; // the server's count of the marks shown ({key, score, territory, dead})
    this.countKey = null; // the marks whose count was asked last
    this.estimate = null; // the score estimate shown during play ({v, score, territory, dead}), or null
    this.estimating = false;
    this.candidate = null; // a move waiting for confirmation
    this.lastTried = null;
    const stored = localStorage.getItem(CONFIRM_KEY);
    this.confirmMove = stored === null ? matchMedia("(pointer: coarse)").matches : stored === "1";
    this.timer = null;
    this.destroyed = false;
    this.sounds = new Sounds();
    this.viewing = null; // the move whose position the board shows, read-only; null: the game
    this.review = null; // the game's steps (GET /api/games/{id}/review), for the positions shown
    this.socket = new GameSocket(id, {
      query: () => ({ v: this.state ? this.state.v : null, token: this.token }),
      onFrame: (t, d, action) => this.frame(t, d, action),
      onChange: () => this.render(),
    });
    this.actions = this.makeActions();
  }

  async start() {
    this.main.append(el("p", { class: "muted" }, _("Loading…")));
    if (!this.token) this.token = await seatOfPlayer(this.id); // a signed-in player's seat follows them
    if (this.destroyed) return;
    let state;
    try {
      state = await api("GET", `/api/games/${this.id}`, { token: this.token });
    } catch (e) {
      if (!this.destroyed) this.main.replaceChildren(el("p", { class: "error" }, e.message));
      return;
    }
    if (this.destroyed) return;
    this.setState(state, Date.now());
    this.build();
    this.render();
    this.socket.connect();
  }

  // Close the socket and stop the timer: the page is left or drawn again.
  destroy() {
    this.destroyed = true;
    this.socket.close();
    clearInterval(this.timer);
  }

  build() {
    const s = this.state;
    document.title = "miai · " + _("{size}×{size} game", { size: s.size });
    this.board = new Board(s.size, { onClick: (v) => this.clicked(v) });
    this.moveList = moveListPanel((n) => this.showMove(n));
    this.clockWatch = new ClockWatch(this.sounds, (text) => this.announce(text));
    this.view = gameLayout(this.id, this.board, this.moveList, {
      confirmMove: this.confirmMove,
      muted: this.sounds.muted,
      onMute: (muted) => this.sounds.setMuted(muted),
      onChat: (text) => this.socket.post("chat", { text }),
      onConfirmMove: (on) => {
        this.confirmMove = on;
        localStorage.setItem(CONFIRM_KEY, on ? "1" : "0");
        this.candidate = null;
        this.render();
      },
    });
    this.seatLink = seatLinkBox(this.id);
    this.view.root.querySelector(".side").append(this.seatLink.root);
    this.main.replaceChildren(this.view.root, this.view.dialog);
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  // What the buttons do, each with the version the page shows when it is clicked.
  makeActions() {
    const send = (t, d = {}) => this.socket.send(t, { ...d, v: this.state.v });
    return {
      play: (vertex) => this.play(vertex),
      cancel: () => {
        this.candidate = null;
        this.render();
      },
      pass: () => send("play", { move: "pass" }),
      undo: () => send("undo"),
      answerUndo: (accept) => send("undo_answer", { accept }),
      resign: () => send("resign"),
      claim: () => send("claim"),
      propose: () => send("dead", { dead: this.marks.sorted() }),
      accept: () => send("accept", { dead: this.marks.sorted() }), // exactly the stones shown
      refuse: () => send("refuse"),
      restore: () => {
        this.marks.restore();
        this.render();
      },
      estimate: () => this.toggleEstimate(),
    };
  }

  tick() {
    this.socket.resend(Date.now());
    this.renderClocks();
    this.renderClaim();
  }

  // ------------------------------------------------------------------ what the server says
  // Frame `t` with data `d`; `action` is the page's action ({t, d}) an ack or reject answers.
  frame(t, d, action) {
    switch (t) {
      case "hello":
        this.hello = true;
        this.seat = d.seat;
        this.presence = d.presence;
        break;
      case "full":
        this.setState(d, Date.now());
        break;
      case "event":
        this.event(d);
        return;
      case "presence":
        this.presence = d;
        break;
      case "players":
        if (this.state) this.state = { ...this.state, players: d };
        break;
      case "seat":
        this.seat = d.seat;
        break;
      case "chat":
        addChat(this.view.chatLog, d);
        return;
      case "suggestion":
        // it may come before the state of the marking phase it is for (kept until then) or after
        this.suggestion = d;
        this.setState(this.state, this.clockAt);
        break;
      case "ack":
        this.say("");
        break;
      case "reject":
        if (d.error === "stale-version" && action) {
          this.retryStale(action);
          return;
        }
        this.say(refusalText(d, this.lastTried));
        if (d.status === 409) this.refetch();
        break;
      case "error":
        if (d.error === "forbidden" && this.token && !this.seat) {
          this.token = null; // not a seat of this game (any more): watch instead
        }
        this.say(errorText(d));
        break;
      default:
        return;
    }
    this.render();
  }

  // An action refused for the version it was made against (`action.d.v`): sent again with the
  // game's version when the events since changed nothing a player acts on (the note on the
  // clocks a restart writes), else dropped, and the page says so.
  async retryStale(action) {
    let events = null;
    try {
      events = (await api("GET", `/api/games/${this.id}/events?after=${action.d.v}`, { token: this.token })).events;
    } catch {
      events = null;
    }
    if (this.destroyed) return;
    if (events && events.length && events.every((e) => QUIET_EVENTS.has(e.kind))) {
      const { a, ...fields } = action.d;
      this.socket.send(action.t, { ...fields, v: events[events.length - 1].v });
      return;
    }
    const move = action.t === "play" ? action.d.move : null;
    this.say(move && move !== "pass"
      ? _("The game moved on before your move {vertex} reached the server: it was not played. Look at the board and play again.", { vertex: move })
      : _("The game moved on before your action reached the server: it was not carried out. Look again and retry."));
    this.refetch();
  }

  // The state `s`, its clocks true at local time `at`, with the computer's estimate of its
  // marking phase if it came first (a starting point, never over the player's own marks).
  setState(s, at) {
    const estimated = withSuggestion(s, this.suggestion);
    if (estimated !== s) this.marks.estimateArrived();
    this.state = estimated;
    this.clockAt = at;
  }

  async refetch() {
    if (this.queue) return;
    this.queue = [];
    try {
      const s = await api("GET", `/api/games/${this.id}`, { token: this.token });
      if (!this.state || s.v >= this.state.v) this.setState(s, Date.now());
    } catch (e) {
      this.say(e.message);
    }
    const queued = this.queue;
    this.queue = null;
    for (const e of queued) this.event(e);
    this.render();
  }

  event(e) {
    if (this.queue) {
      this.queue.push(e);
      return;
    }
    const { state, outcome } = applyEvent(this.state, e);
    this.state = state;
    if (outcome !== Outcome.IGNORED) this.sound(e);
    if (outcome === Outcome.REFETCH) {
      this.say("");
      this.refetch();
    }
    if (outcome !== Outcome.APPLIED) return;
    if (e.clock) this.clockAt = eventClockAt(e, Date.now(), this.socket.offset);
    this.candidate = null;
    this.say(""); // the game moved on: an earlier refusal is no longer news
    this.render();
  }

  say(text) {
    if (this.view) this.view.message.textContent = text;
  }

  // Say `text` in the live region (for assistive technology; nothing is shown).
  announce(text) {
    if (!this.view) return;
    this.view.announcer.textContent = "";
    setTimeout(() => { if (this.view) this.view.announcer.textContent = text; }, 50); // the same text twice is said twice
  }

  // The sound of a move or a pass as it arrives.
  sound(e) {
    if (e.kind === "move") {
      if (e.captured && e.captured.length) this.sounds.capture();
      else this.sounds.stone();
    } else if (e.kind === "pass") {
      this.sounds.pass();
    }
  }

  // Show the position after move `n`, read-only (null, or the last move: the game as it stands).
  async showMove(n) {
    const s = this.state;
    if (n === null || n >= s.moves.length) {
      this.viewing = null;
      this.announce(_("Back to the game: move {n}.", { n: s.moves.length }));
      this.render();
      return;
    }
    if (!this.review || this.review.moves.length < s.moves.length || this.review.v !== s.v) {
      try {
        this.review = await api("GET", `/api/games/${this.id}/review`);
      } catch (e) {
        this.say(e.message);
        return;
      }
    }
    if (this.destroyed) return;
    this.viewing = Math.max(0, Math.min(n, this.review.moves.length));
    this.announce(_("Showing the position after move {n}: the board is read-only until you go back to the game.", { n: this.viewing }));
    this.render();
  }

  // ------------------------------------------------------------------ what the player does
  myTurn() {
    return isMyTurn(this.state, this.seat);
  }

  clicked(vertex) {
    const s = this.state;
    if (!s) return;
    if (!this.hello) return this.say(_("Connecting…"));
    if (this.viewing !== null) return this.announce(_("Showing the position after move {n}: the board is read-only until you go back to the game.", { n: this.viewing }));
    if (s.phase === "marking") return this.toggleChain(vertex);
    if (!this.seat) return this.say(_("You are watching this game: only its players can act."));
    if (s.phase !== "play") return;
    if (this.confirmMove && this.candidate !== vertex) {
      this.candidate = vertex;
      this.render();
      return;
    }
    this.play(vertex);
  }

  play(move) {
    this.candidate = null;
    this.lastTried = move;
    this.say("");
    this.socket.send("play", { move, v: this.state.v });
  }

  // Toggle the whole chain of the clicked stone (display only: the server counts a stone's
  // chain as marked anyway).
  toggleChain(vertex) {
    const step = this.markingStep();
    if (!step || !this.canMark(step)) return;
    const stones = toMap(this.state.stones);
    if (!stones[vertex]) return;
    this.marks.toggle(vertex, chainOf(stones, vertex, this.state.size));
    this.render();
  }

  // The marking step, the player's marks following it.
  markingStep() {
    const step = markingStage(this.state);
    if (step) this.marks.follow(step);
    return step;
  }

  canMark(step) {
    return this.seat === step.toAct && step.stage !== "final";
  }

  // ------------------------------------------------------------------ the count and the estimate
  // Ask the server for the count of the marks shown, once per set of marks (the latest answer wins).
  async askCount() {
    const dead = this.marks.sorted();
    const key = `${this.state.v}|${dead.join(",")}`;
    if (this.countKey === key) return;
    this.countKey = key;
    try {
      const count = await api("GET", `/api/games/${this.id}/count?dead=${dead.join(",")}`);
      if (this.countKey !== key || this.destroyed) return;
      this.count = { key, ...count };
      this.render();
    } catch {
      // the count is an aid: the marking goes on without it
    }
  }

  // The count drawn now: the marks' count while it is theirs.
  shownCount() {
    return this.count && this.count.key === this.countKey && this.count.key === `${this.state.v}|${this.marks.sorted().join(",")}`
      ? this.count : null;
  }

  // Ask for the computer's score estimate, or hide the one shown.
  async toggleEstimate() {
    if (this.estimate) {
      this.estimate = null;
      this.render();
      return;
    }
    this.estimating = true;
    this.render();
    try {
      const estimate = await api("POST", `/api/games/${this.id}/estimate`);
      if (!this.destroyed && estimate.v === this.state.v) {
        this.estimate = estimate;
        this.say("");
      }
    } catch (e) {
      this.say(e.status === 503 || e.status === 429
        ? _("The server is busy: ask for the estimate again in a moment.")
        : _("The score could not be estimated now."));
    }
    this.estimating = false;
    this.render();
  }

  // What the board shows besides the stones: {dead, territory} of the count of a finished game, of
  // the marks in the marking phase, or of the estimate during play (hidden once the game moves on).
  overlay(step) {
    const s = this.state;
    if (this.estimate && (this.estimate.v !== s.v || s.phase !== "play")) this.estimate = null;
    if (step) {
      const count = this.shownCount();
      return { dead: this.marks.stones, territory: count ? territoryMap(count.territory) : {} };
    }
    if (s.phase === "finished") return { dead: new Set(s.score ? s.score.dead : []), territory: territoryMap(s.territory) };
    if (this.estimate) return { dead: new Set(this.estimate.dead), territory: territoryMap(this.estimate.territory) };
    return { dead: new Set(), territory: {} };
  }

  // ------------------------------------------------------------------ drawing
  render() {
    const s = this.state;
    if (!s || !this.board) return;
    const step = s.phase === "marking" ? this.markingStep() : null;
    if (step) this.askCount();
    const myTurn = this.myTurn();
    this.drawBoard(s, step, myTurn);
    renderMoveList(this.moveList, s.moves, this.viewing);
    const v = this.view;
    renderPlayers(v.players, s, this.seat, this.presence);
    linkPlayerNames(v.players, s); // a signed-in player's name to their page, with their rank
    v.chatForm.hidden = !this.seat;
    v.control.textContent = controlText(s);
    v.status.textContent = statusText(s, step, { myTurn, connected: this.socket.open, sending: this.socket.sending });
    this.claimBox = renderControls(v.controls, v.dialog, s, { seat: this.seat, myTurn, candidate: this.candidate }, this.actions);
    this.renderClaim();
    const marking = { mine: Boolean(step) && this.seat === step.toAct, marked: this.marks.stones.size, changed: this.marks.differs() };
    renderMarking(v.markingBox, step, marking, this.actions);
    renderEstimate(v.estimateBox, s, { shown: Boolean(this.estimate), asking: this.estimating }, this.actions.estimate);
    const lead = this.estimate ? leadText(this.estimate.score) : "";
    if (v.lead.textContent !== lead) v.lead.textContent = lead;
    renderScore(v.scoreBox, s, step ? this.shownCount() : null);
    const summary = step ? markingSummary(this.marks.stones.size, this.shownCount()) : "";
    if (v.announce.textContent !== summary) v.announce.textContent = summary;
    this.seatLink.update(this.seat && s.phase !== "finished" ? this.token : null);
    this.renderClocks();
  }

  // The board: the game as it stands, or the position after the move being viewed (read-only).
  drawBoard(s, step, myTurn) {
    const viewed = this.viewing !== null && this.review ? positionAt(this.review, this.viewing) : null;
    const live = !viewed;
    this.board.ghostColor = myTurn && live ? this.seat : null;
    this.board.root.classList.toggle("playable", live && Boolean(myTurn || (step && this.canMark(step))));
    this.board.root.classList.toggle("viewing", !live);
    this.board.update(viewed
      ? { stones: viewed.stones, last: viewed.last, ko: null, dead: new Set(), territory: {}, compensable: {}, pending: null }
      : {
        stones: toMap(s.stones),
        last: lastMove(s),
        ko: s.phase === "play" ? s.ko : null,
        ...this.overlay(step),
        compensable: compensableMap(s),
        pending: this.candidate,
      });
  }

  renderClocks() {
    if (!this.state || !this.view) return;
    const shown = renderClocks(this.view.players, this.state, Date.now() - this.clockAt);
    this.clockWatch.update(shown, this.state, this.seat);
  }

  renderClaim() {
    const now = Date.now() + this.socket.offset;
    renderClaim(this.claimBox, this.view.dialog, this.state, { seat: this.seat, presence: this.presence, now }, this.actions.claim);
  }
}
