// Squares and coordinate moves as the server writes them (docs/server.md):
// `e2e4`, `e7e8q` (promotion), `Qd4d8` (a queen leaving a crowd),
// `d4d5&` (joining a lone enemy), `g1i1l1` (free castling: king from, king
// to, rook from). Boards have up to 16 files (a..p) and 16 ranks.

const SQUARE = /^([a-p])(\d{1,2})/;

export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

/** `{file, rank}` (0-based) of a square name. */
export function squareCoords(name) {
  const m = SQUARE.exec(name);
  return { file: m[1].charCodeAt(0) - 97, rank: Number(m[2]) - 1 };
}

/**
 * Parses one coordinate move into `{uci, piece, from, to, rook, promotion,
 * join}`; `piece` is the letter of a piece named out of a crowd, or null.
 * Returns null for text that is not a coordinate move.
 */
export function parseMove(uci) {
  let rest = uci;
  let piece = null;
  if (/^[A-Z]/.test(rest)) {
    piece = rest[0];
    rest = rest.slice(1);
  }
  const join = rest.endsWith('&');
  if (join) rest = rest.slice(0, -1);
  const squares = [];
  for (let m; squares.length < 3 && (m = SQUARE.exec(rest)); ) {
    squares.push(m[0]);
    rest = rest.slice(m[0].length);
  }
  if (squares.length < 2 || !/^[a-z]?$/.test(rest)) return null;
  return {
    uci,
    piece,
    from: squares[0],
    to: squares[1],
    rook: squares[2] ?? null,
    promotion: rest || null,
    join,
  };
}
