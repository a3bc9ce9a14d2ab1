// Who is here: the header's account part (the player's name and their pages, or "Sign in"),
// the sign-in and sign-up pages, the account's language, and the server's refusals said in the
// page's language from their `reason` (docs/SERVER.md §5). Guests play without an account.

import { _, LANGUAGES, lang, ngettext, playerName } from "./i18n.js";
import { api } from "./api.js";
import { el } from "./dom.js";
import { stopWatchingTurns, watchTurns } from "./turns.js";

// The session as GET /api/me last said: {kind: "guest" | "user", name, language?}.
export let me = { kind: "guest", name: "" };

export async function whoAmI() {
  try {
    me = await api("GET", "/api/me");
  } catch {
    me = { kind: "guest", name: "" };
  }
  return me;
}

export function signedIn() {
  return me.kind === "user";
}

// The language a signed-in account chose, else null (the browser's choice then).
export function accountLanguage() {
  return signedIn() && me.language in LANGUAGES ? me.language : null;
}

// Keep `code` as the account's language too, when someone is signed in.
export async function rememberLanguage(code) {
  if (!signedIn()) return;
  try {
    me = await api("PATCH", "/api/me", { body: { language: code } });
  } catch {
    // the page shows the language anyway; the account keeps its old choice
  }
}

// A player's page: /p/NAME.
export function playerHref(name) {
  return `/p/${encodeURIComponent(name)}`;
}

const REASONS = {
  "username-type": () => _("A username has 3 to 24 characters."),
  "username-length": () => _("A username has 3 to 24 characters."),
  "username-characters": () => _("A username has only letters without accents, digits, _ . and -, and starts with a letter or a digit."),
  "username-reserved": () => _("This username is reserved: choose another."),
  "username-taken": () => _("This username is taken: choose another."),
  "password-type": () => _("A password has 8 to 128 characters."),
  "password-length": () => _("A password has 8 to 128 characters."),
  "password-blank": () => _("A password cannot be only spaces."),
  "password-is-username": () => _("The password cannot be the username."),
  "password-common": () => _("This password is one of the 10,000 most common ones, the first an attacker tries: choose another."),
  "wrong-login": () => _("Wrong username or password."),
  language: () => _("Choose one of the page's languages."),
};

// What went wrong with an account request, in the page's language.
export function accountErrorText(error) {
  const body = (error && error.body) || {};
  if (REASONS[body.reason]) return REASONS[body.reason]();
  if (error && error.status === 429) {
    const n = Number(body.retry_after) || 60;
    return ngettext("Too many attempts: try again in {n} second.", "Too many attempts: try again in {n} seconds.", n);
  }
  if (error && error.status >= 500) return _("The server cannot answer now: try again in a moment.");
  return (error && error.message) || _("Something went wrong.");
}

// The header's account part: for a player their name (to their page), "My games" with the
// count of games waiting for their move, and "Sign out"; for a guest the guest's name, "Sign
// in" and "Sign up". `onChange` draws the page again after signing out.
export function accountBar(onChange) {
  const bar = el("nav", { class: "account", "aria-label": _("Account") });
  if (signedIn()) {
    const badge = el("span", { class: "badge", id: "turn-badge", hidden: true });
    watchTurns(badge);
    bar.append(
      el("a", { href: "/me", id: "my-games-link" }, _("My games"), " ", badge),
      el("a", { href: playerHref(me.name), class: "me", id: "me-name" }, me.name),
      el("button", {
        type: "button",
        id: "sign-out",
        onclick: async () => {
          await api("DELETE", "/api/session");
          await whoAmI();
          onChange();
        },
      }, _("Sign out")),
    );
  } else {
    stopWatchingTurns();
    const back = encodeURIComponent(location.pathname + location.search);
    bar.append(
      el("span", { class: "me muted", id: "me-name" }, playerName(me.name)),
      el("a", { href: `/signin?next=${back}`, id: "sign-in-link" }, _("Sign in")),
      el("a", { href: `/signup?next=${back}`, class: "button", id: "sign-up-link" }, _("Sign up")),
    );
  }
  return bar;
}

// Where to go after signing in: the page the player came from (on this site only), else home.
function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

function field(name, label, attrs, hint) {
  const id = `account-${name}`;
  return el("label", { for: id },
    el("span", {}, label),
    el("input", { id, name, required: true, ...attrs, "aria-describedby": hint ? `${id}-hint` : null }),
    hint ? el("small", { id: `${id}-hint`, class: "muted" }, hint) : null,
  );
}

function languageField() {
  const select = el("select", { id: "account-language", name: "language" });
  for (const [code, name] of Object.entries(LANGUAGES)) {
    select.append(el("option", { value: code, selected: code === lang }, name));
  }
  return el("label", { for: "account-language" }, el("span", {}, _("Language of the page")), select);
}

// The sign-in page (`mode` "signin") or the sign-up page ("signup"), drawn in `main`.
// `onSignedIn(user)` runs once the server has signed the browser in.
export function showAccountForm(main, mode, onSignedIn) {
  const signup = mode === "signup";
  document.title = `miai · ${signup ? _("Create an account") : _("Sign in")}`;
  const error = el("p", { class: "message", id: "account-error", role: "alert" });
  const form = el("form", { class: "account-form", id: "account-form" });
  form.append(
    field("username", _("Username"), { type: "text", autocomplete: "username", maxlength: 24, autocapitalize: "none", spellcheck: "false" },
      signup ? _("3 to 24 letters, digits, _ . or -. Others see it on your games.") : null),
    field("password", _("Password"), { type: "password", autocomplete: signup ? "new-password" : "current-password", maxlength: 128 },
      signup ? _("At least 8 characters; not one of the common passwords.") : null),
  );
  if (signup) form.append(languageField());
  const submit = el("button", { type: "submit", class: "primary" }, signup ? _("Create account") : _("Sign in"));
  form.append(submit, error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const body = { username: data.get("username"), password: data.get("password") };
    if (signup) body.language = data.get("language");
    submit.disabled = true;
    error.textContent = "";
    try {
      me = await api("POST", signup ? "/api/users" : "/api/session", { body });
      await onSignedIn(me, nextPage());
    } catch (err) {
      error.textContent = accountErrorText(err);
    } finally {
      submit.disabled = false;
    }
  });
  const other = signup
    ? el("p", {}, _("Already have an account?"), " ", el("a", { href: `/signin${location.search}` }, _("Sign in")))
    : el("p", {}, _("No account yet?"), " ", el("a", { href: `/signup${location.search}` }, _("Create an account")));
  main.append(el("section", { class: "panel account-page" },
    el("h1", {}, signup ? _("Create an account") : _("Sign in")),
    form,
    other,
    el("p", { class: "muted" }, _("No account is needed to play: guests play as they are. With an account your name, rating and games follow you to any browser.")),
  ));
  form.querySelector("input").focus();
  return { destroy() {} };
}
