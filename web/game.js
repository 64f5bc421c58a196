// The game page: board, clocks, moves, actions and the live feed;
// simturn.js keeps a simultaneous turn's commit-reveal. The state shown is
// the last `gameFull` plus the events received after it (gamestate.js); events that change the position (a move, a turn, the
// start, the end) make the page fetch a fresh `gameFull`, which also brings
// the new legal moves.

import { api, GameFeed } from './api.js';
import { renderBoard, openChooser, closeChooser } from './board.js';
import { parseMove, findTypedMove } from './moves.js';
import { pieceIcon } from './pieces.js';
import { escapeHtml } from './html.js';
import { STRUCTURAL, other, isSimultaneous, fromFull, applyEvent } from './gamestate.js';
import { simultaneousTurn } from './simturn.js';

const cap = (s) => s[0].toUpperCase() + s.slice(1);

const TEMPLATE = `
<section class="game">
  <div class="board-area">
    <div class="player" data-slot="top"></div>
    <div class="board-wrap"><div class="board-host"></div></div>
    <div class="player" data-slot="bottom"></div>
  </div>
  <aside class="panel">
    <div class="status" aria-live="polite"></div>
    <div class="invite" hidden></div>
    <div class="error" role="alert" hidden></div>
    <div class="notes" aria-live="polite"></div>
    <form class="entry" hidden>
      <input name="move" autocomplete="off" spellcheck="false" aria-label="move"
             placeholder="type a move (e2e4) and press Enter">
      <button type="submit">Play</button>
    </form>
    <div class="offer" hidden></div>
    <div class="controls">
      <button type="button" data-action="flip">Flip board</button>
      <button type="button" data-action="resign" hidden>Resign</button>
      <button type="button" data-action="draw" hidden>Offer draw</button>
      <button type="button" data-action="abort" hidden>Abort</button>
      <button type="button" data-action="rematch" hidden>Rematch</button>
      <a class="button" data-action="pgn" download>PGN</a>
    </div>
    <h2>Moves</h2>
    <ol class="moves"></ol>
    <div class="meta"><span class="variant-name"></span> · <span class="conn">connecting…</span> · <a href="/">lobby</a></div>
  </aside>
</section>`;

