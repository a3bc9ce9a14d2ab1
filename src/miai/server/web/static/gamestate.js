// The game's state as the page knows it (GET /api/games/{id}, docs/SERVER.md §4) and how the
// server's events change it: pure functions, which never change the state they are given. The
// page applies a move or a pass itself, from the event's own captures and ko; anything more makes
// it read the whole state again.

import { parseVertex, vertexName } from "./vertex.js";

export const OTHER = { black: "white", white: "black" };

// What `applyEvent` made of an event.
export const Outcome = Object.freeze({
  IGNORED: "ignored", // an event the state already holds
  APPLIED: "applied",
  REFETCH: "refetch", // a gap in the versions, or more than a stone and its captures
});

// {vertex: "black"|"white"} from the state's {black: [...], white: [...]}.
export function toMap(stones) {
  const map = {};
  for (const v of stones.black) map[v] = "black";
  for (const v of stones.white) map[v] = "white";
  return map;
}

// The last move's vertex, or null at the start and after a pass.
export function lastMove(s) {
  const last = s.moves.length ? s.moves[s.moves.length - 1] : null;
  return last && last !== "pass" ? last : null;
}

// {vertex: colour} of the points in each colour's compensable area (docs/RULES.md §5.8).
export function compensableMap(s) {
  const map = {};
  for (const [color, points] of Object.entries(s.compensable || {})) {
    for (const v of points) map[v] = color;
  }
  return map;
}

// {vertex: colour} of the points a count gives each colour ({black: [...], white: [...]}: the
// server's `territory`), or {} without one.
export function territoryMap(territory) {
  const map = {};
  for (const [color, points] of Object.entries(territory || {})) {
    for (const v of points) map[v] = color;
  }
  return map;
}

// The colour whose pass the play now waits on (the opponent ends the play by passing too), or
// null: the last move is not a pass, or two passes resumed the play after a dispute.
export function lastPasser(s) {
  const n = s.moves.length;
  if (s.phase !== "play" || !n || s.moves[n - 1] !== "pass" || (n > 1 && s.moves[n - 2] === "pass")) return null;
  return OTHER[s.to_move];
}

// The state with the computer's dead-stone estimate (a `suggestion` frame, {v, dead, seki}) of the
// marking phase that opened at its version `v`, when the state stands there without one; else the
// state itself. The frame may come before or after the state that opens the phase: either way the
// estimate is shown.
export function withSuggestion(s, suggestion) {
  if (!s || !s.marking || s.marking.suggested || !suggestion || suggestion.v !== s.v) return s;
  const { v, dead, seki } = suggestion;
  return { ...s, marking: { ...s.marking, suggested: { v, dead, seki } } };
}

export function isMyTurn(s, seat) {
  return Boolean(s && seat && s.phase === "play" && s.to_move === seat);
}

// The state after event `e`: {state, outcome}. A move places its stone and lifts the captured
// stones it lists; a pass that ends the play is recorded, but the marking it starts comes with the
// whole state (REFETCH), as does any other kind of event or one that skips a version.
export function applyEvent(s, e) {
  if (!s || e.v <= s.v) return { state: s, outcome: Outcome.IGNORED };
  if (e.v !== s.v + 1 || (e.kind !== "move" && e.kind !== "pass")) return { state: s, outcome: Outcome.REFETCH };
  if (e.kind === "pass") {
    const passed = { ...s, moves: [...s.moves, "pass"], ko: null };
    if (e.phase !== "play") return { state: passed, outcome: Outcome.REFETCH };
    return { state: settled({ ...passed, to_move: OTHER[e.color] }, e), outcome: Outcome.APPLIED };
  }
  const other = OTHER[e.color];
  const gone = new Set(e.captured);
  const played = {
    ...s,
    stones: { ...s.stones, [e.color]: [...s.stones[e.color], e.move], [other]: s.stones[other].filter((v) => !gone.has(v)) },
    captures: { ...s.captures, [e.color]: s.captures[e.color] + e.captured.length },
    moves: [...s.moves, e.move],
    ko: e.ko,
    to_move: other,
  };
  return { state: settled(played, e), outcome: Outcome.APPLIED };
}

// What every applied event changes besides the board: no undo request waits any more, the
// version, and the clocks when the event carries them.
function settled(s, e) {
  return { ...s, undo_request: null, v: e.v, clocks: e.clock ? e.clock : s.clocks };
}

// The local time at which event `e`'s clocks were true: when the server stamped it (`at_ms`, in
// server time; `offset` is server time minus local time), never later than `now`.
export function eventClockAt(e, now, offset) {
  return now - Math.max(0, now + offset - e.at_ms);
}

// The marking step as the state says it (docs/RULES.md §5.5): {stage, first, second, toAct, shown,
// key}, stage "propose" (the first passer proposes; the computer's estimate shown), "answer" (the
// other accepts or proposes others) or "final" (the first accepts the counter-proposal or
// resumes play); `key` changes whenever the stones shown should be marked afresh. Null outside
// the marking.
export function markingStage(s) {
  const m = s.marking;
  if (!m) return null;
  const first = m.first;
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
  return { stage, first, second: OTHER[first], toAct: m.to_act, shown, key: `${s.v}|${stage}` };
}

// The chain of the stone on `vertex`: the stones of its colour connected to it (stones: toMap's).
export function chainOf(stones, vertex, size) {
  const color = stones[vertex];
  const chain = new Set([vertex]);
  const todo = [vertex];
  while (todo.length) {
    const [c, r] = parseVertex(todo.pop(), size);
    for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nc = c + dc, nr = r + dr;
      if (nc < 0 || nr < 0 || nc >= size || nr >= size) continue;
      const n = vertexName(nc, nr);
      if (stones[n] === color && !chain.has(n)) {
        chain.add(n);
        todo.push(n);
      }
    }
  }
  return chain;
}

// The dead stones this player marks in the marking phase: they start from the stones the step
// shows and follow the player's clicks until the step changes.
export class DeadMarks {
  constructor() {
    this.stones = new Set();
    this.shown = new Set(); // the stones the step shows (the proposal, or the estimate)
    this.key = null; // the step's key the marks belong to
    this.edited = false; // the player has clicked since
  }

  follow(step) {
    if (this.key === step.key) return;
    this.key = step.key;
    this.shown = new Set(step.shown);
    this.restore();
  }

  // Back to the stones the step shows.
  restore() {
    this.stones = new Set(this.shown);
    this.edited = false;
  }

  // Whether the player's marks are other stones than the step shows: then what can be sent is a
  // proposal of them, never an acceptance of the one shown before.
  differs() {
    return this.stones.size !== this.shown.size || [...this.stones].some((v) => !this.shown.has(v));
  }

  // The computer's estimate arrived: start again from it, unless the player has marked stones.
  estimateArrived() {
    if (!this.edited) this.key = null;
  }

  // Mark the chain dead if its first stone is alive, alive otherwise.
  toggle(vertex, chain) {
    const dead = !this.stones.has(vertex);
    this.edited = true;
    for (const v of chain) {
      if (dead) this.stones.add(v);
      else this.stones.delete(v);
    }
  }

  sorted() {
    return [...this.stones].sort();
  }
}
