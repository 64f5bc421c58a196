// The board as one SVG drawn from the variant's shape: 100 units per
// square, rank 1 at the bottom unless flipped. Squares carry
// `data-square`; everything drawn over them ignores the pointer, so a click
// anywhere on a square reaches its rect.

import { pieceSvg, pieceIcon, pieceWords } from './pieces.js';
import { squareName, squareCoords } from './moves.js';
import { escapeHtml } from './html.js';
import { settings } from './settings.js';
import { t } from './i18n.js';

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

// A marker per side whose piece here moved last turn and must wait: down
// the right edge, or along the top on a shared square, where the lower
// piece (bottom-right) would be covered.
function drawLastMoved(colors, shared) {
  return colors
    .map((color, i) => {
      const [cx, cy] = shared ? [86 - i * 22, 12] : [86, 14 + i * 22];
      return `<g class="waiting ${color}" data-waiting="${color}"><title>${escapeHtml(t('game-waiting-mark', { color }))}</title>
        <circle cx="${cx}" cy="${cy}" r="10"/><path d="M${cx - 3} ${cy - 5} V${cy + 5} M${cx + 3} ${cy - 5} V${cy + 5}"/></g>`;
    })
    .join('');
}

/**
 * Draws the board into `container`. `view`: files, ranks, flipped,
 * squares (Map name -> {pieces, lastMoved}), marks (Map name -> list of
 * classes: `selected`, `target`, `last`, `check`, `shared`, `pending`,
 * `premove`), onSquare(name) for clicks, and optionally
 * onDragStart(from) (true when that piece may be dragged),
 * onDrop(from, to) (`to` null off the board), onRightClick() and
 * animate (a list of {from, to}: pieces that just arrived on `to`).
 * With `keyboard`, the board takes the focus (Tab) and a cursor: arrow
 * keys move it, Enter or Space acts as a click on its square.
 */
export function renderBoard(container, view) {
  const width = view.files * SIZE;
  const height = view.ranks * SIZE;
  const layers = { squares: '', marks: '', pieces: '', coords: '' };
  const hadFocus = Boolean(view.keyboard) && container.contains(document.activeElement);
  if (view.keyboard) {
    // The cursor starts on the player's own second rank, mid-board.
    container.cursor ??= squareName(Math.floor((view.files - 1) / 2), view.flipped ? view.ranks - 2 : 1);
    const { file, rank } = squareCoords(container.cursor);
    const [x, y] = origin(view, file, rank);
    layers.marks += `<rect class="cursor-ring" x="${x + 4}" y="${y + 4}" width="${SIZE - 8}" height="${SIZE - 8}"/>`;
  }
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
        const shared = marks.includes('shared');
        const dragged = container.dragFrom === name ? ' dragged' : '';
        layers.pieces += `<g class="square-pieces${dragged}" data-pieces-on="${name}" transform="translate(${x} ${y})">
          ${drawPieces(name, content.pieces)}${drawLastMoved(content.lastMoved, shared)}</g>`;
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
  const board = escapeHtml(t('game-board'));
  const role = view.keyboard
    ? `tabindex="0" role="application" aria-roledescription="${board}" aria-label="${escapeHtml(t('game-board-keys'))}"`
    : `role="img" aria-label="${board}"`;
  container.innerHTML = `<svg class="board" viewBox="0 0 ${width} ${height}" data-files="${view.files}"
    data-ranks="${view.ranks}" ${role}>
    <g class="squares">${layers.squares}</g><g class="marks">${layers.marks}</g>
    <g class="coords">${layers.coords}</g><g class="pieces">${layers.pieces}</g></svg>
    ${view.keyboard ? `<p class="board-cursor visually-hidden" aria-live="polite">${escapeHtml(cursorText(view, container.cursor))}</p>` : ''}`;
  container.boardView = view;
  const svg = container.querySelector('svg');
  if (view.keyboard) {
    svg.addEventListener('keydown', (e) => onBoardKey(container, view, e));
    if (hadFocus) svg.focus({ preventScroll: true });
  }
  svg.addEventListener('click', (e) => {
    // The click a drag ends with is not a second choice.
    if (container.dragJustEnded) return;
    const square = e.target.closest('[data-square]');
    if (square) view.onSquare(square.dataset.square);
  });
  svg.addEventListener('contextmenu', (e) => {
    if (!view.onRightClick) return;
    e.preventDefault();
    view.onRightClick();
  });
  svg.addEventListener('pointerdown', (e) => watchDrag(container, e));
  animateArrivals(svg, view);
}

// ---- the keyboard ----

