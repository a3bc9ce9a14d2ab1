// Talking to the server: JSON requests with the seat's token, the seats this browser holds, and
// the ids that make an action sent twice count once.

import { errorText } from "./refusals.js";

// An error answer: `message` is its text in the page's language (refusals.js), never the
// server's English; `body` is the answer as sent.
export class ApiError extends Error {
  constructor(status, body) {
    super(errorText({ status, ...body }));
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

export function newActionId() {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}
