// What a player can do on the game page besides clicking the board: the buttons of the play
// (confirm a move, pass, undo and its answer, resign), claiming a game the opponent left, the
// marking of dead stones, and the dialog that asks before a step that cannot be taken back. The
// buttons call the page's `actions`; the rules stay the server's.

import { _, colorName, ngettext } from "./i18n.js";
import { el, redraw } from "./dom.js";
import { OTHER } from "./gamestate.js";

function button(label, onclick, cls = "") {
  return el("button", { type: "button", class: cls, onclick }, label);
}

// Ask `text` in `dialog`, with a button saying `yes` and Cancel: whether the player said yes.
export function ask(dialog, text, yes) {
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.hidden = true;
      dialog.replaceChildren();
      resolve(answer);
    };
    dialog.replaceChildren(
      el("div", { class: "dialog-box" },
        el("p", {}, text),
        el("div", { class: "row" },
          el("button", { type: "button", class: "primary", onclick: () => done(true) }, yes),
          el("button", { type: "button", onclick: () => done(false) }, _("Cancel")))),
    );
    dialog.hidden = false;
    dialog.querySelector("button").focus();
  });
}

// A button that asks `question` in `dialog` first and calls `act` on yes.
function askingButton(dialog, label, question, act, cls = "") {
  return button(label, async () => {
    if (await ask(dialog, question, label)) act();
  }, cls);
}

// The play's buttons for a player (`seat`), into `box`; a watcher is told it watches. Returns the
// box where renderClaim says whether the game can be claimed (null once the game is over).
// `actions`: play(vertex), cancel(), pass(), undo(), answerUndo(accept), resign().
export function renderControls(box, dialog, s, { seat, myTurn, candidate }, actions) {
  if (!seat) {
    redraw(box, [el("p", { class: "muted" }, _("You are watching this game."))]);
    return null;
  }
  const parts = s.phase === "play" ? playButtons(dialog, s, { seat, myTurn, candidate }, actions) : [];
  const claimBox = s.phase === "finished" ? null : box.querySelector(":scope > .claim") || el("div", { class: "claim" });
  redraw(box, [...parts, claimBox]);
  return claimBox;
}

// The buttons of the play and the answer to an undo request, as renderControls shows them.
function playButtons(dialog, s, { seat, myTurn, candidate }, actions) {
  const parts = [];
  if (candidate) {
    parts.push(button(_("Play {vertex}", { vertex: candidate }), () => actions.play(candidate), "primary"));
    parts.push(button(_("Cancel"), () => actions.cancel()));
  }
  const pass = askingButton(dialog, _("Pass"), _("Pass your turn?"), () => actions.pass());
  pass.disabled = !myTurn;
  parts.push(pass);
  const undo = button(_("Undo"), () => actions.undo());
  undo.disabled = !s.moves.length || Boolean(s.undo_request);
  parts.push(undo);
  parts.push(askingButton(dialog, _("Resign"), _("Resign this game?"), () => actions.resign(), "danger"));
  const u = s.undo_request;
  if (u && u.by !== seat) {
    parts.push(el("div", { class: "request" },
      el("p", {}, _("{who} asks to take back a move.", { who: colorName(u.by) })),
      button(_("Allow the undo"), () => actions.answerUndo(true), "primary"),
      button(_("Refuse the undo"), () => actions.answerUndo(false))));
  } else if (u) {
    parts.push(el("p", { class: "muted" }, _("Undo requested: waiting for the answer.")));
  }
  return parts;
}

// Whether the player (`seat`) may claim the game its opponent left, counted down in server time
// (`now`), into `box`; `claim()` ends the game once the player confirms.
export function renderClaim(box, dialog, s, { seat, presence, now }, claim) {
  if (!box || !s || s.phase === "finished" || !seat || !presence) return;
  const other = OTHER[seat];
  const gone = presence.gone && presence.gone[other];
  if (!gone) {
    if (box.childElementCount) box.replaceChildren();
    return;
  }
  const wait = gone.claim_at_ms - now;
  if (s.to_move !== other) {
    box.replaceChildren(el("p", { class: "muted" }, _("Your opponent is away.")));
  } else if (wait > 0) {
    box.replaceChildren(el("p", { class: "muted" }, _("Your opponent is away. You can claim the game in {s} s.", { s: Math.ceil(wait / 1000) })));
  } else if (!box.querySelector("button")) {
    const question = _("End the game: your opponent left?");
    box.replaceChildren(
      el("p", {}, _("Your opponent has left.")),
      askingButton(dialog, _("Claim the victory"), question, claim, "primary"));
  }
}

// The marking of dead stones (`step`: markingStage's, `mine` when this player acts; `marked`: how
// many stones the player marks; `changed` when those are not the ones shown), into `box`.
// `actions`: propose(), accept(), refuse(), restore(). Accept is offered only while the marks are
// exactly the proposal's: after any change the step is to propose them (or go back).
export function renderMarking(box, step, { mine, marked, changed }, actions) {
  if (!step) {
    redraw(box, []);
    return;
  }
  const parts = [
    el("h3", {}, _("Dead stones")),
    el("p", { class: "muted" }, ngettext("{n} stone marked dead.", "{n} stones marked dead.", marked)),
  ];
  if (!mine) {
    parts.push(el("p", {}, _("Waiting for {who}.", { who: colorName(step.toAct) })));
  } else if (step.stage === "propose") {
    parts.push(el("p", {}, _("Click a stone to mark its group dead or alive, then propose.")));
    parts.push(button(_("Propose these dead stones"), () => actions.propose(), "primary"));
  } else if (step.stage === "answer" && changed) {
    parts.push(el("p", { class: "changed" }, _("You changed the marking: propose it to your opponent, or go back to their proposal.")));
    parts.push(button(_("Propose these dead stones"), () => actions.propose(), "primary"));
    parts.push(button(_("Back to their proposal"), () => actions.restore()));
  } else if (step.stage === "answer") {
    parts.push(el("p", {}, _("Accept your opponent's proposal, or change it and propose yours.")));
    parts.push(button(_("Accept"), () => actions.accept(), "primary"));
    parts.push(button(_("Propose other dead stones"), () => actions.propose()));
  } else {
    parts.push(el("p", {}, _("Accept the counter-proposal, or refuse it: play resumes.")));
    parts.push(button(_("Accept"), () => actions.accept(), "primary"));
    parts.push(button(_("Resume play"), () => actions.refuse()));
  }
  redraw(box, parts);
}

// The score estimate during play (`shown`: the server's estimate on the board, `asking` while it
// is computed), into `box`: a button that asks for it or hides it, and who leads in words.
export function renderEstimate(box, s, { shown, asking }, toggle) {
  if (s.phase !== "play") {
    redraw(box, []);
    return;
  }
  const label = shown ? _("Hide the estimate") : _("Estimate score");
  const b = el("button", { type: "button", id: "estimate-button", "aria-pressed": shown ? "true" : "false", onclick: toggle }, label);
  b.disabled = asking;
  redraw(box, [b, asking && el("span", { class: "muted" }, " " + _("Estimating…"))]);
}
