// Vertices as GTP names them ("D4": a column letter without I, a row number from the bottom),
// shared by the board's drawing and the game's state.

export const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

export function vertexName(col, row) {
  return LETTERS[col] + String(row + 1);
}

export function parseVertex(v, size) {
  const col = LETTERS.indexOf(v[0].toUpperCase());
  const row = parseInt(v.slice(1), 10) - 1;
  if (col < 0 || col >= size || !(row >= 0 && row < size)) return null;
  return [col, row];
}
