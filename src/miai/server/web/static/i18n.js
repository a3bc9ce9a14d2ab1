// The page's texts: every text is written as a call of _ on the English text (with {name}
// placeholders filled from an object) and looked up in the
// language's catalogue, GET /i18n/web/{lang}.json (built from src/miai/locale/{lang}/LC_MESSAGES/web.po).
// The language is the stored choice, else the browser's (navigator.languages), else English.

export const LANGUAGES = { en: "English", es: "Español", it: "Italiano", pt: "Português" };
const LOCALES = { en: "en", es: "es", it: "it", pt: "pt-PT" }; // the locale of numbers and of <html lang>
const STORE_KEY = "miai.lang";
const COOKIE = "miai_lang"; // the chosen language, for the server's <html lang> and tab title
let messages = {};
export let lang = "en";

export function chooseLanguage() {
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && stored in LANGUAGES) {
    rememberForServer(stored);
    return stored;
  }
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
  document.documentElement.lang = LOCALES[code];
  if (remember) {
    localStorage.setItem(STORE_KEY, code);
    rememberForServer(code);
  }
}

// The chosen language in a cookie too: the server writes the next page's <html lang> and tab
// title in it before the script runs (docs/SERVER.md §4.2).
function rememberForServer(code) {
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
}

const formats = new Map(); // Intl's formatters, by language and options: each costs to make

function numberFormat(options) {
  const key = `${lang}:${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, new Intl.NumberFormat(LOCALES[lang], options));
  return formats.get(key);
}

// Numbers as the page's language writes them: formatNumber(15.5) is "15,5" in es/it/pt;
// `digits` fixes the decimals (formatNumber(8.25, 1) is "8,3"), else up to 1 is shown.
export function formatNumber(x, digits) {
  const fixed = digits === undefined ? { maximumFractionDigits: 1 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return numberFormat(fixed).format(Number(x));
}

// A rate (0..1) as a percentage with `digits` decimals (one by default): "50,4 %" in es, "50.4%"
// in en.
export function formatPercent(rate, digits = 1) {
  return numberFormat({ style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(Number(rate));
}

// A player's name as the page shows it (docs/SERVER.md §5): a computer seat ("computer:5", or the
// records' "miai level 5") is "miai level 5" in words, a guest ("Guest 4821") "Invitado 4821";
// a user's name as it is. `kind` is the seat's kind ("human" or "computer:N"), when known.
export function playerName(name, kind) {
  const computer = /^computer:(\d+)$/.exec(kind || "") || /^miai level (\d+)$/.exec(name || "");
  if (computer) return _("miai level {n}", { n: computer[1] });
  const guest = /^Guest (\d+)$/.exec(name || "");
  return guest ? _("Guest {n}", { n: guest[1] }) : name;
}

function fill(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

export function _(text, args) {
  return fill(messages[text] || text, args);
}

// The singular or the plural form, as the catalogues count `n` (plural=(n != 1)); {n} is filled
// with `n` as the language writes numbers.
export function ngettext(singular, plural, n, args) {
  const forms = messages[singular + "\u0000" + plural];
  const one = Number(n) === 1;
  const text = forms ? forms[one ? 0 : Math.min(1, forms.length - 1)] : one ? singular : plural;
  return fill(text, { n: formatNumber(n), ...(args || {}) });
}

// A colour's name as Go players write it (Black/White: Negro/Blanco, Nero/Bianco, Pretas/Brancas).
export function colorName(color) {
  return color === "black" ? _("Black") : _("White");
}

// A game's result (SGF RE: "B+3.5", "W+R", "Void") in words, as the end of a sentence ("Game
// over: {result}"; "il Bianco vince…") or, with `alone`, as a sentence of its own ("Il Bianco…").
export function describeResult(result, alone = false) {
  const words = resultWords(result);
  return alone ? words.charAt(0).toLocaleUpperCase(LOCALES[lang]) + words.slice(1) : words;
}

function resultWords(result) {
  const r = result || "";
  const m = r.match(/^([BW])\+(.*)$/);
  if (!m) return r === "Void" ? _("no result (void)") : r === "0" || r === "Draw" ? _("a draw (jigo)") : r;
  const who = colorName(m[1] === "B" ? "black" : "white");
  const how = m[2];
  if (how === "R" || how === "Resign") return _("{who} wins by resignation", { who });
  if (how === "T" || how === "Time") return _("{who} wins on time", { who });
  if (how === "F" || how === "Forfeit") return _("{who} wins by forfeit", { who });
  if (!/^\d+(\.\d+)?$/.test(how)) return _("{who} wins", { who });
  return ngettext("{who} wins by {n} point", "{who} wins by {n} points", Number(how), { who });
}

// A ruleset's name in the page's language: its preset ("japanese komi=6.5" -> "Japanese"),
// with any changes after it but the komi (which the pages show apart) kept as written.
export function rulesName(text) {
  const [preset, ...all] = (text || "").split(" ");
  const changes = all.filter((change) => !change.startsWith("komi="));
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
