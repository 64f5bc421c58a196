// How the game page looks: its markup, and each part drawn from the game
// state. Nothing here changes the state; game.js redraws after every change.

import { api } from './api.js';
import { renderBoard } from './board.js';
import { parseMove } from './moves.js';
import { pieceIcon } from './pieces.js';
import { escapeHtml, setMessage } from './html.js';
import { isSimultaneous, other } from './gamestate.js';
import { NAV_HTML, FEN_HTML } from './navigation.js';
import { drawHelp } from './help.js';
import { REVIEW_HTML, drawReview, moveJudgment, turnLosses } from './review.js';
import { t } from './i18n.js';

/** A side as a person names it: White, Black. */
const sideName = (color) => t('game-side', { color });
/** A message as markup (escaped). */
const tHtml = (id, args) => escapeHtml(t(id, args));

/** The game page's markup, in the language in force. */
export const gameTemplate = () => `
<section class="game">
  <div class="board-area">
    <div class="player" data-slot="top"></div>
    <div class="board-wrap"><div class="board-host"></div></div>
    <div class="player" data-slot="bottom"></div>
    ${REVIEW_HTML}
  </div>
  <aside class="panel">
    <div class="status" aria-live="polite"></div>
    <div class="turn-help" role="note" hidden><p>${tHtml('game-turn-help')}</p>
      <button type="button">${tHtml('game-got-it')}</button></div>
    <div class="invite" hidden></div>
    <div class="error" role="alert" hidden></div>
    <div class="notes" aria-live="polite"></div>
    <form class="entry" hidden>
      <input name="move" autocomplete="off" spellcheck="false" aria-label="${tHtml('game-move-label')}"
             placeholder="${tHtml('game-move-placeholder')}">
      <button type="submit">${tHtml('game-play')}</button>
    </form>
    <div class="offer" hidden></div>
    <div class="notice" aria-live="polite"></div>
    <p class="move-announce visually-hidden" aria-live="polite"></p>
    <div class="controls">
      <button type="button" data-action="flip">${tHtml('game-flip')}</button>
      <button type="button" data-action="resign" hidden>${tHtml('game-resign')}</button>
      <button type="button" data-action="draw" hidden>${tHtml('game-offer-draw')}</button>
      <button type="button" data-action="abort" hidden>${tHtml('game-abort')}</button>
      <button type="button" data-action="berserk" hidden title="${escapeHtml(t('game-berserk-title'))}">${tHtml('game-berserk')}</button>
      <button type="button" data-action="rematch" hidden>${tHtml('game-rematch')}</button>
      <button type="button" data-action="claim-victory" hidden>${tHtml('game-claim-victory')}</button>
      <a class="button" data-action="pgn" download>${tHtml('game-pgn')}</a>
      <button type="button" data-action="mute" aria-pressed="false">${tHtml('game-sound-on')}</button>
    </div>
    <details class="rules"><summary>${t('game-rules-of', { variant: '<span class="rules-variant"></span>' })}</summary>
      <div class="rules-text"></div></details>
    <h2>${tHtml('game-moves')}</h2>
    <ol class="moves"></ol>
    ${NAV_HTML}${FEN_HTML}
    <div class="meta"><span class="variant-name"></span> · <span class="conn">${tHtml('game-connecting')}</span> · <a href="/">${tHtml('game-lobby')}</a><span class="tournament-link" hidden> · <a href="">${tHtml('tournament-back')}</a></span></div>
  </aside>
</section>`;

/**
 * Draws the whole game `s` of game `id` into `root` (which holds TEMPLATE).
 * `view`: flipped, selection ({from, targets} or null), premove ({from,
 * to} or null), sim (simturn.js), muted, the board's handlers and
 * animations as renderBoard takes them (onSquare, onDragStart, onDrop,
 * onRightClick, animate), and shown: null for the game now, or
 * `{ply, position}` for the position after `ply` moves (turns) that the
 * move list is navigated to (a position of `/positions`), review: the
 * game's computer analysis (null: none) and reviewRunning.
 */
