// The board as one SVG drawn from the variant's shape: 100 units per
// square, rank 1 at the bottom unless flipped. Squares carry
// `data-square`; everything drawn over them ignores the pointer, so a click
// anywhere on a square reaches its rect.

import { pieceSvg, pieceIcon } from './pieces.js';
import { squareName } from './moves.js';
import { escapeHtml } from './html.js';

const SIZE = 100;

/** The top-left corner of a square on the drawn board. */
function origin(view, file, rank) {
  const col = view.flipped ? view.files - 1 - file : file;
  const row = view.flipped ? rank : view.ranks - 1 - rank;
  return [col * SIZE, row * SIZE];
}

// How the pieces of one square are drawn: one fills it; two or more show
// the first white and the first black (or the first two) halved, white
// top-left, and a count badge when some are hidden.
function drawPieces(square, pieces) {
  const attrs = (p) => `data-piece="${p.color} ${p.name.toLowerCase()}" data-on="${square}"`;
  if (pieces.length === 1) {
    return `<g ${attrs(pieces[0])}>${pieceSvg(pieces[0].color, pieces[0].name, pieces[0].letter)}</g>`;
  }
  const white = pieces.find((p) => p.color === 'white');
  const black = pieces.find((p) => p.color === 'black');
  const shown = white && black ? [white, black] : pieces.slice(0, 2);
  let out = shown
    .map((p, i) => {
      const at = i === 0 ? 'translate(-2 -2)' : 'translate(40 40)';
      return `<g ${attrs(p)} transform="${at} scale(.62)">${pieceSvg(p.color, p.name, p.letter)}</g>`;
    })
    .join('');
  const hidden = pieces.filter((p) => !shown.includes(p));
  out += hidden.map((p) => `<g ${attrs(p)} class="hidden-piece"></g>`).join('');
  if (pieces.length > 2) {
    out += `<g class="badge"><circle cx="16" cy="84" r="14"/><text x="16" y="85"
      text-anchor="middle" dominant-baseline="central">${pieces.length}</text></g>`;
  }
  return out;
}

// A marker per side whose piece here moved last turn and must wait.
function drawLastMoved(colors) {
  return colors
    .map((color, i) => {
      const cy = 14 + i * 22;
      return `<g class="waiting ${color}" data-waiting="${color}"><title>${color} moved here last turn and must wait</title>
        <circle cx="86" cy="${cy}" r="10"/><path d="M83 ${cy - 5} V${cy + 5} M89 ${cy - 5} V${cy + 5}"/></g>`;
    })
    .join('');
}

/**
 * Draws the board into `container`. `view`: files, ranks, flipped,
 * squares (Map name -> {pieces, lastMoved}), marks (Map name -> list of
 * classes: `selected`, `target`, `last`, `check`, `shared`, `pending`),
 * and onSquare(name) for clicks.
 */
export function renderBoard(container, view) {
  const width = view.files * SIZE;
  const height = view.ranks * SIZE;
  const layers = { squares: '', marks: '', pieces: '', coords: '' };
  for (let rank = 0; rank < view.ranks; rank++) {
    for (let file = 0; file < view.files; file++) {
      const name = squareName(file, rank);
      const [x, y] = origin(view, file, rank);
      const shade = (file + rank) % 2 === 0 ? 'dark' : 'light';
      const marks = view.marks.get(name) ?? [];
      layers.squares += `<rect class="sq ${shade} ${marks.join(' ')}" data-square="${name}"
        x="${x}" y="${y}" width="${SIZE}" height="${SIZE}"/>`;
      if (marks.includes('target')) {
        const occupied = view.squares.has(name);
        layers.marks += occupied
          ? `<circle class="target-ring" cx="${x + 50}" cy="${y + 50}" r="44"/>`
          : `<circle class="target-dot" cx="${x + 50}" cy="${y + 50}" r="14"/>`;
      }
      const content = view.squares.get(name);
      if (content) {
        layers.pieces += `<g class="square-pieces" transform="translate(${x} ${y})">
          ${drawPieces(name, content.pieces)}${drawLastMoved(content.lastMoved)}</g>`;
      }
      const leftColumn = x === 0;
      const bottomRow = y === height - SIZE;
      if (leftColumn) {
        layers.coords += `<text class="coord ${shade}" x="${x + 4}" y="${y + 18}">${rank + 1}</text>`;
      }
      if (bottomRow) {
        layers.coords += `<text class="coord ${shade}" x="${x + 96}" y="${y + 94}" text-anchor="end">${name[0]}</text>`;
      }
    }
  }
  container.innerHTML = `<svg class="board" viewBox="0 0 ${width} ${height}" data-files="${view.files}"
    data-ranks="${view.ranks}" role="img" aria-label="board">
    <g class="squares">${layers.squares}</g><g class="marks">${layers.marks}</g>
    <g class="coords">${layers.coords}</g><g class="pieces">${layers.pieces}</g></svg>`;
  container.querySelector('svg').addEventListener('click', (e) => {
    const square = e.target.closest('[data-square]');
    if (square) view.onSquare(square.dataset.square);
  });
}

/**
 * A small menu over the board for picking one of several things (the piece
 * to move out of a crowd, a promotion, capture or join). `options`: list of
 * `{value, label, piece?: {color, name, letter}, disabled?}`. Calls
 * onPick(value), or onPick(null) when dismissed.
 */
export function openChooser(container, title, options, onPick) {
  closeChooser(container);
  const menu = document.createElement('div');
  menu.className = 'chooser';
  menu.setAttribute('role', 'dialog');
  menu.innerHTML = `<div class="chooser-title">${escapeHtml(title)}</div>` +
    options
      .map(
        (o, i) => `<button type="button" data-index="${i}" data-choice="${escapeHtml(o.value)}" ${o.disabled ? 'disabled' : ''}>
          ${o.piece ? pieceIcon(o.piece.color, o.piece.name, o.piece.letter, 36) : ''}<span>${escapeHtml(o.label)}</span></button>`,
      )
      .join('') +
    '<button type="button" class="chooser-cancel" data-index="-1">cancel</button>';
  const finish = (value) => {
    closeChooser(container);
    onPick(value);
  };
  menu.addEventListener('click', (e) => {
    e.stopPropagation();
    const button = e.target.closest('button');
    if (!button) return;
    const index = Number(button.dataset.index);
    finish(index < 0 ? null : options[index].value);
  });
  menu.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') finish(null);
  });
  container.appendChild(menu);
  menu.querySelector('button:not([disabled])')?.focus();
}

export function closeChooser(container) {
  container.querySelector('.chooser')?.remove();
}
