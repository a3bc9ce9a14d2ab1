// Clocks as people read them, from the server's clock view (docs/SERVER.md §3.1). The server
// keeps the time; the page only counts down between two views, and never shows less than 0.

import { _, ngettext } from "./i18n.js";

const DAY_MS = 86400000;
const HOUR_MS = 3600000;

// A correspondence clock as its players read it: "3 days", "2 days 23 h".
export function daysAndHours(ms) {
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  return ngettext("{n} day", "{n} days", days) + (hours ? ` ${hours} h` : "");
}

// A time as a clock shows it: "1:05:00", "4:31", "0:08" (whole seconds, rounded up: a clock that
// shows 0:00 has run out); a day or more as "2 days 23 h" (correspondence).
export function formatMs(ms) {
  if (ms >= DAY_MS) return daysAndHours(ms);
  const s = Math.ceil(Math.max(0, ms) / 1000);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m % 60).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

export const LOW_MS = 30000; // under this a clock (not in byo-yomi) turns red and is announced

// A time control's field in seconds: "30", or days and hours as the server writes them ("3d", "12h").
function seconds(word) {
  const m = /^([\d.]+)([dh]?)$/.exec(String(word));
  return m ? Number(m[1]) * ({ d: 86400, h: 3600 }[m[2]] || 1) : NaN;
}

function span(seconds) {
  if (seconds >= 86400 && seconds % 86400 === 0) return ngettext("{n} day", "{n} days", seconds / 86400);
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  return seconds % 60 === 0 && seconds >= 60 ? `${seconds / 60}:00` : `${seconds} s`;
}

// The time control in words: "5:00 + 3×30 s", "5:00, +5 s a move".
export function describeControl(control, fallback) {
  const parts = String(control || "none").split(":");
  const n = parts.slice(1).map(seconds);
  switch (parts[0]) {
    case "none": return _("No clock");
    case "absolute": return span(n[0]);
    case "byoyomi": return `${span(n[0])} + ${n[2]}×${n[1]} s`;
    case "fischer": return n[1] >= 3600
      ? _("{main}, +{inc} a move", { main: span(n[0]), inc: span(n[1]) })
      : _("{main}, +{inc} s a move", { main: span(n[0]), inc: n[1] });
    case "canadian": return _("{main} + {stones} stones in {period}", { main: span(n[0]), stones: n[2], period: span(n[1]) });
    case "simple": return n[0] >= 3600 ? _("{time} a move", { time: span(n[0]) }) : _("{s} s a move", { s: n[0] });
    default: return fallback || control;
  }
}

// What one side's clock shows, `elapsed` ms after the view was true: {main, sub, spoken, low,
// flagged}. Byo-yomi reads "0:08 (2×10 s)" (the period's time, the periods left × their length),
// Canadian "4:31 (12 stones)"; `spoken` is the same in words, for the clock's accessible name;
// `low` is under 30 s, or the last byo-yomi period.
export function sideClock(view, side, elapsed) {
  const parts = String(view.control).split(":");
  const kind = parts[0];
  const state = view[side];
  const left = view.time_left[side];
  const running = view.ticking === side && !view.paused ? elapsed : 0;
  // countdown: the ms left before the player loses (or a period): null in byo-yomi's main time
  const out = { main: "", sub: "", spoken: "", low: false, lastPeriod: false, countdown: null, flagged: view.flagged === side };
  if (kind === "byoyomi") return byoyomiClock(out, seconds(parts[2]), state, left, running);
  const ms = left.ms - running;
  out.main = formatMs(ms);
  out.spoken = out.main;
  out.low = ms < LOW_MS;
  out.countdown = ms;
  if (kind === "canadian") {
    if (state.main_ms > 0) {
      out.sub = _("then {stones} stones in {period}", { stones: parts[3], period: formatMs(seconds(parts[2]) * 1000) });
    } else {
      out.sub = ngettext("({n} stone)", "({n} stones)", left.stones);
      out.spoken = out.main + ", " + ngettext("{n} stone to play", "{n} stones to play", left.stones);
    }
  }
  return out;
}

// A byo-yomi clock: main time, then `periods` of `periodS` seconds.
function byoyomiClock(out, periodS, state, left, running) {
  const period = periodS * 1000;
  let inPeriod, periods;
  if (state.main_ms > 0 && left.ms - running >= 0) {
    out.main = formatMs(left.ms - running);
    out.sub = _("+ {periods}×{s} s", { periods: state.periods, s: periodS });
    out.spoken = out.main + " " + ngettext("+ {n} period of {s} s", "+ {n} periods of {s} s", state.periods, { s: periodS });
    return out;
  }
  if (state.main_ms > 0) { // the main time ran out since the view: into the periods
    const over = running - left.ms;
    inPeriod = period - (over % period);
    periods = Math.max(0, state.periods - Math.floor(over / period));
  } else {
    const used = running > left.ms ? Math.floor((running - left.ms) / period) + 1 : 0;
    inPeriod = used ? period - ((running - left.ms) % period) : left.ms - running;
    periods = Math.max(0, left.stones - used);
  }
  out.main = formatMs(inPeriod);
  out.sub = _("({periods}×{s} s)", { periods, s: periodS });
  out.spoken = out.main + ", " + ngettext("{n} period of {s} s left", "{n} periods of {s} s left", periods, { s: periodS });
  out.low = out.lastPeriod = periods <= 1;
  out.countdown = inPeriod;
  return out;
}