/** Screen directions of the arrow keys: [right, up]. */
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/** The cursor's square and what stands on it, for a screen reader. */
function cursorText(view, name) {
  const pieces = view.squares.get(name)?.pieces ?? [];
  const words = pieces.length ? pieces.map((p) => pieceWords(p.color, p.name.toLowerCase())).join(', ') : t('game-cursor-empty');
  return t('game-cursor', { square: name, pieces: words });
}

function onBoardKey(container, view, e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    view.onSquare(container.cursor);
    return;
  }
  const arrow = ARROWS[e.key];
  if (!arrow) return;
  // The board's arrows move the cursor, not through the moves.
  e.preventDefault();
  e.stopPropagation();
  const sign = view.flipped ? -1 : 1;
  const { file, rank } = squareCoords(container.cursor);
  const to = [file + sign * arrow[0], rank + sign * arrow[1]];
  if (to[0] < 0 || to[0] >= view.files || to[1] < 0 || to[1] >= view.ranks) return;
  container.cursor = squareName(to[0], to[1]);
  const [x, y] = origin(view, to[0], to[1]);
  const ring = container.querySelector('.cursor-ring');
  ring.setAttribute('x', x + 4);
  ring.setAttribute('y', y + 4);
  container.querySelector('.board-cursor').textContent = cursorText(view, container.cursor);
}

// ---- drag and drop ----

/** Pointer travel before a press becomes a drag; less is a click. */
const DRAG_START_PX = 6;

// Pointer events, so a mouse, a pen and a finger all drag. The board may
// be redrawn during a drag (a feed event), so the drag follows the
// document and reads the current view from the container.
function watchDrag(container, down) {
  if (down.button !== 0 || !down.isPrimary) return;
  const from = down.target.closest('[data-square]')?.dataset.square;
  if (!from || !container.boardView.squares.has(from) || !container.boardView.onDragStart) return;
  let ghost = null;
  const end = () => {
    document.removeEventListener('pointermove', move);
    document.removeEventListener('pointerup', up);
    document.removeEventListener('pointercancel', cancel);
    if (!ghost) return false;
    ghost.remove();
    container.dragFrom = null;
    // The browser sends that click in the same task as the pointerup.
    container.dragJustEnded = true;
    setTimeout(() => { container.dragJustEnded = false; });
    return true;
  };
  const move = (e) => {
    if (!ghost) {
      if (Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) < DRAG_START_PX) return;
      const pieces = container.querySelector(`[data-pieces-on="${from}"]`);
      const size = container.querySelector(`[data-square="${from}"]`).getBoundingClientRect().width;
      ghost = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      ghost.setAttribute('class', 'drag-ghost');
      ghost.setAttribute('viewBox', `0 0 ${SIZE} ${SIZE}`);
      ghost.innerHTML = pieces.innerHTML;
      ghost.style.width = ghost.style.height = `${size}px`;
      document.body.appendChild(ghost);
      container.dragFrom = from;
      if (!container.boardView.onDragStart(from)) {
        end();
        return;
      }
      container.querySelector(`[data-pieces-on="${from}"]`)?.classList.add('dragged');
    }
    const half = ghost.getBoundingClientRect().width / 2;
    ghost.style.transform = `translate(${e.clientX - half}px, ${e.clientY - half}px)`;
  };
  const up = (e) => {
    if (!end()) return;
    const target = document.elementFromPoint(e.clientX, e.clientY)?.closest?.('[data-square]');
    const to = target && container.contains(target) ? target.dataset.square : null;
    container.boardView.onDrop(from, to);
  };
  const cancel = () => {
    if (end()) container.boardView.onDrop(from, null);
  };
  document.addEventListener('pointermove', move);
  document.addEventListener('pointerup', up);
  document.addEventListener('pointercancel', cancel);
}

// ---- move animation ----

const ANIMATION_MS = 150;

/** Slides the pieces that just arrived from their squares of departure. */
function animateArrivals(svg, view) {
  if (!view.animate?.length || !settings().animation || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const at = (name) => {
    const { file, rank } = squareCoords(name);
    return origin(view, file, rank);
  };
  for (const { from, to } of view.animate) {
    const pieces = svg.querySelector(`[data-pieces-on="${to}"]`);
    if (!pieces?.animate) continue;
    const [fx, fy] = at(from);
    const [tx, ty] = at(to);
    pieces.animate(
      [{ transform: `translate(${fx}px, ${fy}px)` }, { transform: `translate(${tx}px, ${ty}px)` }],
      { duration: ANIMATION_MS, easing: 'ease-out' },
    );
  }
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
    `<button type="button" class="chooser-cancel" data-index="-1">${escapeHtml(t('game-chooser-cancel'))}</button>`;
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
