// The review's numbers and facts in the page's language: numbers and percentages with
// Intl.NumberFormat ("50,4 %" in es, it and pt), and the rules in words, once
// ("Chinese rules · komi 7.5 · handicap 2").

import { _, formatNumber, lang } from "./i18n.js";

const formats = new Map(); // by language and kind: Intl's formatters are costly to make

function format(kind, options) {
  const key = `${lang}:${kind}`;
  if (!formats.has(key)) formats.set(key, new Intl.NumberFormat(lang === "pt" ? "pt-PT" : lang, options));
  return formats.get(key);
}

// Numbers and percentages: the page's own (i18n.js), kept here for the review's modules.
export { formatNumber, formatPercent } from "./i18n.js";

// A fall of win rate (0.23) as a signed percentage: "−23.0%".
export function formatDrop(x) {
  return format("drop", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" }).format(-x);
}

const RULES = {
  japanese: () => _("Japanese rules"),
  chinese: () => _("Chinese rules"),
  korean: () => _("Korean rules"),
  aga: () => _("AGA rules"),
  "new-zealand": () => _("New Zealand rules"),
  "tromp-taylor": () => _("Tromp-Taylor rules"),
};

// Review `r`'s rules, komi and handicap in words: the ruleset's name (any change to it but the
// komi kept as written after it), the komi, and the handicap when there is one.
export function rulesWords(r) {
  const [preset, ...changes] = (r.rules || "").split(" ");
  const name = RULES[preset] ? RULES[preset]() : preset;
  const kept = changes.filter((c) => !c.startsWith("komi="));
  const parts = [[name, ...kept].join(" "), _("komi {komi}", { komi: formatNumber(r.komi) })];
  if (r.handicap > 1) parts.push(_("handicap {n}", { n: formatNumber(r.handicap) }));
  return parts.join(" · ");
}
