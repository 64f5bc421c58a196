// Help on the game page: the variant's rules for players in a disclosure
// (fetched from the server when first opened) with the legend of its
// pieces beyond chess's (`legend.js`), and, in the first simultaneous game this
// browser plays (only there), two sentences on how a turn works until they
// are dismissed.

import { api } from './api.js';
import { renderBoard } from './board.js';
import { isSimultaneous } from './gamestate.js';
import { setMessage } from './html.js';
import { t } from './i18n.js';
import { legendHtml } from './legend.js';
import { parseMove } from './moves.js';

/** localStorage key: the first simultaneous game's id, or `dismissed`. */
export const TURN_HELP_SEEN = 'parity_turn_help_seen';

/** Fills the rules panel and shows the turn explanation where due; idempotent. */
export function drawHelp(root, s) {
  const rules = root.querySelector('details.rules');
  if (rules && rules.dataset.variant !== s.variant.id) {
    rules.dataset.variant = s.variant.id;
    rules.variantInfo = s.variant;
    rules.querySelector('.rules-variant').textContent = s.variant.name;
    rules.querySelector('.rules-text').innerHTML = '';
    if (!rules.dataset.wired) {
      rules.dataset.wired = 'yes';
      rules.addEventListener('toggle', () => loadRules(rules));
    }
  }
  const help = root.querySelector('.turn-help');
  if (help) {
    const due = isSimultaneous(s) && s.you && s.status !== 'finished';
    help.hidden = !(due && isFirstSimultaneousGame(s.id));
    if (!help.dataset.wired) {
      help.dataset.wired = 'yes';
      help.querySelector('button').addEventListener('click', () => {
        remember(DISMISSED);
        help.hidden = true;
      });
    }
  }
}

const DISMISSED = 'dismissed';

// The key holds the first simultaneous game's id (the explanation shows
// there, reloads included), or DISMISSED.
function isFirstSimultaneousGame(id) {
  let first;
  try {
    first = localStorage.getItem(TURN_HELP_SEEN);
  } catch {
    return false; // no storage (private mode): say nothing rather than say it every time
  }
  if (first === null) {
    remember(id);
    return true;
  }
  return first === id;
}

function remember(value) {
  try {
    localStorage.setItem(TURN_HELP_SEEN, value);
  } catch {
    // Hidden for this page at least.
  }
}

async function loadRules(rules) {
  const text = rules.querySelector('.rules-text');
  if (!rules.open || text.dataset.loaded === rules.dataset.variant) return;
  text.dataset.loaded = rules.dataset.variant;
  text.textContent = t('help-rules-loading');
  try {
    // The server renders docs/rules and escapes any markup in it.
    text.innerHTML = await api.rules(rules.dataset.variant) + legendHtml(rules.variantInfo ?? {});
    drawDiagrams(text, rules.variantInfo ?? { id: rules.dataset.variant });
  } catch (e) {
    delete text.dataset.loaded;
    setMessage(text, t('help-rules-failed', { error: e.message }));
  }
}

/**
 * Draws the rules' diagrams (`figure.diagram`, with the position's FEN and
 * the moves played from it) with the game's board: the server reads the
 * line, so crowds, shared squares and waiting marks are the rules' own.
 */
export async function drawDiagrams(container, variant) {
  for (const figure of container.querySelectorAll('figure.diagram')) {
    const moves = (figure.dataset.moves ?? '').split(' ').filter(Boolean);
    try {
      const line = await api.analysisLine({ variant: variant.id, fen: figure.dataset.fen, moves });
      const position = line.positions.at(-1);
      const squares = new Map();
      const marks = new Map();
      const mark = (square, cls) => square && marks.set(square, [...(marks.get(square) ?? []), cls]);
      const waiting = (line.variant?.family ?? variant.family) === 'simultaneous';
      for (const sq of position.board) {
        squares.set(sq.square, { pieces: sq.pieces, lastMoved: waiting ? (sq.last_moved ?? []) : [] });
        if (new Set(sq.pieces.map((p) => p.color)).size > 1) mark(sq.square, 'shared');
      }
      // The last move or turn, tinted as on the game page.
      for (const uci of (moves.at(-1) ?? '').split(':')) {
        const m = parseMove(uci);
        if (m) [m.from, m.to].forEach((sq) => mark(sq, 'last'));
      }
      const board = figure.querySelector('.diagram-board');
      // A picture: clicks and drags do nothing.
      renderBoard(board, {
        files: line.variant.files, ranks: line.variant.ranks, flipped: false, squares, marks,
        onSquare: () => {}, onDragStart: () => false, onDrop: () => {},
      });
      board.querySelector('svg')?.setAttribute('aria-label', figure.querySelector('figcaption')?.textContent ?? t('help-diagram'));
    } catch (e) {
      setMessage(figure.querySelector('.diagram-board'), t('help-diagram-failed', { error: e.message }));
    }
  }
}
