// Commit-reveal for simultaneous turns (docs/server.md). The move and nonce
// of a commitment are kept in localStorage under game, turn and seat before
// the commitment is sent, so closing the tab, a reload, a second tab or a
// browser restart can still reveal it; they are removed once the turn is
// over. The server only ever sees the hash before both commitments are in.

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** 16 random bytes as 32 lowercase hex characters: a fresh nonce for every commitment. */
export function newNonce() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

/** The commitment string hashed for a move: `GAMEID:TURN:SIDE:MOVE:NONCE`. */
export function commitmentText(gameId, turn, side, move, nonce) {
  return `${gameId}:${turn}:${side}:${move}:${nonce}`;
}

/** Lowercase hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  // WebCrypto's digest exists only in secure contexts (https, localhost);
  // a page opened over plain http on a LAN address falls back to ours.
  if (globalThis.crypto?.subtle) {
    return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));
  }
  return hex(sha256(data));
}

/** Draws a nonce and computes the commitment of `move` (the rules' coordinates, as sent). */
export async function makeCommitment(gameId, turn, side, move) {
  const nonce = newNonce();
  const commitment = await sha256Hex(commitmentText(gameId, turn, side, move, nonce));
  return { move, nonce, commitment };
}

const PREFIX = 'parity_commit';
const storageKey = (gameId, turn, side) => `${PREFIX}:${gameId}:${turn}:${side}`;
/** Secrets of games never opened again go after this long. */
const KEEP_MS = 30 * 24 * 3600 * 1000;

function readEntry(key) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? null;
  } catch {
    return null;
  }
}

/**
 * The move and nonce of every commitment this device made for the seat's
 * `turn`, by commitment hash (two tabs may each have made one; the server
 * keeps the first).
 */
export function loadSecrets(gameId, turn, side) {
  return readEntry(storageKey(gameId, turn, side))?.secrets ?? {};
}

/** Keeps a commitment's move and nonce; call it before sending the commitment. */
export function saveSecret(gameId, turn, side, { move, nonce, commitment }) {
  const secrets = { ...loadSecrets(gameId, turn, side), [commitment]: { move, nonce } };
  localStorage.setItem(storageKey(gameId, turn, side), JSON.stringify({ savedAt: Date.now(), secrets }));
}

/** Removes the secrets of this game's turns before `turn`, and any kept too long. */
export function forgetSecrets(gameId, turn) {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    const [prefix, game, keyTurn] = key.split(':');
    if (prefix !== PREFIX) continue;
    const over = game === gameId && Number(keyTurn) < turn;
    if (over || !(Date.now() - (readEntry(key)?.savedAt ?? 0) < KEEP_MS)) localStorage.removeItem(key);
  }
}

// SHA-256 (FIPS 180-4), used only where WebCrypto is missing.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256(bytes) {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array((((bytes.length + 8) >> 6) + 1) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    const next = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i] + next[i]) >>> 0;
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) new DataView(out.buffer).setUint32(i * 4, h[i]);
  return out;
}