export function drawGame(root, id, s, view) {
  const bottom = view.flipped ? 'black' : 'white';
  drawPlayer(root, s, view.sim, 'top', other(bottom));
  drawPlayer(root, s, view.sim, 'bottom', bottom);
  const shown = view.shown ? positionState(s, view.shown.ply, view.shown.position) : s;
  drawBoard(root, shown, view);
  drawPosition(root, s.variant.id, shown.fen);
  const status = root.querySelector('.status');
  status.textContent = statusText(s, view.sim);
  status.classList.toggle('warning', view.sim.secretElsewhere());
  root.querySelector('.game').dataset.status = s.status;
  root.querySelector('.game').dataset.family = s.variant.family;
  root.querySelector('.variant-name').textContent = s.variant.name;
  drawMoves(root, s, view.shown?.ply ?? null, view.review);
  drawReview(root, s, view.review ?? null, Boolean(view.reviewRunning), view.shown?.ply ?? null);
  drawControls(root, id, s, view.sim);
  drawClocks(root, s);
  drawHelp(root, s);
  const mute = root.querySelector('[data-action="mute"]');
  mute.textContent = view.muted ? t('game-sound-off') : t('game-sound-on');
  mute.setAttribute('aria-pressed', String(view.muted));
}

// ---- board ----

/**
 * The game `s` as it stood after `ply` moves (turns): `position` (from
 * the server's line) for the board, and the moves up to it for the marks.
 */
export function positionState(s, ply, position) {
  return { ...s, board: position.board, fen: position.fen, to_move: position.to_move, moves: (s.moves ?? []).slice(0, ply) };
}

function drawPosition(root, variant, fen) {
  const field = root.querySelector('.fen');
  if (field.value !== fen) field.value = fen ?? '';
  root.querySelector('.analyse').href = `/analysis?variant=${encodeURIComponent(variant)}&fen=${encodeURIComponent(fen ?? '')}`;
}

/** What stands on each occupied square, as renderBoard takes it. */
export function boardSquares(s) {
  const map = new Map();
  // The waiting marks matter only where the waiting rule can apply; in
  // turn-based games the last move's tint says it all.
  const waiting = isSimultaneous(s);
  for (const sq of s.board ?? []) {
    map.set(sq.square, { pieces: sq.pieces, lastMoved: waiting ? (sq.last_moved ?? []) : [] });
  }
  return map;
}

// The moves of the last turn (simultaneous) or the last move (turn-based).
function lastPlayed(s) {
  const last = s.moves?.at(-1);
  if (!last) return [];
  return isSimultaneous(s) ? [last.white, last.black].filter(Boolean) : [last];
}

function kingSquare(s, color) {
  return s.board?.find((sq) => sq.pieces.some((p) => p.color === color && p.name.toLowerCase() === 'king'))
    ?.square;
}

