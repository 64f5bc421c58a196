// The legend of a variant's pieces that chess does not have (the Amazon,
// the Champion...): each piece's icon, its letter, its move in words and a
// small diagram of the squares it reaches from the middle of an empty
// board, all read from the piece's Betza notation. A piece whose notation
// has modifiers the legend does not put in words shows the notation itself.

import { pieceIcon, pieceSvg } from './pieces.js';
import { escapeHtml } from './html.js';
import { t, tMarkup } from './i18n.js';

// Leapers by their offset, sliders by their step; each in all directions.
// `words`: the id of the move in words (`help-move-...`).
const ATOMS = {
  W: { step: [0, 1], slides: false, words: 'help-move-one-straight' },
  F: { step: [1, 1], slides: false, words: 'help-move-one-diagonal' },
  D: { step: [0, 2], slides: false, words: 'help-move-two-straight' },
  A: { step: [2, 2], slides: false, words: 'help-move-two-diagonal' },
  N: { step: [1, 2], slides: false, words: 'help-move-knight' },
  R: { step: [0, 1], slides: true, words: 'help-move-rook' },
  B: { step: [1, 1], slides: true, words: 'help-move-bishop' },
};
const COMPOUNDS = { Q: ['R', 'B'], K: ['W', 'F'] };
const WORDS = { Q: 'help-move-queen', K: 'help-move-king' };
const CHESS = new Set(['K', 'Q', 'R', 'B', 'N']);
const RADIUS = 3; // the diagram is 7x7

/** The atoms of a plain Betza text (`QN`, `WAD`), or null when it has more. */
function atoms(betza) {
  if (!/^[WFDANRBQK]+$/.test(betza)) return null;
  return [...betza];
}

/** A piece's move in words: `as a queen, or the knight's jump`. */
export function moveWords(betza) {
  const letters = atoms(betza);
  if (!letters) return t('help-move-betza', { betza });
  return letters
    .map((a) => t(WORDS[a] ?? ATOMS[a].words))
    .reduce((first, then) => t('help-move-or', { first, then }));
}

function symmetries([x, y]) {
  const all = [];
  for (const [a, b] of [[x, y], [y, x]]) {
    for (const sa of [1, -1]) for (const sb of [1, -1]) all.push([a * sa, b * sb]);
  }
  return all.filter(([a, b], i) => all.findIndex(([c, d]) => c === a && d === b) === i);
}

/** The squares (offsets from the piece) a plain Betza piece reaches on an empty 7x7 board. */
export function reach(betza) {
  const letters = atoms(betza) ?? [];
  const squares = new Set();
  for (const letter of letters.flatMap((a) => COMPOUNDS[a] ?? [a])) {
    const atom = ATOMS[letter];
    for (const [dx, dy] of symmetries(atom.step)) {
      for (let k = 1; Math.abs(dx * k) <= RADIUS && Math.abs(dy * k) <= RADIUS; k++) {
        squares.add(`${dx * k},${dy * k}`);
        if (!atom.slides) break;
      }
    }
  }
  return squares;
}

function diagram(piece) {
  const reached = reach(piece.betza);
  const size = 2 * RADIUS + 1;
  let cells = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const [x, y] = [col - RADIUS, RADIUS - row];
      const shade = (row + col) % 2 === 0 ? 'light' : 'dark';
      cells += `<rect class="${shade}" x="${col * 20}" y="${row * 20}" width="20" height="20"/>`;
      if (reached.has(`${x},${y}`)) cells += `<circle class="reach" cx="${col * 20 + 10}" cy="${row * 20 + 10}" r="5"/>`;
    }
  }
  return `<svg class="legend-board" viewBox="0 0 ${size * 20} ${size * 20}" width="112" height="112"
      role="img" aria-label="${escapeHtml(t('help-legend-reach', { piece: piece.name }))}">${cells}
      <svg x="${RADIUS * 20}" y="${RADIUS * 20}" width="20" height="20" viewBox="0 0 100 100">${pieceSvg('white', piece.name, piece.letter)}</svg></svg>`;
}

/**
 * `<b>Amazon</b> (<code>A</code>): moves as a queen, or the knight's jump.`:
 * the message's text escaped, the name and the letter as markup.
 */
function pieceLine(p) {
  const html = {
    name: `<b>${escapeHtml(p.name.charAt(0).toUpperCase() + p.name.slice(1))}</b>`,
    letter: `<code>${escapeHtml(p.letter)}</code>`,
    moves: escapeHtml(moveWords(p.betza)),
  };
  return tMarkup('help-legend-piece', html);
}

/** The legend of `variant`'s pieces beyond chess's; empty when it has none. */
export function legendHtml(variant) {
  // Pawns' notations have modifiers (`fmW...`): chess players know them.
  const pieces = (variant.pieces ?? []).filter((p) => !CHESS.has(p.betza) && !/[a-z]/.test(p.betza));
  if (!pieces.length) return '';
  const rows = pieces.map((p) => `<li class="legend-piece" data-letter="${escapeHtml(p.letter)}">
      ${pieceIcon('white', p.name, p.letter, 36)}
      <div>${pieceLine(p)}</div>
      ${atoms(p.betza) ? diagram(p) : ''}</li>`).join('');
  return `<section class="legend"><h2>${t('help-legend-heading')}</h2><ul>${rows}</ul></section>`;
}
