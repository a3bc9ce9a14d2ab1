// Moving a seat to another device: the seat link (/g/ID#seat=TOKEN) that takes this browser's
// seat in whichever browser opens it. The token rides in the address's fragment, which browsers
// never send to a server, and the page that opens it keeps it and removes it from the address
// bar. Whoever has the link plays the seat: the page says so where it offers it.

import { _ } from "./i18n.js";
import { api, keepSeat } from "./api.js";
import { el } from "./dom.js";
import { signedIn } from "./account.js";

// The seat token the address brings (?seat= from an invitation, #seat= from a seat link), kept
// for game `id` and removed from the address bar; null when it brings none.
export function takeSeatFromAddress(id) {
  const token = new URLSearchParams(location.search).get("seat") || new URLSearchParams(location.hash.slice(1)).get("seat");
  if (!token) return null;
  keepSeat(id, token);
  history.replaceState(null, "", location.pathname);
  return token;
}

// The seat this browser's player holds in game `id` though the browser has no token for it (a
// signed-in player's seat follows them: GET /api/games/{id}/seat gives their own credential),
// kept like a token; null for a spectator.
export async function seatOfPlayer(id) {
  try {
    const answer = await api("GET", `/api/games/${id}/seat`);
    if (!answer.token) return null;
    keepSeat(id, answer.token);
    return answer.token;
  } catch {
    return null; // not a player of this game, or a server without the call
  }
}

// A seat link pasted into the address bar of a page already open changes only the fragment:
// draw the page again so that it takes the seat.
addEventListener("hashchange", () => {
  if (new URLSearchParams(location.hash.slice(1)).get("seat")) location.reload();
});

export function seatLink(id, token) {
  return `${location.origin}/g/${id}#seat=${encodeURIComponent(token)}`;
}

// The game page's "play this seat on another device" box, for a guest's seat (a signed-in
// player's follows them wherever they sign in): hidden until update() gives it a token.
export function seatLinkBox(id) {
  const field = el("input", { type: "text", readonly: true, id: "seat-link", "aria-label": _("Seat link") });
  const copy = el("button", { type: "button", onclick: () => { field.select(); navigator.clipboard?.writeText(field.value); } }, _("Copy"));
  const root = el("details", { class: "seat-link-box", hidden: true },
    el("summary", {}, _("Play this seat on another device")),
    el("p", {}, _("Open this link on the other device (a phone, another browser) to play your seat there.")),
    el("p", { class: "warning" }, _("Whoever has this link plays your seat: keep it to yourself.")),
    field, copy);
  return {
    root,
    update(token) {
      root.hidden = !token || signedIn();
      if (token) field.value = seatLink(id, token);
    },
  };
}
