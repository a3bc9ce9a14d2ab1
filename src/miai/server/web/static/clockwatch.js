// What the clocks tell the player besides their numbers: a clock that runs low (under 30 s, or
// into its last byo-yomi period) is announced once in the live region, and the player's own
// clock beeps each second of its last 10 (a byo-yomi period's, or the game's).

import { _, colorName } from "./i18n.js";

const BEEP_FROM_MS = 10000;

export class ClockWatch {
  // `sounds`: a Sounds; `announce(text)`: the live region.
  constructor(sounds, announce) {
    this.sounds = sounds;
    this.announce = announce;
    this.low = { black: false, white: false }; // announced as low already
    this.beeped = null; // the second last beeped, of the player's own countdown
  }

  // After each drawing of the clocks: `shown` {colour: sideClock's, or null}, the game's state
  // and the player's seat (null: a spectator).
  update(shown, s, seat) {
    if (!shown || s.phase === "finished") return;
    for (const color of ["black", "white"]) {
      const c = shown[color];
      if (!c) continue;
      const running = s.clocks.ticking === color;
      if (c.low && running && !this.low[color]) {
        this.announce(c.lastPeriod
          ? _("{who}: last byo-yomi period.", { who: colorName(color) })
          : _("{who}: less than 30 seconds left.", { who: colorName(color) }));
      }
      this.low[color] = c.low;
      if (color === seat) this.beep(c, running);
    }
  }

  beep(c, running) {
    if (!running || c.countdown === null || c.countdown > BEEP_FROM_MS || c.countdown <= 0) {
      this.beeped = null;
      return;
    }
    const second = Math.ceil(c.countdown / 1000);
    if (second === this.beeped) return;
    this.beeped = second;
    this.sounds.beep(second <= 3);
  }
}
