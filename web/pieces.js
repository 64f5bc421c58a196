import { escapeHtml } from './html.js';
import { t } from './i18n.js';

// Piece drawings: our own SVG, each in a 100x100 box standing on a common
// base. Outlines use the class `body` (filled in the piece's colour) and
// inner lines `line` (drawn in the opposite colour); style.css colours them.

const base = '<rect class="body" x="20" y="76" width="60" height="11" rx="4"/>';

// Bodies without the base, keyed by the lower-case piece name of the
// variant files.
const bodies = {
  pawn: `<path class="body" d="M35 76 Q37 56 45 46 H55 Q63 56 65 76 Z"/>
    <ellipse class="body" cx="50" cy="45" rx="13" ry="4.5"/>
    <circle class="body" cx="50" cy="30" r="12"/>`,

  rook: `<path class="body" d="M30 76 L33 42 H67 L70 76 Z"/>
    <path class="body" d="M27 42 V18 H37 V26 H45 V18 H55 V26 H63 V18 H73 V42 Z"/>
    <path class="line" d="M33 50 H67 M31 68 H69"/>`,

  bishop: `<path class="body" d="M38 64 Q37 71 29 76 H71 Q63 71 62 64 Z"/>
    <rect class="body" x="36" y="57" width="28" height="7" rx="2"/>
    <path class="body" d="M50 16 C67 29 69 45 61 57 H39 C31 45 33 29 50 16 Z"/>
    <circle class="body" cx="50" cy="12" r="5"/>
    <path class="line" d="M57 28 L47 41"/>`,

  knight: `<path class="body" d="M72 76 C75 58 73 38 60 25 L58 13 L50 21
      C39 22 29 31 24 43 L19 54 C19 59 24 62 29 59 L35 55
      C40 56 45 53 48 49 C48 59 39 67 34 76 Z"/>
    <circle class="line dot" cx="44" cy="33" r="3"/>
    <path class="line" d="M62 30 C68 42 69 58 66 72"/>`,

  queen: `<path class="body" d="M27 76 L18 32 L34 52 L35 24 L44 50 L50 18 L56 50 L65 24 L66 52 L82 32 L73 76 Z"/>
    <circle class="body" cx="18" cy="30" r="5"/><circle class="body" cx="35" cy="22" r="5"/>
    <circle class="body" cx="50" cy="15" r="5"/><circle class="body" cx="65" cy="22" r="5"/>
    <circle class="body" cx="82" cy="30" r="5"/>
    <path class="line" d="M28 68 H72"/>`,

  king: `<path class="body" d="M27 76 C19 58 22 44 35 42 C42 41 46 44 50 49 C54 44 58 41 65 42 C78 44 81 58 73 76 Z"/>
    <path class="body" d="M47 10 H53 V18 H60 V24 H53 V44 H47 V24 H40 V18 H47 Z"/>
    <path class="line" d="M28 68 H72 M50 50 V66"/>`,

  // Champion (W+A+D): a shield with a chevron.
  champion: `<path class="body" d="M44 76 L46 66 H54 L56 76 Z"/>
    <path class="body" d="M28 20 H72 V44 C72 58 62 66 50 72 C38 66 28 58 28 44 Z"/>
    <path class="line" d="M35 50 L50 36 L65 50 M35 60 L50 46 L65 60"/>`,

  // FAD (F+A+D): a diamond head on a stem, with the jumps as dots.
  fad: `<path class="body" d="M38 76 L43 50 H57 L62 76 Z"/>
    <path class="body" d="M50 10 L72 32 L50 54 L28 32 Z"/>
    <circle class="line dot" cx="50" cy="32" r="4"/>
    <circle class="line dot" cx="50" cy="20" r="2.5"/><circle class="line dot" cx="50" cy="44" r="2.5"/>
    <circle class="line dot" cx="38" cy="32" r="2.5"/><circle class="line dot" cx="62" cy="32" r="2.5"/>`,
};

// Compound pieces: the major piece on the left, the knight on the right,
// both smaller, on one base.
function compound(major) {
  return `<g transform="translate(2 12) scale(.78)">${bodies[major]}</g>
    <g transform="translate(34 17) scale(.72)">${bodies.knight}</g>`;
}
bodies.amazon = compound('queen');
bodies.empress = compound('rook');
bodies.princess = compound('bishop');

// The catalogue's word for each piece of the variant files, by lower-case
// name; other pieces are called by the variant's name.
const PIECE_WORDS = {
  pawn: 'game-piece-pawn',
  knight: 'game-piece-knight',
  bishop: 'game-piece-bishop',
  rook: 'game-piece-rook',
  queen: 'game-piece-queen',
  king: 'game-piece-king',
  champion: 'game-piece-champion',
  fad: 'game-piece-fad',
  amazon: 'game-piece-amazon',
  empress: 'game-piece-empress',
  princess: 'game-piece-princess',
};

/**
 * A piece in words, as a person reads it: `white king` for a `color`
 * ("white" or "black"), the bare name (`queen`) without one.
 */
export function pieceWords(color, name) {
  const id = PIECE_WORDS[String(name).toLowerCase()];
  const which = color ?? 'none';
  return id ? t(id, { color: which }) : t('game-piece-other', { color: which, name });
}

/** True when `name` has a drawing of its own (else the letter glyph is used). */
export function hasDrawing(name) {
  return Object.hasOwn(bodies, name.toLowerCase());
}


/**
 * The SVG markup of one piece in a 100x100 box: `color` is "white" or
 * "black"; `name` and `letter` come from the variant. Pieces without a
 * drawing get their letter in a disc.
 */
export function pieceSvg(color, name, letter) {
  // The set "letters" (settings.js) draws every piece as its letter.
  const letters = globalThis.document?.documentElement.dataset.pieces === 'letters';
  const body = letters ? null : bodies[String(name).toLowerCase()];
  const inner = body
    ? base + body
    : `<circle class="body" cx="50" cy="50" r="36"/>
       <text class="glyph" x="50" y="51" text-anchor="middle" dominant-baseline="central">${escapeHtml(letter)}</text>`;
  return `<g class="pc ${color}">${inner}</g>`;
}

/** A standalone <svg> of one piece, for buttons and lists. */
export function pieceIcon(color, name, letter, size = 40) {
  return `<svg class="piece-icon" viewBox="0 0 100 100" width="${size}" height="${size}"
    role="img" aria-label="${escapeHtml(pieceWords(color, name))}">${pieceSvg(color, name, letter)}</svg>`;
}
