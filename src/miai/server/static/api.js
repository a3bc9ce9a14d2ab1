// Talking to the server: JSON requests with the seat's token, and the seats this browser holds.

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const answer = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await answer.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { message: text };
  }
  if (!answer.ok) throw new ApiError(answer.status, data);
  return data;
}

const SEATS_KEY = "miai.seats";

// The seat tokens this browser holds: {gameId: token}. A token is a secret; it stays on this device.
export function seatToken(gameId) {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}")[gameId] || null;
  } catch {
    return null;
  }
}

export function keepSeat(gameId, token) {
  let seats = {};
  try {
    seats = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
  } catch {
    seats = {};
  }
  seats[gameId] = token;
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

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

export function newActionId() {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}