export async function showGame(root, id) {
  root.innerHTML = TEMPLATE;
  const $ = (selector) => root.querySelector(selector);
  const g = {
    base: null, // the last gameFull
    events: [], // events with seq above base.seq, in order
    state: null, // base with the events applied
    flipped: null, // null until the seat is known
    selected: null, // {from, piece}
    fetching: false,
    refetch: false,
  };
  const sim = simultaneousTurn(id, { state: () => g.state, act, update, showError });

  // ---- state from the feed ----

  function receive(message) {
    message.receivedAt = performance.now();
    if (message.type === 'gameFull') {
      if (g.base && message.seq < g.base.seq) return;
      g.base = message;
      g.events = g.events.filter((e) => e.seq > message.seq);
    } else if (typeof message.seq === 'number' && message.type !== 'ack') {
      const last = g.events.at(-1)?.seq ?? g.base?.seq ?? 0;
      if (message.seq <= last) return;
      g.events.push(message);
      if (STRUCTURAL.has(message.type)) refresh();
    } else {
      return;
    }
    if (!g.base) return;
    g.state = g.events.reduce(applyEvent, fromFull(g.base));
    if (g.flipped === null) g.flipped = g.state.you === 'black';
    update();
    sim.maybeReveal();
    // Both asked for a rematch while we watch: go to the new game (an old
    // game's page opened later only shows the link).
    if (message.type === 'rematch' && g.state.you) location.assign(`/game/${message.game}`);
  }

  async function refresh() {
    if (g.fetching) {
      g.refetch = true;
      return;
    }
    g.fetching = true;
    try {
      receive(await api.game(id));
    } catch (e) {
      showError(e);
    } finally {
      g.fetching = false;
      if (g.refetch) {
        g.refetch = false;
        refresh();
      }
    }
  }

  // ---- derived facts ----

  const isSim = () => isSimultaneous(g.state);
  const me = () => g.state.you;
  function canMove() {
    const s = g.state;
    if (!me() || s.status !== 'started') return false;
    return isSim() ? !sim.hasCommitted(me()) : s.to_move === me();
  }
  const legalMoves = () => (canMove() ? (g.state.legal?.[me()] ?? []).map(parseMove).filter(Boolean) : []);
  function squares() {
    const map = new Map();
    // The waiting marks matter only where the waiting rule can apply; in
    // turn-based games the last move's tint says it all.
    const waiting = isSim();
    for (const sq of g.state.board ?? []) {
      map.set(sq.square, { pieces: sq.pieces, lastMoved: waiting ? (sq.last_moved ?? []) : [] });
    }
    return map;
  }
  const pieceByLetter = (letter) =>
    g.state.variant.pieces.find((p) => p.letter.toUpperCase() === letter.toUpperCase());

  // The moves of the last turn (simultaneous) or the last move (turn-based).
  function lastPlayed() {
    const last = g.state.moves?.at(-1);
    if (!last) return [];
    return isSim() ? [last.white, last.black].filter(Boolean) : [last];
  }

  function kingSquare(color) {
    return g.state.board?.find((sq) => sq.pieces.some((p) => p.color === color && p.name.toLowerCase() === 'king'))
      ?.square;
  }

  // The squares' marks: selection, targets, last move, shared square,
  // check, and this seat's committed move.
  function boardMarks() {
    const marks = new Map();
    const mark = (square, cls) => square && marks.set(square, [...(marks.get(square) ?? []), cls]);
    for (const played of lastPlayed()) {
      const m = parseMove(played.uci ?? '');
      if (m) [m.from, m.to].forEach((sq) => mark(sq, 'last'));
    }
    const last = g.state.moves?.at(-1);
    if (isSim() && last?.notes) {
      for (const color of ['white', 'black']) {
        const notes = last.notes[color];
        if (notes?.co_occupied) mark(notes.co_occupied, 'shared');
        if (notes?.check) mark(kingSquare(other(color)), 'check');
      }
    } else if (!isSim() && /[+#]$/.test(last?.san ?? '')) {
      mark(kingSquare(g.state.to_move), 'check');
    }
    const committed = sim.pending();
    if (committed) {
      const m = parseMove(committed.move);
      if (m) [m.from, m.to].forEach((sq) => mark(sq, 'pending'));
    }
    if (g.selected) {
      mark(g.selected.from, 'selected');
      for (const m of selectedMoves()) mark(m.to, 'target');
    }
    return marks;
  }

  function selectedMoves() {
    if (!g.selected) return [];
    return legalMoves().filter((m) => m.from === g.selected.from && m.piece === g.selected.piece);
  }

  // ---- board input ----

  const wrap = $('.board-wrap');

  function onSquare(name) {
    closeChooser(wrap);
    const onTarget = selectedMoves().filter((m) => m.to === name);
    if (onTarget.length) {
      g.selected = null;
      chooseAmong(onTarget);
      return;
    }
    const here = legalMoves().filter((m) => m.from === name);
    const content = squares().get(name);
    const kinds = [...new Set(here.map((m) => m.piece))];
    g.selected = kinds.length === 1 ? { from: name, piece: kinds[0] } : null;
    if (kinds.length > 1 || (content && content.pieces.length > 2)) pickFromCrowd(name, content, kinds);
    update();
  }

  // A crowd: list every piece on the square; this seat's pieces that can
  // move are buttons (a named kind when the seat has several kinds here).
  function pickFromCrowd(square, content, kinds) {
    const groups = new Map();
    for (const p of content.pieces) {
      const key = `${p.color} ${p.letter}`;
      groups.set(key, { ...groups.get(key), piece: p, count: (groups.get(key)?.count ?? 0) + 1 });
    }
    const options = [...groups.values()].map(({ piece, count }) => {
      const kind = kinds.includes(piece.letter) ? piece.letter : kinds.length === 1 ? kinds[0] : undefined;
      const movable = piece.color === me() && kind !== undefined;
      return {
        value: movable ? (kind ?? '-') : '',
        label: `${piece.color} ${piece.name.toLowerCase()}${count > 1 ? ` ×${count}` : ''}`,
        piece,
        disabled: !movable,
      };
    });
    const title = `${content.pieces.length} pieces on ${square}${kinds.length ? ': which one moves?' : ''}`;
    openChooser(wrap, title, options, (value) => {
      g.selected = value ? { from: square, piece: value === '-' ? null : value } : null;
      update();
    });
  }

  // Several legal moves between the same squares: promotion, capture or
  // join, castling or a king step.
  function chooseAmong(moves) {
    if (moves.length === 1) {
      play(moves[0]);
      return;
    }
    const options = moves.map((m) => {
      const promoted = m.promotion && pieceByLetter(m.promotion);
      if (promoted) {
        return { value: m.uci, label: promoted.name.toLowerCase(), piece: { ...promoted, color: me() } };
      }
      if (m.rook) return { value: m.uci, label: `castle with the rook on ${m.rook}` };
      if (m.join) return { value: m.uci, label: 'join (share the square)' };
      return { value: m.uci, label: moves.some((o) => o.join) ? 'capture' : m.uci };
    });
    const title = moves.some((m) => m.promotion) ? 'Promote to' : 'Which move?';
    openChooser(wrap, title, options, (uci) => {
      const chosen = moves.find((m) => m.uci === uci);
      if (chosen) play(chosen);
      else update();
    });
  }

  // ---- actions ----

  async function act(action, body) {
    clearError();
    try {
      return await api.act(id, action, body);
    } catch (e) {
      showError(e);
      return null;
    }
  }

  async function play(move) {
    g.selected = null;
    if (isSim()) await sim.commit(move.uci);
    else await act(`move/${encodeURIComponent(move.uci)}`);
  }

  $('.controls').addEventListener('click', async (e) => {
    const button = e.target.closest('button[data-action]');
    if (!button) return;
    const action = button.dataset.action;
    if (action === 'flip') {
      g.flipped = !g.flipped;
      update();
      return;
    }
    if (action === 'resign' && !confirm('Resign this game?')) return;
    await act({ draw: 'draw/yes' }[action] ?? action);
  });

  $('.offer').addEventListener('click', (e) => {
    const button = e.target.closest('button[data-answer]');
    if (button) act(button.dataset.answer);
  });

  $('.entry').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('.entry input');
    const text = input.value;
    if (!text.trim()) return;
    if (!canMove()) {
      showError(new Error(isSim() ? 'you have already chosen this turn' : 'it is not your move'));
      return;
    }
    const move = findTypedMove(text, legalMoves());
    if (!move) {
      showError(new Error(`${text.trim()} is not a legal move`));
      return;
    }
    input.value = '';
    chooseAmong([move]);
  });

  $('.invite').addEventListener('click', async (e) => {
    if (!e.target.closest('button')) return;
    const field = $('.invite input');
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      document.execCommand?.('copy');
    }
  });

  // ---- drawing ----

  function showError(e) {
    const box = $('.error');
    box.textContent = e.message;
    box.hidden = false;
  }
  function clearError() {
    $('.error').hidden = true;
  }

  function seatLabel(color) {
    const seat = g.state[color] ?? {};
    if (color === me()) return 'You';
    if (seat.kind === 'engine') return `Engine, level ${seat.level}`;
    if (seat.joined === false) return 'Friend (invited)';
    return 'Human';
  }

  function drawPlayer(slot, color) {
    const el = root.querySelector(`.player[data-slot="${slot}"]`);
    el.dataset.color = color;
    el.innerHTML = `${pieceIcon(color, 'king', 'K', 28)}
      <span class="name">${cap(color)}: ${escapeHtml(seatLabel(color))}</span>
      <span class="commit-state" data-commit="${color}">${sim.commitState(color)}</span>
      <span class="clock" data-clock="${color}"></span>`;
  }

  function statusText() {
    const s = g.state;
    if (s.status === 'waiting') return 'Waiting for the opponent to join.';
    if (s.status === 'finished') return `Game over: ${s.result}${s.reason ? ` (${s.reason})` : ''}.`;
    if (!isSim()) {
      if (s.to_move === me()) return 'Your move.';
      return `${cap(s.to_move)} to move.`;
    }
    return sim.statusLine();
  }

  function notesHtml(turnNumber, entry) {
    const side = (color) => {
      const move = entry[color];
      const text = entry.notes?.[color]?.text;
      const check = entry.notes?.[color]?.check;
      return `<div class="note ${color}${check ? ' gives-check' : ''}" data-notes="${color}">
        <b>${cap(color)}</b> ${escapeHtml(move?.san ?? move?.uci ?? '')}${text ? `: <span class="note-text">${escapeHtml(text)}</span>` : ''}</div>`;
    };
    return `<div class="notes-title">Turn ${turnNumber}</div>${side('white')}${side('black')}`;
  }

  function drawMoves() {
    const s = g.state;
    const list = $('.moves');
    const moves = s.moves ?? [];
    if (isSim()) {
      list.innerHTML = moves
        .map((t, i) => {
          const text = ['white', 'black'].map((c) => t.notes?.[c]?.text).filter(Boolean).join('; ');
          return `<li data-turn="${i + 1}"><span class="mv">${escapeHtml(t.white?.san ?? t.white?.uci ?? '')}</span>
            <span class="mv">${escapeHtml(t.black?.san ?? t.black?.uci ?? '')}</span>${text ? `<div class="move-note">${escapeHtml(text)}</div>` : ''}</li>`;
        })
        .join('');
      const last = moves.at(-1);
      $('.notes').innerHTML = last ? notesHtml(moves.length, last) : '';
    } else {
      const rows = [];
      for (const m of moves) {
        if (m.color === 'white' || rows.length === 0) rows.push([]);
        rows.at(-1).push(m);
      }
      list.innerHTML = rows
        .map((row) => `<li>${row.map((m) => `<span class="mv ${m.color}">${escapeHtml(m.san ?? m.uci)}</span>`).join(' ')}</li>`)
        .join('');
      $('.notes').innerHTML = '';
    }
    list.scrollTop = list.scrollHeight;
  }

  function drawControls() {
    const s = g.state;
    const seated = Boolean(me());
    const show = (action, visible, label) => {
      const button = root.querySelector(`[data-action="${action}"]`);
      button.hidden = !visible;
      if (label) button.textContent = label;
    };
    const noMovesYet = isSim() ? (s.moves ?? []).length === 0 : (s.moves ?? []).length < 2;
    show('resign', seated && s.status === 'started');
    show('draw', seated && s.status === 'started' && !s.draw_offer, 'Offer draw');
    show('abort', seated && s.status !== 'finished' && noMovesYet);
    const theyAsked = s.rematch_offer && s.rematch_offer !== me();
    show('rematch', seated && s.status === 'finished' && s.rematch_offer !== me(),
      theyAsked ? 'Accept rematch' : 'Rematch');
    root.querySelector('[data-action="pgn"]').href = api.pgnUrl(id);
    root.querySelector('[data-action="pgn"]').setAttribute('download', `${id}.pgn`);

    const offer = $('.offer');
    offer.hidden = !(s.status === 'started' && s.draw_offer);
    if (s.draw_offer === me()) {
      offer.innerHTML = 'You offered a draw.';
    } else if (s.draw_offer) {
      offer.innerHTML = `${cap(s.draw_offer)} offers a draw.` +
        (seated ? ' <button type="button" data-answer="draw/yes">Accept</button><button type="button" data-answer="draw/no">Decline</button>' : '');
    }
    if (s.rematch_game) {
      offer.hidden = false;
      offer.innerHTML = `Rematch: <a href="/game/${s.rematch_game}">open the new game</a>`;
    }

    const invite = $('.invite');
    invite.hidden = !(s.invite && s.status === 'waiting');
    if (!invite.hidden && !invite.querySelector('input')) {
      const link = new URL(s.invite, location.origin).href;
      invite.innerHTML = `<label>Send this link to your friend:
        <input readonly value="${escapeHtml(link)}"></label><button type="button">Copy</button>`;
    }
    $('.entry').hidden = !(seated && s.status === 'started');
  }

  function drawBoard() {
    const s = g.state;
    renderBoard($('.board-host'), {
      files: s.variant.files,
      ranks: s.variant.ranks,
      flipped: g.flipped,
      squares: squares(),
      marks: boardMarks(),
      onSquare,
    });
    $('.board-area').style.setProperty('--aspect', s.variant.files / s.variant.ranks);
  }

  function update() {
    if (!g.state) return;
    const s = g.state;
    const bottom = g.flipped ? 'black' : 'white';
    drawPlayer('top', other(bottom));
    drawPlayer('bottom', bottom);
    drawBoard();
    $('.status').textContent = statusText();
    root.querySelector('.game').dataset.status = s.status;
    $('.variant-name').textContent = s.variant.name;
    drawMoves();
    drawControls();
    tickClocks();
  }

  // Clocks count down locally from the last value the server sent.
  function formatClock(ms) {
    if (ms == null) return '';
    const total = Math.max(0, ms);
    const days = Math.floor(total / 86400000);
    if (days >= 1) return `${days}d ${Math.floor((total % 86400000) / 3600000)}h`;
    const h = Math.floor(total / 3600000);
    const m = Math.floor((total % 3600000) / 60000);
    const sec = Math.floor((total % 60000) / 1000);
    if (h) return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
    if (total < 10000) return `${sec}.${Math.floor((total % 1000) / 100)}`;
    return `${m}:${String(sec).padStart(2, '0')}`;
  }

  function tickClocks() {
    const s = g.state;
    if (!s?.clocks) return;
    const elapsed = performance.now() - s.receivedAt;
    for (const color of ['white', 'black']) {
      const el = root.querySelector(`[data-clock="${color}"]`);
      if (!el) continue;
      const running = s.status === 'started' && (s.clocks.running ?? []).includes(color);
      el.textContent = formatClock(s.clocks[`${color}_ms`] - (running ? elapsed : 0));
      el.classList.toggle('running', running);
    }
  }

  const ticker = setInterval(tickClocks, 200);
  const feed = new GameFeed(id, receive, (status) => {
    $('.conn').textContent = status;
    $('.conn').dataset.conn = status;
  });
  feed.start();
  // The first drawing need not wait for the socket.
  refresh();
  window.addEventListener('pagehide', () => {
    clearInterval(ticker);
    feed.stop();
  });
}
