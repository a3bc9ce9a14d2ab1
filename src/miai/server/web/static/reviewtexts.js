// The review's numbers in the page's language: numbers and percentages with Intl.NumberFormat
// ("50,4 %" in es, it and pt). The rules in words are gameterms.js's termsText, as on the game page.

import { formatNumber, lang } from "./i18n.js";

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