// The squares' marks: selection, targets, last move, shared square,
// check, and this seat's committed move.
function boardMarks(s, view) {
  const marks = new Map();
  const mark = (square, cls) => square && marks.set(square, [...(marks.get(square) ?? []), cls]);
  for (const played of lastPlayed(s)) {
    const m = parseMove(played.uci ?? '');
    if (m) [m.from, m.to].forEach((sq) => mark(sq, 'last'));
  }
  // Every square a white and a black piece share, every turn they do.
  for (const sq of s.board ?? []) {
    const colors = new Set(sq.pieces.map((p) => p.color));
    if (colors.size > 1) mark(sq.square, 'shared');
  }
  // The king in check, and a mated king after the game (no side is to
  // move then, so the checked side comes from the move that checked).
  const last = s.moves?.at(-1);
  if (isSimultaneous(s) && last?.notes) {
    for (const color of ['white', 'black']) {
      if (last.notes[color]?.check) mark(kingSquare(s, other(color)), 'check');
    }
  } else if (!isSimultaneous(s) && /[+#]$/.test(last?.san ?? '')) {
    mark(kingSquare(s, other(last.color)), 'check');
  }
  if (view.premove && !view.shown) [view.premove.from, view.premove.to].forEach((sq) => mark(sq, 'premove'));
  const committed = view.shown ? null : view.sim?.pending();
  if (committed) {
    const m = parseMove(committed.move);
    if (m) [m.from, m.to].forEach((sq) => mark(sq, 'pending'));
  }
  if (view.selection) {
    mark(view.selection.from, 'selected');
    for (const to of view.selection.targets) mark(to, 'target');
  }
  return marks;
}

/** Draws the board of `s` (with its marks) into root's `.board-host`. */
export function drawBoard(root, s, view) {
  renderBoard(root.querySelector('.board-host'), {
    files: s.variant.files,
    ranks: s.variant.ranks,
    flipped: view.flipped,
    squares: boardSquares(s),
    marks: boardMarks(s, view),
    onSquare: view.onSquare,
    onDragStart: view.onDragStart,
    onDrop: view.onDrop,
    onRightClick: view.onRightClick,
    animate: view.animate,
    keyboard: true,
  });
  root.querySelector('.board-area').style.setProperty('--aspect', s.variant.files / s.variant.ranks);
}

// ---- players and status ----

function seatLabel(s, color) {
  const seat = s[color] ?? {};
  const account = s.players?.[color];
  if (account?.user) {
    const diff = account.ratingDiff == null ? '' : ` ${ratingDiffText(account.ratingDiff)}`;
    const rating = account.rating == null ? '' : ` (${account.rating}${account.provisional ? '?' : ''}${diff})`;
    const name = account.user.name;
    return `${color === s.you ? t('game-seat-you-named', { name }) : name}${rating}`;
  }
  if (color === s.you) return t('game-seat-you');
  if (seat.kind === 'engine') return t('game-seat-engine', { level: seat.level });
  if (seat.joined === false) return t('game-seat-invited');
  return t('game-seat-human');
}

function drawPlayer(root, s, sim, slot, color) {
  const el = root.querySelector(`.player[data-slot="${slot}"]`);
  el.dataset.color = color;
  el.innerHTML = `${pieceIcon(color, 'king', 'K', 28)}
      <span class="name">${tHtml('game-seat', { color, player: seatLabel(s, color) })}</span>
      <span class="commit-state" data-commit="${color}">${escapeHtml(sim.commitState(color))}</span>
      <span class="clock" data-clock="${color}"></span>`;
}

// How a game was won, after "You won" or "You lost" (the catalogue's ids).
const WON_BY = {
  checkmate: 'game-how-checkmate',
  resignation: 'game-how-resignation',
  time: 'game-how-time',
  'no-reveal': 'game-how-no-reveal',
  'no-legal-move': 'game-how-no-legal-move',
  'both-checkmated': 'game-how-both-checkmated',
  stalemate: 'game-how-stalemate',
};

// The words for each reason a game ends (the server's `reason_text`), by
// its machine name: the catalogue's ids.
const REASONS = {
  checkmate: 'game-reason-checkmate',
  stalemate: 'game-reason-stalemate',
  'no-legal-move': 'game-reason-no-legal-move',
  'both-checkmated': 'game-reason-both-checkmated',
  'kings-share-square': 'game-reason-kings-share-square',
  'fifty-moves': 'game-reason-fifty-moves',
  repetition: 'game-reason-repetition',
  'insufficient-material': 'game-reason-insufficient-material',
  resignation: 'game-reason-resignation',
  agreement: 'game-reason-agreement',
  time: 'game-reason-time',
  abort: 'game-reason-abort',
  'no-reveal': 'game-reason-no-reveal',
};

/** A rating change as lichess writes it: `+12`, `−7` (a minus sign), `±0`. */
export function ratingDiffText(diff) {
  return diff > 0 ? `+${diff}` : diff < 0 ? `\u2212${-diff}` : '\u00b10';
}

/** The end of a game: to a seated player in their own words (`You lost
 * by checkmate (0-1).`) with the rating it moved; to others the result. */
function finishedText(s) {
  // The words for the reason once the server's arrive (in the page's
  // language when the catalogue knows the reason); its machine name until then.
  const why = s.reason_text ? (REASONS[s.reason] ? t(REASONS[s.reason]) : s.reason_text) : s.reason;
  const result = s.result;
  if (!s.you || s.reason === 'abort') return why ? t('game-over-why', { result, why }) : t('game-over', { result });
  const winner = { '1-0': 'white', '0-1': 'black' }[result];
  const won = winner === s.you;
  let said;
  if (winner && WON_BY[s.reason]) {
    const how = t(WON_BY[s.reason]);
    said = won ? t('game-you-won-how', { how, result }) : t('game-you-lost-how', { how, result });
  } else if (winner && why) {
    said = won ? t('game-you-won-why', { why, result }) : t('game-you-lost-why', { why, result });
  } else if (winner) {
    said = won ? t('game-you-won', { result }) : t('game-you-lost', { result });
  } else {
    said = why ? t('game-draw-why', { why, result }) : t('game-draw', { result });
  }
  const mine = s.players?.[s.you];
  if (mine?.ratingDiff == null) return said;
  const rating = t('game-your-rating', { rating: mine.rating + mine.ratingDiff, diff: ratingDiffText(mine.ratingDiff) });
  return `${said} ${rating}`;
}

function statusText(s, sim) {
  if (s.status === 'waiting') return t('game-waiting-opponent');
  if (s.status === 'finished') return finishedText(s);
  if (!isSimultaneous(s)) {
    if (s.to_move === s.you) return t('game-your-move');
    return t('game-to-move', { color: s.to_move });
  }
  return sim.statusLine();
}

// ---- moves and notes ----

function notesHtml(turnNumber, entry) {
  const side = (color) => {
    const move = entry[color];
    const text = entry.notes?.[color]?.text;
    const check = entry.notes?.[color]?.check;
    return `<div class="note ${color}${check ? ' gives-check' : ''}" data-notes="${color}">
        <b>${escapeHtml(sideName(color))}</b> ${escapeHtml(move?.san ?? move?.uci ?? '')}${text ? `: <span class="note-text">${escapeHtml(text)}</span>` : ''}</div>`;
  };
  return `<div class="notes-title">${tHtml('game-turn-title', { turn: turnNumber })}</div>${side('white')}${side('black')}`;
}

/** A turn's notes in one line, each side's named: `White: takes pawn · Black: capture fails`. */
export function turnNoteText(turn) {
  return ['white', 'black']
    .filter((c) => turn.notes?.[c]?.text)
    .map((c) => t('game-side-note', { color: c, text: turn.notes[c].text }))
    .join(' · ');
}

/**
 * The move list of `s`; `ply` is the position navigated to (null: the
 * game now), whose move is marked `current`. Every move carries the ply
 * (turn) it leads to in `data-ply`.
 */
export function drawMoves(root, s, ply, review = null) {
  const list = root.querySelector('.moves');
  const moves = s.moves ?? [];
  const at = ply ?? moves.length;
  const current = (n) => (n === at ? ' current' : '');
  // Numbered from the start position's number (the analysis board's FEN).
  const first = s.firstNumber ?? 1;
  list.start = first;
  if (isSimultaneous(s)) {
    list.innerHTML = moves
      .map((t, i) => {
        const text = turnNoteText(t);
        const losses = turnLosses(review, i + 1);
        return `<li data-turn="${i + 1}" data-ply="${i + 1}" class="turn${current(i + 1)}"><span class="mv">${escapeHtml(t.white?.san ?? t.white?.uci ?? '')}</span>
            <span class="mv">${escapeHtml(t.black?.san ?? t.black?.uci ?? '')}</span>${text ? `<div class="move-note">${escapeHtml(text)}</div>` : ''}${losses ? `<div class="move-note review-note">${escapeHtml(losses)}</div>` : ''}</li>`;
      })
      .join('');
    const turn = moves[at - 1];
    const notes = root.querySelector('.notes');
    if (notes) notes.innerHTML = turn ? notesHtml(first + at - 1, turn) : '';
  } else {
    const rows = [];
    moves.forEach((m, i) => {
      if (m.color === 'white' || rows.length === 0) rows.push([]);
      rows.at(-1).push({ ...m, ply: i + 1 });
    });
    list.innerHTML = rows
      .map((row) => `<li>${row.map((m) => {
        const judged = moveJudgment(review, m.ply);
        const mark = judged ? ` ${judged.judgment}" title="${escapeHtml(judged.comment)}` : '';
        return `<span class="mv ${m.color}${current(m.ply)}${mark}" data-ply="${m.ply}">${escapeHtml(m.san ?? m.uci)}${judged ? `<span class="glyph">${judged.glyph}</span>` : ''}</span>`;
      }).join(' ')}</li>`)
      .join('');
    const notes = root.querySelector('.notes');
    if (notes) notes.innerHTML = '';
  }
  if (ply === null) list.scrollTop = list.scrollHeight;
  else list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  for (const button of root.querySelectorAll('[data-nav]')) {
    const forward = button.dataset.nav === 'next' || button.dataset.nav === 'last';
    button.disabled = forward ? at >= moves.length : at <= 0;
  }
}

// ---- actions, offers and the invite ----

function drawControls(root, id, s, sim) {
  const seated = Boolean(s.you);
  const show = (action, visible, label) => {
    const button = root.querySelector(`[data-action="${action}"]`);
    button.hidden = !visible;
    if (label) button.textContent = label;
  };
  const noMovesYet = isSimultaneous(s) ? (s.moves ?? []).length === 0 : (s.moves ?? []).length < 2;
  show('resign', seated && s.status === 'started');
  show('draw', seated && s.status === 'started' && !s.draw_offer, t('game-offer-draw'));
  show('abort', seated && s.status !== 'finished' && noMovesYet);
  // An arena's game (the page learns it from the export): halve one's clock before one's first move.
  show('berserk', seated && root.dataset.tournament !== undefined && s.status === 'started' && noMovesYet
    && s.clock && !s.berserk?.[s.you]);
  const theyAsked = s.rematch_offer && s.rematch_offer !== s.you;
  show('rematch', seated && s.status === 'finished' && !s.rematch_game && s.rematch_offer !== s.you
    && root.dataset.tournament === undefined,
    theyAsked ? t('game-accept-rematch') : t('game-rematch'));
  show('claim-victory', sim.canClaim());
  root.querySelector('[data-action="pgn"]').href = api.pgnUrl(id);
  root.querySelector('[data-action="pgn"]').setAttribute('download', `${id}.pgn`);

  const offer = root.querySelector('.offer');
  offer.hidden = !(s.status === 'started' && s.draw_offer);
  if (s.draw_offer === s.you) {
    offer.innerHTML = tHtml('game-you-offered-draw');
  } else if (s.draw_offer) {
    offer.innerHTML = tHtml('game-offers-draw', { color: s.draw_offer }) +
      (seated ? ` <button type="button" data-answer="draw/yes">${tHtml('game-accept')}</button><button type="button" data-answer="draw/no">${tHtml('game-decline')}</button>` : '');
  }
  if (s.rematch_game) {
    offer.hidden = false;
    const link = `<a href="/game/${s.rematch_game}">${tHtml('game-rematch-open')}</a>`;
    offer.innerHTML = t('game-rematch-link', { link });
  } else if (s.status === 'finished' && s.rematch_offer) {
    offer.hidden = false;
    if (s.rematch_offer === s.you) {
      offer.innerHTML = tHtml('game-rematch-offered') +
        ` <button type="button" data-answer="rematch/no">${tHtml('game-cancel')}</button>`;
    } else {
      offer.innerHTML = tHtml('game-asks-rematch', { color: s.rematch_offer }) +
        (seated ? ` <button type="button" data-answer="rematch/no">${tHtml('game-decline')}</button>` : '');
    }
  }

  const invite = root.querySelector('.invite');
  invite.hidden = !(s.invite && s.status === 'waiting');
  if (!invite.hidden && !invite.querySelector('input')) {
    const link = new URL(s.invite, location.origin).href;
    invite.innerHTML = `<label>${tHtml('game-invite-send')}
        <input readonly value="${escapeHtml(link)}"></label><button type="button">${tHtml('game-copy')}</button>`;
  }
  root.querySelector('.entry').hidden = !(seated && s.status === 'started');
}

// ---- clocks ----

// Clocks count down locally from the last value the server sent, after
// the reveal grace it gave.
function formatClock(ms) {
  if (ms == null) return '';
  const total = Math.max(0, ms);
  const days = Math.floor(total / 86400000);
  if (days >= 1) return t('game-clock-days', { days, hours: Math.floor((total % 86400000) / 3600000) });
  const h = Math.floor(total / 3600000);
  const m = Math.floor((total % 3600000) / 60000);
  const sec = Math.floor((total % 60000) / 1000);
  if (h) return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
  if (total < 10000) return `${sec}.${Math.floor((total % 1000) / 100)}`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

// Low time: 10% of the initial time, but at least 10 s and at most 60 s.
function lowTimeMs(s) {
  const initial = (s.clock?.initial ?? 0) * 1000;
  return Math.min(60000, Math.max(10000, initial / 10));
}

/**
 * Redraws both clocks; `s` may still be null before the first `gameFull`.
 * Returns the colours whose running clock is low on time.
 */
export function drawClocks(root, s) {
  const low = [];
  if (!s?.clocks) return low;
  const elapsed = Math.max(0, performance.now() - s.receivedAt - (s.clocks.grace_ms ?? 0));
  for (const color of ['white', 'black']) {
    const el = root.querySelector(`[data-clock="${color}"]`);
    if (!el) continue;
    const running = s.status === 'started' && (s.clocks.running ?? []).includes(color);
    const left = s.clocks[`${color}_ms`] - (running ? elapsed : 0);
    el.textContent = formatClock(left);
    el.classList.toggle('running', running);
    const isLow = s.status === 'started' && left < lowTimeMs(s);
    el.classList.toggle('low', isLow);
    if (isLow && running) low.push(color);
  }
  return low;
}

// ---- messages ----

export function showError(root, e) {
  const box = root.querySelector('.error');
  setMessage(box, e.message);
  box.hidden = false;
}

export function clearError(root) {
  root.querySelector('.error').hidden = true;
}

/** A passing word to this player (a declined offer, why a piece cannot move); '' clears it. */
export function showNotice(root, text) {
  root.querySelector('.notice').textContent = text;
}

/** The page for a game id the server does not know: no game page, no feed. */
export function drawNoSuchGame(root, id) {
  root.innerHTML = `<section class="no-such-game">
      <h2>${tHtml('game-no-such-game')}</h2>
      <p>${t('game-no-such-game-text', { id: `<code>${escapeHtml(id)}</code>` })}</p>
      <p><a class="button" href="/">${tHtml('game-back-to-lobby')}</a></p>
    </section>`;
}

/** The words for the feed's state, which must not read like a time control (the catalogue's ids). */
const CONNECTION_WORDS = {
  live: 'game-conn-live',
  reconnecting: 'game-conn-reconnecting',
  polling: 'game-conn-polling',
};

/** The feed's state in the footer: `live`, `reconnecting` or `polling`. */
export function showConnection(root, status) {
  const conn = root.querySelector('.conn');
  conn.textContent = CONNECTION_WORDS[status] ? t(CONNECTION_WORDS[status]) : status;
  conn.dataset.conn = status;
}
