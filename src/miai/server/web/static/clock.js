// Clocks as people read them, from the server's clock view (docs/SERVER.md §3.1). The server
// keeps the time; the page only counts down between two views, and never shows less than 0.

import { _, formatNumber, ngettext } from "./i18n.js";

export function formatMs(ms) {
  ms = Math.max(0, ms);
  const s = ms < 10000 ? Math.ceil(ms / 100) / 10 : Math.ceil(ms / 1000);
  if (ms < 10000) return formatNumber(s, 1);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const sec = String(Math.floor(s % 60)).padStart(2, "0");
  return h ? `${h}:${String(m % 60).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

function span(seconds) {
  return seconds % 60 === 0 && seconds >= 60 ? `${seconds / 60}:00` : `${seconds} s`;
}

// The time control in words: "5:00 + 3×30 s", "5:00, +5 s a move".
export function describeControl(control, fallback) {
  const parts = String(control || "none").split(":");
  const n = parts.slice(1).map(Number);
  switch (parts[0]) {
    case "none": return _("No clock");
    case "absolute": return span(n[0]);
    case "byoyomi": return `${span(n[0])} + ${n[2]}×${n[1]} s`;
    case "fischer": return n[2]
      ? _("{main}, +{inc} s a move, at most {cap}", { main: span(n[0]), inc: n[1], cap: span(n[2]) })
      : _("{main}, +{inc} s a move", { main: span(n[0]), inc: n[1] });
    case "canadian": return _("{main} + {stones} stones in {period}", { main: span(n[0]), stones: n[2], period: span(n[1]) });
    case "simple": return _("{s} s a move", { s: n[0] });
    default: return fallback || control;
  }
}

// What one side's clock shows, `elapsed` ms after the view was true: {main, sub, low, flagged}.
export function sideClock(view, side, elapsed) {
  const parts = String(view.control).split(":");
  const kind = parts[0];
  const state = view[side];
  const left = view.time_left[side];
  const running = view.ticking === side && !view.paused ? elapsed : 0;
  const out = { main: "", sub: "", low: false, flagged: view.flagged === side };
  if (kind === "byoyomi") {
    const period = Number(parts[2]) * 1000;
    if (state.main_ms > 0) {
      const main = left.ms - running;
      if (main >= 0) {
        out.main = formatMs(main);
        out.sub = ngettext("+ {n} period of {s} s", "+ {n} periods of {s} s", state.periods, { s: period / 1000 });
        return out;
      }
      const over = -main;
      const used = Math.floor(over / period);
      out.main = formatMs(period - (over % period));
      out.sub = ngettext("{n} period left", "{n} periods left", Math.max(0, state.periods - used));
      out.low = state.periods - used <= 1;
      return out;
    }
    const used = running > left.ms ? Math.floor((running - left.ms) / period) + 1 : 0;
    const inPeriod = used ? period - ((running - left.ms) % period) : left.ms - running;
    out.main = formatMs(inPeriod);
    const periods = Math.max(0, left.stones - used);
    out.sub = ngettext("{n} period left", "{n} periods left", periods);
    out.low = periods <= 1 && inPeriod <= 10000;
    return out;
  }
  const ms = left.ms - running;
  out.main = formatMs(ms);
  out.low = ms <= 10000;
  if (kind === "canadian") {
    out.sub = state.main_ms > 0
      ? _("then {stones} stones in {period}", { stones: parts[3], period: formatMs(Number(parts[2]) * 1000) })
      : ngettext("{n} stone to play", "{n} stones to play", left.stones);
  }
  return out;
}
