// The game page: the state from the live feed, the board input and the
// actions; gameview.js draws it, simturn.js keeps a simultaneous turn's
// commit-reveal. The state shown is the last `gameFull` plus the events
// received after it; events that change the position (a move, a turn, the
// start, the end) make the page fetch a fresh `gameFull`, which also brings
// the new legal moves.

import { api, GameFeed } from './api.js';
import { openChooser, closeChooser } from './board.js';
import { parseMove } from './moves.js';
import { STRUCTURAL, fromFull, applyEvent, isSimultaneous, other } from './gamestate.js';
import {
  gameTemplate, drawGame, drawClocks, boardSquares, showError, clearError, showConnection, showNotice, drawNoSuchGame, turnNoteText,
} from './gameview.js';
import { simultaneousTurn } from './simturn.js';
import { bindNavigation, copyField } from './navigation.js';
import { playSound, isMuted, setMuted } from './sounds.js';
import { showChat } from './chat.js';
import { rememberSeat, forgetSeat } from './mygames.js';
import { followNextGame, rememberOpened } from './tournaments.js';
import { followReview } from './review.js';
import { settings } from './settings.js';
import { pieceWords } from './pieces.js';
import { t } from './i18n.js';

/** Shows game `id` in `root`; false (and a "no such game" page) if the server does not know it. */
export async function showGame(root, id) {
  let first;
  try {
    first = await api.game(id);
  } catch (e) {
    if (e.status === 404) {
      drawNoSuchGame(root, id);
      return false;
    }
    // Anything else (a network error) the page's own fetching reports.
  }
  root.innerHTML = gameTemplate();
  const $ = (selector) => root.querySelector(selector);
  const chatBox = document.createElement('section');
  chatBox.className = 'chat';
  $('.panel').insertBefore(chatBox, $('.meta'));
  const g = {
    base: null, // the last gameFull
    events: [], // events with seq above base.seq, in order
    state: null, // base with the events applied
    flipped: null, // null until the seat is known
    selected: null, // {from, piece}
    premove: null, // {from, to}: this seat's move queued for its turn (turn-based)
    animate: [], // {from, to} of the moves to slide on the next drawing
    lowTime: false, // this seat's running clock is low: warned once
    fetching: false,
    refetch: false,
    ply: null, // the position navigated to (moves or turns played), null: the game now
    line: null, // the game's line from /positions: the position after each move
    lineWanted: false,
    players: null, // the seats' accounts, from the export
    seatStatus: null, // the status the seat was last remembered or forgotten at
  };
  const reportError = (e) => showError(root, e);
  const sim = simultaneousTurn(id, { state: () => g.state, act, update, showError: reportError });
  const review = followReview(root, id, {
    changed: () => update(), goTo, count: () => movesPlayed(), showError: reportError,
  });

  // ---- state from the feed ----

  function receive(message) {
    if (message.type === 'chatLine') {
      chat.heard();
      return;
    }
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
    const before = g.state;
    g.state = g.events.reduce(applyEvent, fromFull(g.base));
    if (g.flipped === null) g.flipped = g.state.you === 'black';
    // The player's games list keeps this seat while the game is on (once per status, not per event).
    if (g.state.you && g.seatStatus !== g.state.status) {
      g.seatStatus = g.state.status;
      if (['waiting', 'started'].includes(g.state.status)) rememberSeat(id);
      else forgetSeat(id);
    }
    if (before) react(message, before);
    update();
    g.animate = [];
    sim.maybeReveal();
    playPremove();
    // Both asked for a rematch while we watch: go to the new game (an old
    // game's page opened later only shows the link).
    if (message.type === 'rematch' && g.state.you) location.assign(`/game/${message.game}`);
  }

  // What a change says to this player: a sound, a word, a slide. Moves
  // are shown (and so slid and heard) when the `gameFull` that has them
  // arrives.
  function react(e, before) {
    const s = g.state;
    const played = (s.moves ?? []).slice(before.moves?.length ?? 0);
    if (e.type === 'gameFull' && played.length) announce(played, before.moves?.length ?? 0);
    if (e.type === 'gameFull' && played.length === 1) {
      const entry = played[0];
      const moves = isSim() ? [entry.white, entry.black].filter(Boolean) : [entry];
      g.animate = moves.map((m) => parseMove(m.uci ?? '')).filter(Boolean).map((m) => ({ from: m.from, to: m.to }));
      playSound(moveSound(entry));
    } else if (e.type === 'finished') {
      playSound('gameEnd');
      if (g.players?.white || g.players?.black) readPlayers();
    } else if (e.type === 'draw_declined' && s.you && e.color !== s.you) {
      showNotice(root, t('game-draw-declined'));
    } else if (e.type === 'rematch_cancelled' && s.you && before?.rematch_offer) {
      const mine = before.rematch_offer === s.you;
      showNotice(root, e.color === s.you
        ? (mine ? t('game-rematch-you-withdrew') : t('game-rematch-you-declined'))
        : (mine ? t('game-rematch-declined') : t('game-rematch-withdrawn', { color: e.color === 'white' ? 'white' : 'black' })));
    }
    if (['move', 'turn', 'draw_offer', 'rematch_offer'].includes(e.type)) showNotice(root, '');
  }

  // The moves just played in words, for a screen reader (a live region);
  // `before` moves came earlier.
  function announce(played, before) {
    const words = (m) => m?.san ?? m?.uci ?? '';
    const said = played.map((entry, i) => {
      if (!isSim()) return t('game-announce-move', { color: entry.color === 'white' ? 'white' : 'black', move: words(entry) });
      const notes = turnNoteText(entry);
      const turn = { turn: before + i + 1, white: words(entry.white), black: words(entry.black) };
      return notes ? t('game-announce-turn-notes', { ...turn, notes }) : t('game-announce-turn', turn);
    });
    root.querySelector('.move-announce').textContent = said.join(' ');
  }

  function moveSound(entry) {
    if (isSim()) {
      const notes = [entry.notes?.white, entry.notes?.black];
      return notes.some((n) => n?.check) ? 'check' : notes.some((n) => n?.captured) ? 'capture' : 'move';
    }
    if (/#$/.test(entry.san ?? '')) return null; // the game-end sound follows
    return /\+$/.test(entry.san ?? '') ? 'check' : (entry.san ?? '').includes('x') ? 'capture' : 'move';
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
      reportError(e);
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
  // Turn-based games only: a simultaneous turn has no "opponent's turn".
  const canPremove = () => settings().premove && Boolean(me()) && g.state.status === 'started' && !isSim() &&
    Boolean(g.state.to_move) && g.state.to_move !== me();
  const ownOnly = (content) => Boolean(content?.pieces.length) && content.pieces.every((p) => p.color === me());
  const hasMine = (square) => Boolean(boardSquares(g.state).get(square)?.pieces.some((p) => p.color === me()));
  const pieceByLetter = (letter) =>
    g.state.variant.pieces.find((p) => p.letter.toUpperCase() === letter.toUpperCase());

  function selectedMoves() {
    if (!g.selected) return [];
    return legalMoves().filter((m) => m.from === g.selected.from && m.piece === g.selected.piece);
  }

  // ---- board input ----

  const wrap = $('.board-wrap');

  function onSquare(name) {
    closeChooser(wrap);
    // A click on an earlier position comes back to the game.
    if (g.ply !== null) {
      goTo(movesPlayed());
      return;
    }
    if (canPremove()) {
      queuePremove(name);
      return;
    }
    const onTarget = selectedMoves().filter((m) => m.to === name);
    if (onTarget.length) {
      g.selected = null;
      chooseAmong(onTarget);
      return;
    }
    const here = legalMoves().filter((m) => m.from === name);
    const content = boardSquares(g.state).get(name);
    const kinds = [...new Set(here.map((m) => m.piece))];
    const from = g.selected?.from;
    g.selected = kinds.length === 1 ? { from: name, piece: kinds[0] } : null;
    if (kinds.length > 1 || (content && content.pieces.length > 2)) pickFromCrowd(name, content, kinds);
    let notice = canMove() && !here.length && hasMine(name) ? whyNoMove(name, content) : '';
    // A crowd variant: a piece picked, then one's own piece clicked, as
    // if to join it (the rule a newcomer does not guess).
    if (!notice && from && from !== name && g.state.variant.family === 'crowd' && ownOnly(content)) {
      notice = t('game-crowd-no-join', { from, square: name });
    }
    showNotice(root, notice);
    update();
  }

  // Why this seat's piece on `square` has no legal move now.
  function whyNoMove(square, content) {
    if (isSim() && content.lastMoved.includes(me())) {
      return t('game-piece-must-wait', { square });
    }
    const kingSquares = new Set(
      (g.state.board ?? [])
        .filter((sq) => sq.pieces.some((p) => p.color === me() && p.name === 'king'))
        .map((sq) => sq.square),
    );
    const legal = legalMoves();
    if (isSim() && legal.length && legal.every((m) => kingSquares.has(m.from))) {
      return t('game-king-in-check');
    }
    return t('game-piece-no-move', { square });
  }

  // ---- premoves (turn-based games) ----

  // On the opponent's turn: a piece of ours, then any square, queues that
  // move; any other click (or a right click) drops it.
  function queuePremove(name) {
    if (g.selected && name !== g.selected.from) {
      g.premove = { from: g.selected.from, to: name };
      g.selected = null;
    } else {
      g.premove = null;
      g.selected = !g.selected && hasMine(name) ? { from: name, piece: null } : null;
    }
    update();
  }

  // Our turn has come: the queued move is played if it is legal now.
  function playPremove() {
    if (!g.premove || !canMove() || isSim()) return;
    const { from, to } = g.premove;
    g.premove = null;
    const fitting = legalMoves().filter((m) => m.from === from && m.to === to);
    if (!fitting.length) {
      showNotice(root, t('game-premove-dropped', { from, to }));
      update();
      return;
    }
    // A promotion takes the first piece the rules list; a capture beats a join.
    play(fitting.find((m) => !m.join) ?? fitting[0]);
  }

  function dragStart(from) {
    // An earlier position on the board is for looking, not playing.
    if (g.ply !== null) return false;
    if (canPremove()) {
      if (!hasMine(from)) return false;
      g.premove = null;
      g.selected = { from, piece: null };
      update();
      return true;
    }
    if (!legalMoves().some((m) => m.from === from)) return false;
    if (g.selected?.from !== from) onSquare(from);
    return Boolean(g.selected);
  }

  function drop(from, to) {
    if (to && to !== from) {
      onSquare(to);
    } else if (!to) {
      g.selected = null;
      update();
    }
  }

  function cancelInput() {
    g.premove = null;
    g.selected = null;
    closeChooser(wrap);
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
        label: `${pieceWords(piece.color, piece.name.toLowerCase())}${count > 1 ? ` ×${count}` : ''}`,
        piece,
        disabled: !movable,
      };
    });
    const count = content.pieces.length;
    const title = kinds.length ? t('game-crowd-which', { count, square }) : t('game-crowd-pieces', { count, square });
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
        return { value: m.uci, label: pieceWords(null, promoted.name.toLowerCase()), piece: { ...promoted, color: me() } };
      }
      if (m.rook) return { value: m.uci, label: t('game-choose-castle', { square: m.rook }) };
      if (m.join) return { value: m.uci, label: t('game-choose-join') };
      return { value: m.uci, label: moves.some((o) => o.join) ? t('game-choose-capture') : m.uci };
    });
    const title = moves.some((m) => m.promotion) ? t('game-promote-to') : t('game-which-move');
    openChooser(wrap, title, options, (uci) => {
      const chosen = moves.find((m) => m.uci === uci);
      if (chosen) play(chosen);
      else update();
    });
  }

  // ---- actions ----

  async function act(action, body) {
    clearError(root);
    try {
      return await api.act(id, action, body);
    } catch (e) {
      reportError(e);
      return null;
    }
  }

  async function play(move) {
    g.selected = null;
    if (isSim() && settings().confirmCommit) {
      // The setting "confirm simultaneous moves": nothing is sealed until confirmed.
      // Named as the player writes it (the legal moves are UCI).
      const read = await api.readMove(id, me(), move.uci).catch(() => null);
      const name = read?.san ?? move.uci;
      openChooser(wrap, t('game-commit-confirm', { move: name }), [{ value: 'commit', label: t('game-commit-button', { move: name }) }], (choice) => {
        if (choice === 'commit') sim.commit(move.uci);
        else update();
      });
      return;
    }
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
    if (action === 'mute') {
      setMuted(!isMuted());
      update();
      return;
    }
    if (action === 'resign' && !confirm(t('game-resign-confirm'))) return;
    await act({ draw: 'draw/yes' }[action] ?? action);
  });

  $('.offer').addEventListener('click', (e) => {
    const button = e.target.closest('button[data-answer]');
    if (button) act(button.dataset.answer);
  });

  $('.entry').addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('.entry input');
    const text = input.value;
    if (!text.trim()) return;
    if (!canMove()) {
      reportError(new Error(isSim() ? t('game-error-already-chosen') : t('game-error-not-your-move')));
      return;
    }
    // The server reads coordinates, SAN and the literature's notations.
    let read;
    try {
      read = await api.readMove(id, me(), text.trim());
    } catch (e) {
      reportError(e);
      return;
    }
    const move = legalMoves().find((m) => m.uci === read.uci);
    if (!move) {
      reportError(new Error(t('game-error-not-legal', { move: text.trim() })));
      return;
    }
    clearError(root);
    input.value = '';
    chooseAmong([move]);
  });

  // ---- navigation ----

  const movesPlayed = () => g.state?.moves?.length ?? 0;

  /** Shows the position after `ply` moves (turns); the last one is the game now. */
  function goTo(ply) {
    if (!g.state) return;
    g.ply = ply >= movesPlayed() ? null : Math.max(0, ply);
    g.selected = null;
    closeChooser(wrap);
    if (g.ply !== null && !(g.line?.positions.length > g.ply)) loadLine();
    update();
  }

  async function loadLine() {
    if (g.lineWanted) return;
    g.lineWanted = true;
    try {
      g.line = await api.positions(id);
    } catch (e) {
      reportError(e);
    } finally {
      g.lineWanted = false;
    }
    update();
  }

  const unbindNavigation = bindNavigation(root, { ply: () => g.ply ?? movesPlayed(), count: movesPlayed, goTo });

  $('.invite').addEventListener('click', (e) => {
    if (e.target.closest('button')) copyField($('.invite input'));
  });

  // ---- drawing ----

  function update() {
    if (!g.state) return;
    if (g.state.status !== 'started') g.premove = null;
    if (g.state.status === 'finished') review.finished();
    const selection = g.selected && { from: g.selected.from, targets: selectedMoves().map((m) => m.to) };
    const position = g.ply !== null && g.line?.positions[g.ply];
    const shown = position ? { ply: g.ply, position } : null;
    drawGame(root, id, g.players ? { ...g.state, players: g.players } : g.state, {
      flipped: g.flipped,
      selection,
      premove: g.premove,
      sim,
      muted: isMuted(),
      onSquare,
      onDragStart: dragStart,
      onDrop: drop,
      onRightClick: cancelInput,
      animate: g.animate,
      shown,
      review: review.review,
      reviewRunning: review.running,
    });
  }

  function tick() {
    const low = g.state?.you ? drawClocks(root, g.state).includes(g.state.you) : false;
    if (low && !g.lowTime) playSound('lowTime');
    g.lowTime = low;
  }

  const ticker = setInterval(tick, 200);
  const chat = showChat(chatBox, id, () => g.state?.you ?? null);
  // Seats held by accounts show their names and ratings, and once a rated
  // game is over what it moved them by (written with its end: read again).
  function readPlayers() {
    api.exported(id).then((exported) => {
      g.players = exported.players ?? {};
      // A tournament's game leads back to its tournament.
      const back = root.querySelector('.tournament-link');
      if (exported.tournament && back) {
        back.querySelector('a').href = `/tournament/${encodeURIComponent(exported.tournament)}`;
        back.hidden = false;
        root.dataset.tournament = exported.tournament;
        rememberOpened(id);
        // A finished game of one's own leads on to one's next game in the tournament.
        const name = g.state?.you && exported.players?.[g.state.you]?.user?.name;
        if (name && !['created', 'started'].includes(exported.status) && !g.followingTournament) {
          g.followingTournament = followNextGame(exported.tournament, name);
        }
      }
      update();
    }, () => {});
  }
  readPlayers();
  const feed = new GameFeed(id, receive, (status) => showConnection(root, status));
  feed.start();
  // The first drawing need not wait for the socket.
  if (first) receive(first);
  else refresh();
  window.addEventListener('pagehide', () => {
    clearInterval(ticker);
    chat.stop();
    review.stop();
    feed.stop();
    unbindNavigation();
  });
  return true;
}
