// The game page: the board, the clocks, the actions over the WebSocket, the marking phase and
// the count. All rules are the server's: the page sends what the player does and draws what the
// server answers (events, or the whole state when an event is more than a stone and its captures).

import { _, colorName, describeResult, ngettext } from "./i18n.js";
import { api, keepSeat, newActionId, seatToken } from "./api.js";
import { el } from "./dom.js";
import { Board, parseVertex, vertexName } from "./board.js";
import { describeControl, sideClock } from "./clock.js";

const RESEND_MS = 4000;
const OTHER = { black: "white", white: "black" };

export function showGame(main, id) {
  new GamePage(main, id).start();
}

function toMap(stones) {
  const map = {};
  for (const v of stones.black) map[v] = "black";
  for (const v of stones.white) map[v] = "white";
  return map;
}

class GamePage {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    const params = new URLSearchParams(location.search);
    const seat = params.get("seat");
    if (seat) {
      keepSeat(id, seat);
      history.replaceState(null, "", location.pathname);
    }
    this.token = seatToken(id);
    this.seat = null;
    this.state = null;
    this.presence = null;
    this.pending = new Map();
    this.selection = null; // the dead stones this player marks, in the marking phase
    this.selectionKey = null;
    this.candidate = null; // a move waiting for confirmation
    this.backoff = 500;
    this.offset = 0; // server time - local time
    this.clockAt = Date.now();
    this.queue = null; // events that arrive while the whole state is being fetched
    const stored = localStorage.getItem("miai.confirmMove");
    this.confirmMove = stored === null ? matchMedia("(pointer: coarse)").matches : stored === "1";
    this.suggestion = null;
  }

  // ------------------------------------------------------------------ the page's parts
  build() {
    const s = this.state;
    document.title = `miai · ${s.size}×${s.size}`;
    this.board = new Board(s.size, { onClick: (v) => this.clicked(v) });
    this.players = {};
    const side = el("aside", { class: "side" });
    for (const color of ["black", "white"]) {
      const row = el("div", { class: `player ${color}`, "data-color": color });
      const parts = {
        row,
        name: el("span", { class: "name" }),
        presence: el("span", { class: "presence" }),
        captures: el("span", { class: "captures" }),
        clock: el("span", { class: "clock", role: "timer" }),
        sub: el("span", { class: "clock-sub" }),
      };
      row.append(
        el("span", { class: `dot ${color}`, "aria-hidden": "true" }),
        el("div", { class: "who" }, parts.name, parts.presence, parts.captures),
        el("div", { class: "time" }, parts.clock, parts.sub),
      );
      this.players[color] = parts;
      side.append(row);
    }
    this.control = el("p", { class: "control muted" });
    this.status = el("p", { class: "status", id: "status", "aria-live": "polite" });
    this.message = el("p", { class: "message", id: "message", role: "alert" });
    this.controls = el("div", { class: "controls", id: "controls" });
    this.markingBox = el("div", { class: "marking", id: "marking" });
    this.scoreBox = el("div", { class: "score", id: "score" });
    this.chatLog = el("ul", { class: "chat-log", "aria-live": "polite" });
    const chatInput = el("input", { type: "text", maxlength: 300, "aria-label": _("Chat message"), placeholder: _("Say something") });
    const chatForm = el("form", {
      class: "chat-form",
      onsubmit: (e) => {
        e.preventDefault();
        const text = chatInput.value.trim();
        if (!text || !this.ws || this.ws.readyState !== 1) return;
        this.ws.send(JSON.stringify({ t: "chat", d: { text } }));
        chatInput.value = "";
      },
    }, chatInput, el("button", { type: "submit" }, _("Send")));
    const confirmBox = el("input", { type: "checkbox", id: "confirm-move", checked: this.confirmMove });
    confirmBox.addEventListener("change", () => {
      this.confirmMove = confirmBox.checked;
      localStorage.setItem("miai.confirmMove", this.confirmMove ? "1" : "0");
      this.candidate = null;
      this.render();
    });
    side.append(
      this.control, this.status, this.message, this.controls, this.markingBox, this.scoreBox,
      el("details", { class: "chat" }, el("summary", {}, _("Chat")), this.chatLog, chatForm),
      el("p", { class: "options" }, el("label", { for: "confirm-move" }, confirmBox, " ", _("Confirm each move"))),
      el("p", { class: "links" },
        el("a", { href: `/r/${this.id}` }, _("Review")), " · ",
        el("a", { href: `/api/games/${this.id}/sgf` }, _("Download SGF"))),
    );
    this.dialog = el("div", { class: "dialog", hidden: true, role: "dialog", "aria-modal": "true" });
    this.main.replaceChildren(el("div", { class: "game" }, el("div", { class: "board-wrap" }, this.board.root), side), this.dialog);
    setInterval(() => this.tick(), 200);
  }

  async start() {
    this.main.append(el("p", { class: "muted" }, _("Loading…")));
    try {
      this.state = await api("GET", `/api/games/${this.id}`, { token: this.token });
    } catch (e) {
      this.main.replaceChildren(el("p", { class: "error" }, e.status === 404 ? _("There is no such game.") : e.message));
      return;
    }
    this.clockAt = Date.now();
    this.build();
    this.render();
    this.connect();
  }

  // ------------------------------------------------------------------ the connection
  connect() {
    const q = new URLSearchParams();
    if (this.state) q.set("v", String(this.state.v));
    if (this.token) q.set("token", this.token);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/game/${this.id}?${q}`);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.pingSent = Date.now();
      ws.send(JSON.stringify({ t: "ping" }));
      for (const [, p] of this.pending) {
        p.sent = Date.now();
        ws.send(JSON.stringify({ t: p.t, d: p.d }));
      }
      this.render();
    };
    ws.onmessage = (m) => {
      let f;
      try {
        f = JSON.parse(m.data);
      } catch {
        return;
      }
      this.frame(f.t, f.d);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.render();
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 15000);
    };
  }

  send(t, d) {
    const a = newActionId();
    const p = { t, d: { ...d, a }, sent: Date.now() };
    this.pending.set(a, p);
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ t, d: p.d }));
    this.render();
    return a;
  }

  tick() {
    const now = Date.now();
    if (this.ws && this.ws.readyState === 1) {
      for (const [, p] of this.pending) {
        if (now - p.sent > RESEND_MS) {
          p.sent = now;
          this.ws.send(JSON.stringify({ t: p.t, d: p.d }));
        }
      }
    }
    this.renderClocks();
    this.renderClaim();
  }

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
        if (this.state) this.state.players = d;
        break;
      case "seat":
        this.seat = d.seat;
        break;
      case "chat":
        this.chatLog.append(el("li", {}, el("b", {}, d.from === "spectator" ? _("Spectator") : colorName(d.from)), " ", d.text));
        this.chatLog.scrollTop = this.chatLog.scrollHeight;
        return;
      case "suggestion":
        this.suggestion = d;
        if (this.state && this.state.marking) this.state.marking.suggested = d;
        if (!this.edited) this.selectionKey = null; // the estimate is a starting point, never over the player's own marks
        break;
      case "pong":
        this.offset = d.server_ms - (this.pingSent + Date.now()) / 2;
        return;
      case "ack":
        this.pending.delete(d.a);
        this.say("");
        break;
      case "reject":
        this.pending.delete(d.a);
        this.explain(d);
        if (d.status === 409) this.refetch();
        break;
      case "error":
        if (d.error === "forbidden" && this.token && !this.seat) {
          this.token = null; // not a seat of this game (any more): watch instead
        }
        this.say(d.message || "");
        break;
      default:
        return;
    }
    this.render();
  }

  setState(s, at) {
    this.state = s;
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
    const s = this.state;
    if (!s || e.v <= s.v) return;
    if (e.v !== s.v + 1 || (e.kind !== "move" && e.kind !== "pass")) {
      this.refetch();
      return;
    }
    if (e.kind === "move") {
      const other = OTHER[e.color];
      s.stones[e.color].push(e.move);
      const gone = new Set(e.captured);
      s.stones[other] = s.stones[other].filter((v) => !gone.has(v));
      s.captures[e.color] += e.captured.length;
      s.moves.push(e.move);
      s.ko = e.ko;
      s.to_move = other;
    } else {
      s.moves.push("pass");
      s.ko = null;
      if (e.phase !== "play") {
        this.refetch();
        return;
      }
      s.to_move = OTHER[e.color];
    }
    s.undo_request = null;
    s.v = e.v;
    if (e.clock) {
      s.clocks = e.clock;
      this.clockAt = Date.now() - Math.max(0, Date.now() + this.offset - e.at_ms);
    }
    this.candidate = null;
    this.render();
  }

  say(text) {
    if (this.message) this.message.textContent = text;
  }

  explain(r) {
    const v = r.move || this.lastTried || "";
    const texts = {
      occupied: () => _("{vertex} is taken: there is already a stone on it.", { vertex: v }),
      suicide: () => _("Suicide is not allowed: a stone on {vertex} would have no liberty and capture nothing.", { vertex: v }),
      ko: () => _("Ko: you cannot take back the ko at once. Play elsewhere first (a ko threat), then you may retake."),
      superko: () => r.repeats_move
        ? _("Superko: {vertex} would repeat the position after move {n}.", { vertex: v, n: r.repeats_move })
        : _("Superko: {vertex} would repeat an earlier position.", { vertex: v }),
      "out-of-turn": () => _("It is not your turn."),
      "out-of-time": () => _("Your time ran out."),
      "wrong-phase": () => _("That cannot be done now."),
      "not-a-stone": () => _("Only stones can be marked dead."),
      "nothing-to-undo": () => _("There is no move of yours to take back."),
      "undo-pending": () => _("An undo request is already waiting for an answer."),
      "not-gone-yet": () => _("Your opponent has not been away long enough yet."),
      "opponent-present": () => _("Your opponent is here: the game cannot be claimed."),
    };
    if (r.status === 409) this.say(_("The game moved on meanwhile: look again and retry."));
    else if (r.status === 403) this.say(_("You are watching this game: only its players can act."));
    else this.say(texts[r.reason] ? texts[r.reason]() : r.message);
  }

  // ------------------------------------------------------------------ what the player does
  myTurn() {
    const s = this.state;
    return s && this.seat && s.phase === "play" && s.to_move === this.seat;
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
    this.send("play", { move, v: this.state.v });
  }

  // Toggle the whole chain of the clicked stone: the same-coloured stones connected to it (display
  // only: the server counts a stone's chain as marked anyway).
  toggleChain(vertex) {
    const s = this.state;
    const step = this.markingStep();
    if (!step || !step.canEdit) return;
    const stones = toMap(s.stones);
    const color = stones[vertex];
    if (!color) return;
    const chain = new Set([vertex]);
    const todo = [vertex];
    while (todo.length) {
      const [c, r] = parseVertex(todo.pop(), s.size);
      for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const nc = c + dc, nr = r + dr;
        if (nc < 0 || nr < 0 || nc >= s.size || nr >= s.size) continue;
        const n = vertexName(nc, nr);
        if (stones[n] === color && !chain.has(n)) {
          chain.add(n);
          todo.push(n);
        }
      }
    }
    const dead = !this.selection.has(vertex);
    this.edited = true;
    for (const v of chain) {
      if (dead) this.selection.add(v);
      else this.selection.delete(v);
    }
    this.render();
  }

  // The marking step as this page sees it: who acts, what they may do, the list shown.
  markingStep() {
    const s = this.state;
    const m = s.marking;
    if (!m) return null;
    const first = m.first;
    const second = OTHER[first];
    const mine = this.seat === m.to_act;
    let stage, shown;
    if (!m.pending) {
      stage = "propose";
      shown = m.suggested ? m.suggested.dead : [];
    } else if (m.pending.by === first) {
      stage = "answer";
      shown = m.pending.dead;
    } else {
      stage = "final";
      shown = m.pending.dead;
    }
    const key = `${s.v}|${stage}`;
    if (this.selectionKey !== key) {
      this.selectionKey = key;
      this.selection = new Set(shown);
      this.edited = false;
    }
    return { stage, first, second, mine, canEdit: mine && stage !== "final", shown };
  }

  async ask(text, yes) {
    return new Promise((resolve) => {
      const done = (answer) => {
        this.dialog.hidden = true;
        this.dialog.replaceChildren();
        resolve(answer);
      };
      this.dialog.replaceChildren(
        el("div", { class: "dialog-box" },
          el("p", {}, text),
          el("div", { class: "row" },
            el("button", { type: "button", class: "primary", onclick: () => done(true) }, yes),
            el("button", { type: "button", onclick: () => done(false) }, _("Cancel")))),
      );
      this.dialog.hidden = false;
      this.dialog.querySelector("button").focus();
    });
  }

  button(label, onclick, cls = "") {
    return el("button", { type: "button", class: cls, onclick }, label);
  }

  // ------------------------------------------------------------------ drawing
  render() {
    const s = this.state;
    if (!s || !this.board) return;
    const stones = toMap(s.stones);
    const last = s.moves.length && s.moves[s.moves.length - 1] !== "pass" ? s.moves[s.moves.length - 1] : null;
    const step = s.phase === "marking" ? this.markingStep() : null;
    let dead = new Set();
    if (step) dead = this.selection;
    else if (s.score) dead = new Set(s.score.dead);
    this.board.ghostColor = this.myTurn() ? this.seat : null;
    this.board.root.classList.toggle("playable", Boolean(this.myTurn() || (step && step.canEdit)));
    const compensable = {};
    for (const [color, points] of Object.entries(s.compensable || {})) {
      for (const v of points) compensable[v] = color;
    }
    this.board.update({
      stones,
      last,
      ko: s.phase === "play" ? s.ko : null,
      dead,
      compensable,
      pending: this.candidate,
    });
    for (const color of ["black", "white"]) {
      const p = this.players[color];
      const kind = s[color];
      const nameless = s.moves.length ? _("no name") : _("waiting for a player"); // a program's seat has none
      const name = s.players[color] || (kind && kind.startsWith("computer") ? _("Computer, level {n}", { n: kind.split(":")[1] }) : nameless);
      const you = _("you");
      p.name.textContent = `${colorName(color)}: ${name}` + (this.seat === color ? ` (${you})` : "");
      p.captures.textContent = ngettext("{n} prisoner", "{n} prisoners", s.captures[color]);
      const here = this.presence && (this.presence[color] || (kind && kind.startsWith("computer")));
      p.presence.textContent = here ? _("connected") : _("away");
      p.presence.className = `presence ${here ? "on" : "off"}`;
      p.row.classList.toggle("to-move", s.phase !== "finished" && s.to_move === color);
    }
    const clocks = s.clocks;
    this.control.textContent = clocks && clocks.control !== "none"
      ? _("Clock: {control}", { control: describeControl(clocks.control, clocks.describe) })
      : _("No clock") + (s.komi !== undefined ? " · " : "") + _("komi {komi}", { komi: s.komi });
    if (clocks && clocks.control !== "none") this.control.textContent += " · " + _("komi {komi}", { komi: s.komi });
    this.renderStatus(step);
    this.renderControls(step);
    this.renderMarking(step);
    this.renderScore();
    this.renderClocks();
  }

  renderStatus(step) {
    const s = this.state;
    let text;
    if (s.phase === "finished") {
      text = _("Game over: {result}", { result: this.resultText() });
    } else if (s.phase === "marking") {
      const who = colorName(s.marking.to_act);
      text = {
        propose: _("Marking the dead stones: {who} proposes which stones are dead.", { who }),
        answer: _("Marking the dead stones: {who} accepts the proposal or proposes other dead stones.", { who }),
        final: _("Marking the dead stones: {who} accepts the counter-proposal or resumes play.", { who }),
      }[step.stage];
    } else if (this.myTurn()) {
      text = _("Your move.");
    } else {
      text = _("{who} to move.", { who: colorName(s.to_move) });
    }
    if (!this.ws || this.ws.readyState !== 1) text += " " + _("(reconnecting…)");
    if (this.pending.size) text += " " + _("(sending…)");
    this.status.textContent = text;
  }

  resultText() {
    return describeResult(this.state.result);
  }

  renderControls(step) {
    const s = this.state;
    const c = this.controls;
    c.replaceChildren();
    if (!this.seat) {
      c.append(el("p", { class: "muted" }, _("You are watching this game.")));
      return;
    }
    if (s.phase === "play") {
      const myTurn = this.myTurn();
      if (this.candidate) {
        c.append(this.button(_("Play {vertex}", { vertex: this.candidate }), () => this.play(this.candidate), "primary"));
        c.append(this.button(_("Cancel"), () => { this.candidate = null; this.render(); }));
      }
      const pass = this.button(_("Pass"), async () => {
        if (await this.ask(_("Pass your turn?"), _("Pass"))) this.send("play", { move: "pass", v: this.state.v });
      });
      pass.disabled = !myTurn;
      c.append(pass);
      const undo = this.button(_("Undo"), () => this.send("undo", { v: this.state.v }));
      undo.disabled = !s.moves.length || Boolean(s.undo_request);
      c.append(undo);
      c.append(this.button(_("Resign"), async () => {
        if (await this.ask(_("Resign this game?"), _("Resign"))) this.send("resign", { v: this.state.v });
      }, "danger"));
      const u = s.undo_request;
      if (u && u.by !== this.seat) {
        c.append(el("div", { class: "request" },
          el("p", {}, _("{who} asks to take back a move.", { who: colorName(u.by) })),
          this.button(_("Allow the undo"), () => this.send("undo_answer", { accept: true, v: this.state.v }), "primary"),
          this.button(_("Refuse the undo"), () => this.send("undo_answer", { accept: false, v: this.state.v }))));
      } else if (u) {
        c.append(el("p", { class: "muted" }, _("Undo requested: waiting for the answer.")));
      }
    }
    if (s.phase !== "finished") {
      this.claimBox = el("div", { class: "claim" });
      c.append(this.claimBox);
      this.renderClaim();
    }
  }

  renderClaim() {
    const s = this.state;
    if (!this.claimBox || !s || s.phase === "finished" || !this.seat || !this.presence) return;
    const other = OTHER[this.seat];
    const gone = this.presence.gone && this.presence.gone[other];
    if (!gone) {
      if (this.claimBox.childElementCount) this.claimBox.replaceChildren();
      return;
    }
    const now = Date.now() + this.offset;
    const wait = gone.claim_at_ms - now;
    if (s.to_move !== other) {
      this.claimBox.replaceChildren(el("p", { class: "muted" }, _("Your opponent is away.")));
    } else if (wait > 0) {
      this.claimBox.replaceChildren(el("p", { class: "muted" }, _("Your opponent is away. You can claim the game in {s} s.", { s: Math.ceil(wait / 1000) })));
    } else if (!this.claimBox.querySelector("button")) {
      this.claimBox.replaceChildren(
        el("p", {}, _("Your opponent has left.")),
        this.button(_("Claim the victory"), async () => {
          if (await this.ask(_("End the game: your opponent left?"), _("Claim the victory"))) this.send("claim", { v: this.state.v });
        }, "primary"));
    }
  }

  renderMarking(step) {
    const box = this.markingBox;
    box.replaceChildren();
    if (!step) return;
    const s = this.state;
    const n = this.selection.size;
    box.append(el("h3", {}, _("Dead stones")));
    box.append(el("p", { class: "muted" }, ngettext("{n} stone marked dead.", "{n} stones marked dead.", n)));
    if (!step.mine) {
      box.append(el("p", {}, _("Waiting for {who}.", { who: colorName(s.marking.to_act) })));
      return;
    }
    const dead = () => [...this.selection].sort();
    if (step.stage === "propose") {
      box.append(el("p", {}, _("Click a stone to mark its group dead or alive, then propose.")));
      box.append(this.button(_("Propose these dead stones"), () => this.send("dead", { dead: dead(), v: s.v }), "primary"));
    } else if (step.stage === "answer") {
      box.append(el("p", {}, _("Accept your opponent's proposal, or change it and propose yours.")));
      box.append(this.button(_("Accept"), () => this.send("accept", { v: s.v }), "primary"));
      box.append(this.button(_("Propose other dead stones"), () => this.send("dead", { dead: dead(), v: s.v })));
    } else {
      box.append(el("p", {}, _("Accept the counter-proposal, or refuse it: play resumes.")));
      box.append(this.button(_("Accept"), () => this.send("accept", { v: s.v }), "primary"));
      box.append(this.button(_("Resume play"), () => this.send("refuse", { v: s.v })));
    }
  }

  renderScore() {
    const box = this.scoreBox;
    const s = this.state;
    box.replaceChildren();
    if (s.phase !== "finished") return;
    box.append(el("h3", {}, this.resultText()));
    const sc = s.score;
    if (!sc) return;
    const rows = [
      ["territory", _("Territory")],
      ["stones", _("Stones")],
      ["prisoners", _("Prisoners")],
      ["dead", _("Dead stones")],
      ["compensation", _("Compensation")],
      ["komi", _("Komi")],
      ["handicap_bonus", _("Handicap")],
      ["total", _("Total")],
    ];
    const table = el("table", { class: "breakdown", id: "breakdown" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", { scope: "col" }, colorName("black")), el("th", { scope: "col" }, colorName("white")))));
    const body = el("tbody");
    for (const [key, label] of rows) {
      const b = sc.black[key], w = sc.white[key];
      if (b === undefined || (b === 0 && w === 0 && key !== "total")) continue;
      body.append(el("tr", { "data-row": key }, el("th", { scope: "row" }, label), el("td", {}, String(b)), el("td", {}, String(w))));
    }
    if (sc.neutral) body.append(el("tr", { "data-row": "neutral" }, el("th", { scope: "row" }, _("Neutral points (dame)")), el("td", { colspan: 2 }, String(sc.neutral))));
    table.append(body);
    box.append(table);
    if (sc.dead.length) box.append(el("p", { class: "muted" }, _("Dead stones: {list}", { list: sc.dead.join(" ") })));
    this.board.update({ territory: {} });
  }

  renderClocks() {
    const s = this.state;
    if (!s || !this.players) return;
    const view = s.clocks;
    for (const color of ["black", "white"]) {
      const p = this.players[color];
      if (!view || view.control === "none") {
        p.clock.textContent = "";
        p.sub.textContent = "";
        continue;
      }
      const frozen = s.phase === "finished";
      const shown = sideClock(view, color, frozen ? 0 : Date.now() - this.clockAt);
      p.clock.textContent = shown.main;
      p.clock.classList.toggle("low", shown.low && !frozen);
      p.clock.classList.toggle("ticking", view.ticking === color && !frozen);
      p.sub.textContent = shown.sub;
      p.clock.setAttribute("aria-label", `${colorName(color)}: ${shown.main} ${shown.sub}`);
    }
  }
}
