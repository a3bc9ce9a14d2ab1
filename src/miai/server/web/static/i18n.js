// The page's texts: every text is written as a call of _ on the English text (with {name}
// placeholders filled from an object) and looked up in the
// language's catalogue, GET /i18n/web/{lang}.json (built from src/miai/locale/{lang}/LC_MESSAGES/web.po).
// The language is the stored choice, else the browser's (navigator.languages), else English.

export const LANGUAGES = { en: "English", es: "Español", it: "Italiano", pt: "Português" };
const STORE_KEY = "miai.lang";
let messages = {};
export let lang = "en";

export function chooseLanguage() {
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export async function loadLanguage(code, remember = false) {
  if (!(code in LANGUAGES)) code = "en";
  let loaded = {};
  if (code !== "en") {
    const answer = await fetch(`/i18n/web/${code}.json`);
    if (answer.ok) loaded = (await answer.json()).messages;
  }
  messages = loaded;
  lang = code;
  document.documentElement.lang = code === "pt" ? "pt-PT" : code;
  if (remember) localStorage.setItem(STORE_KEY, code);
}

function fill(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

export function _(text, args) {
  return fill(messages[text] || text, args);
}

export function ngettext(singular, plural, n, args) {
  const forms = messages[singular + "\u0000" + plural];
  const one = n === 1;
  const text = forms ? forms[one ? 0 : Math.min(1, forms.length - 1)] : one ? singular : plural;
  return fill(text, { n, ...(args || {}) });
}

// A colour's name as Go players write it (Black/White: Negro/Blanco, Nero/Bianco, Pretas/Brancas).
export function colorName(color) {
  return color === "black" ? _("Black") : _("White");
}

// A game's result (SGF RE: "B+3.5", "W+R", "Void") in words.
export function describeResult(result) {
  const r = result || "";
  const m = r.match(/^([BW])\+(.*)$/);
  if (!m) return r === "Void" ? _("no result (void)") : r === "0" || r === "Draw" ? _("a draw (jigo)") : r;
  const who = colorName(m[1] === "B" ? "black" : "white");
  const how = m[2];
  if (how === "R" || how === "Resign") return _("{who} wins by resignation", { who });
  if (how === "T" || how === "Time") return _("{who} wins on time", { who });
  if (how === "F" || how === "Forfeit") return _("{who} wins: the opponent left", { who });
  return _("{who} wins by {points} points", { who, points: how });
}

// A ruleset's name in the page's language: its preset ("japanese komi=6.5" -> "Japanese"),
// with any changes after it kept as written.
export function rulesName(text) {
  const [preset, ...changes] = (text || "").split(" ");
  const names = {
    japanese: () => _("Japanese"),
    chinese: () => _("Chinese"),
    korean: () => _("Korean"),
    aga: () => "AGA",
    "new-zealand": () => _("New Zealand"),
  };
  const name = names[preset] ? names[preset]() : preset;
  return [name, ...changes].join(" ");
}
