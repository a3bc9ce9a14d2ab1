// The game page: the board, the clocks, the actions over the WebSocket, the marking phase and
// the count. All rules are the server's: the page sends what the player does and draws what the
// server answers (events, or the whole state when an event is more than a stone and its captures).
// It joins three parts: the socket (gamesocket.js), the state and its events (gamestate.js), and
// the views (board.js, gameview.js, gamecontrols.js).

import { _ } from "./i18n.js";
import { api, keepSeat, seatToken } from "./api.js";
import { el } from "./dom.js";
import { Board } from "./board.js";
import { GameSocket } from "./gamesocket.js";
import {
  DeadMarks, Outcome, applyEvent, chainOf, compensableMap, eventClockAt, isMyTurn, lastMove, markingStage, territoryMap,
  toMap, withSuggestion,
} from "./gamestate.js";
import { addChat, controlText, gameLayout, leadText, renderClocks, renderPlayers, renderScore, statusText } from "./gameview.js";
import { renderClaim, renderControls, renderEstimate, renderMarking } from "./gamecontrols.js";
import { errorText, refusalText } from "./refusals.js";

const TICK_MS = 200; // the clocks' and the claim's countdown, and the actions' resends
const CONFIRM_KEY = "miai.confirmMove";

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
    const seat = new URLSearchParams(location.search).get("seat");
    if (seat) {
      keepSeat(id, seat);
      history.replaceState(null, "", location.pathname);
    }
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
    this.socket = new GameSocket(id, {
      query: () => ({ v: this.state ? this.state.v : null, token: this.token }),
      onFrame: (t, d) => this.frame(t, d),
      onChange: () => this.render(),
    });
    this.actions = this.makeActions();
  }

  async start() {
    this.main.append(el("p", { class: "muted" }, _("Loading…")));
    let state;
    try {
      state = await api("GET", `/api/games/${this.id}`, { token: this.token });
    } catch (e) {
      if (!this.destroyed) this.main.replaceChildren(el("p", { class: "error" }, e.status === 404 ? _("There is no such game.") : e.message));
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
    this.view = gameLayout(this.id, this.board, {
      confirmMove: this.confirmMove,
      onChat: (text) => this.socket.post("chat", { text }),
      onConfirmMove: (on) => {
        this.confirmMove = on;
        localStorage.setItem(CONFIRM_KEY, on ? "1" : "0");
        this.candidate = null;
        this.render();
      },
    });
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
  frame(t, d) {
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
        this.say(refusalText(d, this.lastTried));
        if (d.status === 409) this.refetch();
        break;
      case "error":
        if (d.error === "forbidden" && this.token && !this.seat) {
          this.token = null; // not a seat of this game (any more): watch instead
        }
        this.say(errorText(d, d.status));
        break;
      default:
        return;
    }
    this.render();
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

  // ------------------------------------------------------------------ what the player does
  myTurn() {
    return isMyTurn(this.state, this.seat);
  }

  clicked(vertex) {
    const s = this.state;
    if (!s) return;
    if (!this.hello) return this.say(_("Connecting…"));
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
    this.board.ghostColor = myTurn ? this.seat : null;
    this.board.root.classList.toggle("playable", Boolean(myTurn || (step && this.canMark(step))));
    this.board.update({
      stones: toMap(s.stones),
      last: lastMove(s),
      ko: s.phase === "play" ? s.ko : null,
      ...this.overlay(step),
      compensable: compensableMap(s),
      pending: this.candidate,
    });
    const v = this.view;
    renderPlayers(v.players, s, this.seat, this.presence);
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
    this.renderClocks();
  }

  renderClocks() {
    if (this.state && this.view) renderClocks(this.view.players, this.state, Date.now() - this.clockAt);
  }

  renderClaim() {
    const now = Date.now() + this.socket.offset;
    renderClaim(this.claimBox, this.view.dialog, this.state, { seat: this.seat, presence: this.presence, now }, this.actions.claim);
  }
}
