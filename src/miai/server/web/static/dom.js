// Making the page's elements: `el` for HTML (attributes, "on..." listeners, children), `svg`
// for SVG (the board, the win-rate graph), each defined once for every module, and `redraw`.

const SVG_NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else if (k === "style") node.style.cssText = v; // the CSSOM: the page's CSP refuses style attributes
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// Put `children` in `box`, keeping in place each node already there that looks the same (same
// markup), so that a redraw which changes nothing keeps the keyboard's focus and a click half made.
// Only for parts whose listeners follow from their markup (a button's label says what it does).
export function redraw(box, children) {
  const wanted = children.filter((c) => c !== null && c !== undefined && c !== false);
  wanted.forEach((node, i) => {
    const there = box.childNodes[i];
    if (!there) box.append(node);
    else if (there !== node && !there.isEqualNode(node)) there.replaceWith(node);
  });
  while (box.childNodes.length > wanted.length) box.lastChild.remove();
}
