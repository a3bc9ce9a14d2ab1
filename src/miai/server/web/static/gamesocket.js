// The game's WebSocket (/ws/game/{id}, docs/SERVER.md §4): it connects with the last version the
// page saw (`?v=`) and the seat's token, comes back by itself after a lost connection (after 0.5,
// 1, 2... up to 15 s), and sends each action again until the server acknowledges or refuses it.

import { newActionId } from "./api.js";

const RESEND_MS = 4000;
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 15000;

export class GameSocket {
  // `query()` gives {v, token} for each connection (either may be null); `onFrame(t, d, action)`
  // gets every frame but pong, with the action ({t, d}) an `ack` or `reject` answers; `onChange()` says the connection opened or was lost, or an action was sent.
  constructor(gameId, { query, onFrame, onChange }) {
    this.gameId = gameId;
    this.query = query;
    this.onFrame = onFrame;
    this.onChange = onChange;
    this.ws = null;
    this.pending = new Map(); // the actions not yet answered: action id -> {t, d, sent}
    this.backoff = FIRST_RETRY_MS;
    this.retry = null; // the timer of the next connection
    this.offset = 0; // server time - local time
    this.pingSent = 0;
    this.closed = false;
  }

  get open() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  // Whether an action waits for its answer.
  get sending() {
    return this.pending.size > 0;
  }

  connect() {
    if (this.closed) return;
    this.retry = null;
    const { v, token } = this.query();
    const q = new URLSearchParams();
    if (v !== null && v !== undefined) q.set("v", String(v));
    if (token) q.set("token", token);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/game/${this.gameId}?${q}`);
    this.ws = ws;
    ws.onopen = () => this.opened(ws);
    ws.onmessage = (m) => this.received(m.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.onChange();
      this.retry = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, LAST_RETRY_MS);
    };
  }

  opened(ws) {
    this.backoff = FIRST_RETRY_MS;
    this.pingSent = Date.now();
    ws.send(JSON.stringify({ t: "ping" }));
    for (const [, p] of this.pending) {
      p.sent = Date.now();
      ws.send(JSON.stringify({ t: p.t, d: p.d }));
    }
    this.onChange();
  }

  received(data) {
    let f;
    try {
      f = JSON.parse(data);
    } catch {
      return;
    }
    if (f.t === "pong") {
      this.offset = f.d.server_ms - (this.pingSent + Date.now()) / 2;
      return;
    }
    let action = null; // the action answered, {t, d}
    if (f.t === "ack" || f.t === "reject") {
      action = this.pending.get(f.d.a) || null;
      this.pending.delete(f.d.a);
    }
    this.onFrame(f.t, f.d, action);
  }

  // Send action `t` with fields `d` and an action id, now if connected, and again until answered.
  send(t, d) {
    const a = newActionId();
    const p = { t, d: { ...d, a }, sent: Date.now() };
    this.pending.set(a, p);
    if (this.open) this.ws.send(JSON.stringify({ t, d: p.d }));
    this.onChange();
    return a;
  }

  // Send a frame that is no action (chat) once, if connected: whether it was sent.
  post(t, d) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify({ t, d }));
    return true;
  }

  // Send again the actions unanswered for RESEND_MS (the page calls it on its clock's tick).
  resend(now) {
    if (!this.open) return;
    for (const [, p] of this.pending) {
      if (now - p.sent > RESEND_MS) {
        p.sent = now;
        this.ws.send(JSON.stringify({ t: p.t, d: p.d }));
      }
    }
  }

  // Close for good: no reconnection, nothing more sent or received.
  close() {
    this.closed = true;
    clearTimeout(this.retry);
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    ws.close();
  }
}
