// The game's sounds, made with the Web Audio API (no audio file): a stone placed, a capture, a
// pass, and the byo-yomi countdown's beeps. Muting is remembered in the browser. Browsers let a
// page sound only after the person has clicked or pressed a key in it: until then nothing plays.

const MUTE_KEY = "miai.muted";

export class Sounds {
  constructor() {
    this.muted = localStorage.getItem(MUTE_KEY) === "1";
    this.context = null;
  }

  setMuted(muted) {
    this.muted = muted;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
  }

  // The audio context, made on first use (a page may not make one before a gesture).
  audio() {
    if (!this.context) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return null;
      this.context = new Context();
    }
    if (this.context.state === "suspended") this.context.resume();
    return this.context;
  }

  // A tone of `freq` Hz for `seconds`, starting `delay` s from now, dying away: `type` is the
  // oscillator's wave.
  tone(freq, seconds, { delay = 0, gain = 0.25, type = "sine" } = {}) {
    if (this.muted) return;
    const ctx = this.audio();
    if (!ctx) return;
    const start = ctx.currentTime + delay;
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, start);
    amp.gain.setValueAtTime(gain, start);
    amp.gain.exponentialRampToValueAtTime(0.001, start + seconds);
    osc.connect(amp).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + seconds + 0.02);
  }

  // A stone on the board: a short, low knock (a falling triangle wave: wood, roughly).
  stone() {
    this.tone(180, 0.09, { type: "triangle", gain: 0.5 });
    this.tone(90, 0.06, { type: "sine", gain: 0.3 });
  }

  // A capture: the stone, then the captured stones lifted (two quick higher clicks).
  capture() {
    this.stone();
    this.tone(520, 0.05, { delay: 0.12, type: "triangle", gain: 0.25 });
    this.tone(620, 0.05, { delay: 0.19, type: "triangle", gain: 0.25 });
  }

  // A pass: two soft falling notes.
  pass() {
    this.tone(660, 0.15, { gain: 0.15 });
    this.tone(440, 0.2, { delay: 0.16, gain: 0.15 });
  }

  // A byo-yomi beep: `last` (the final seconds) higher and longer.
  beep(last = false) {
    this.tone(last ? 1320 : 880, last ? 0.18 : 0.08, { type: "square", gain: 0.08 });
  }
}
