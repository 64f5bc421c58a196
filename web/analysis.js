// The analysis board (`/analysis?variant=ID&fen=FEN&moves=M1+M2`): any
// variant, any position (a FEN, a PGN, moves made on the board) and our
// engine's view of it. The address keeps the start and the moves, so a
// line can be shared and reloaded. The line and each of its positions come from the server's rules
// (`POST /api/analysis/line`); the evaluation from `POST /api/analysis`:
// a score and a principal variation, or in simultaneous positions both
// sides' mixed strategies and the value of the position.

import { api } from './api.js';
import { openChooser, closeChooser } from './board.js';
import { parseMove } from './moves.js';
import { escapeHtml, messageHtml, setMessage } from './html.js';
import { drawBoard, drawMoves, positionState } from './gameview.js';
import { isSimultaneous } from './gamestate.js';
import { navHtml, fenHtml, bindNavigation } from './navigation.js';
import { t } from './i18n.js';

const template = () => `
<section class="game analysis">
  <div class="board-area">
    <div class="board-wrap"><div class="board-host"></div></div>
  </div>
  <aside class="panel">
    <h2>${escapeHtml(t('analysis-board-heading'))}</h2>
    <form class="setup">
      <label>${escapeHtml(t('analysis-variant'))} <select name="variant"></select></label>
      <label>${escapeHtml(t('analysis-fen'))} <input name="fen" autocomplete="off" spellcheck="false" placeholder="${escapeHtml(t('analysis-fen-placeholder'))}"></label>
      <label>${escapeHtml(t('analysis-pgn'))} <textarea name="pgn" rows="3" spellcheck="false"></textarea></label>
      <button type="submit">${escapeHtml(t('analysis-set-up'))}</button>
    </form>
    <div class="error" role="alert" hidden></div>
    <div class="status" aria-live="polite"></div>
    <div class="eval" aria-live="polite"></div>
    ${fenHtml()}
    <h2>${escapeHtml(t('analysis-moves'))}</h2>
    <ol class="moves"></ol>
    ${navHtml()}
    <div class="notes" aria-live="polite"></div>
    <div class="controls"><button type="button" data-action="flip">${escapeHtml(t('analysis-flip'))}</button> <a href="/">${escapeHtml(t('analysis-lobby'))}</a></div>
  </aside>
</section>`;

const DEBOUNCE_MS = 400;

/** A score from White's side: `+0.35`, `#2` (White mates), `#-1`. */
function scoreText(score) {
  if (score.mate !== undefined) return `#${score.mate}`;
  const pawns = score.cp / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(2)}`;
}

/** A PV in SAN with move numbers, from the FEN's side to move and move number. */
function pvText(fen, sans) {
  const fields = fen.split(' ');
  let number = Number(fields.at(-1)) || 1;
  let black = fields[1] === 'b';
  const parts = [];
  sans.forEach((san, i) => {
    if (!black) parts.push(`${number}.`);
    else if (i === 0) parts.push(`${number}...`);
    parts.push(san);
    if (black) number += 1;
    black = !black;
  });
  return parts.join(' ');
}

function strategyHtml(side, choices) {
  const rows = choices
    .map(
      (c) => `<li data-uci="${escapeHtml(c.uci)}" data-probability="${c.probability}">
        <span class="san">${escapeHtml(c.san)}</span>
        <progress max="1" value="${c.probability}"></progress>
        <span class="percent">${(c.probability * 100).toFixed(1)}%</span></li>`,
    )
    .join('');
  const heading = side === 'white' ? t('analysis-white-plays') : t('analysis-black-plays');
  return `<div class="strategy" data-side="${side}"><h3>${escapeHtml(heading)}</h3><ol>${rows}</ol></div>`;
}

function evalHtml(e, fen) {
  if (e.kind === 'over') return `<div class="outcome">${escapeHtml(e.outcome)}</div>`;
  if (e.kind === 'simultaneous') {
    const value = `${e.value > 0 ? '+' : ''}${e.value.toFixed(3)}`;
    return `<div class="value" data-value="${e.value}">${escapeHtml(t('analysis-value-for-white'))} <b>${value}</b>
        <span class="hint">${escapeHtml(t('analysis-value-hint'))}</span> · ${escapeHtml(t('analysis-depth-turns', { depth: e.depth }))}</div>
      <div class="strategies">${strategyHtml('white', e.white)}${strategyHtml('black', e.black)}</div>`;
  }
  return `<div class="score" data-score="${escapeHtml(JSON.stringify(e.score))}"><b>${scoreText(e.score)}</b> · ${escapeHtml(t('analysis-depth', { depth: e.depth }))}</div>
    <div class="pv" data-pv="${escapeHtml(e.pv_uci.join(' '))}">${escapeHtml(pvText(fen, e.pv_san))}</div>`;
}

export async function showAnalysis(root) {
  root.innerHTML = template();
  const $ = (selector) => root.querySelector(selector);
  const form = $('form.setup');
  const wrap = $('.board-wrap');
  const a = {
    line: null, // the server's line: variant, moves, positions, legal
    moves: [], // the line's moves as the server reads them: `e2e4`, or `e2e4:e7e5` per turn
    ply: 0, // the position shown
    selected: null, // the square whose piece is picked up
    whiteChoice: null, // simultaneous: White's move of the turn being made
    flipped: false,
    evals: new Map(), // evaluation by position key
    timer: null,
  };

  const showError = (e) => {
    setMessage($('.error'), e.message);
    $('.error').hidden = !e.message;
  };

  // ---- the line ----

  const variantId = () => a.line.variant.id;
  const startFen = () => a.line.positions[0].fen;
  const sim = () => isSimultaneous({ variant: a.line.variant });
  const spec = (moves) => ({ variant: variantId(), fen: startFen(), moves });
  // The start's move (or turn) number, the FEN's last field.
  const firstNumber = () => Number(startFen().split(' ').at(-1)) || 1;

  async function load(request) {
    try {
      const line = await api.analysisLine(request);
      a.line = line;
      a.moves = line.moves.map((m) => m.uci ?? `${m.white.uci}:${m.black.uci}`);
      a.ply = line.moves.length;
      a.selected = null;
      a.whiteChoice = null;
      showError({ message: '' });
      form.elements.variant.value = line.variant.id;
      const moves = a.moves.length ? `&moves=${a.moves.map(encodeURIComponent).join('+')}` : '';
      const url = `/analysis?variant=${encodeURIComponent(line.variant.id)}&fen=${encodeURIComponent(startFen())}${moves}`;
      history.replaceState(null, '', url);
      update();
      return true;
    } catch (e) {
      showError(e);
      return false;
    }
  }

  function goTo(ply) {
    if (!a.line) return;
    a.ply = Math.max(0, Math.min(a.line.moves.length, ply));
    a.selected = null;
    a.whiteChoice = null;
    closeChooser(wrap);
    update();
  }

  // ---- moves on the board ----

  const shownPosition = () => a.line.positions[a.ply];
  const mover = () => (sim() ? (a.whiteChoice ? 'black' : 'white') : shownPosition().to_move);
  const atEnd = () => a.ply === a.line.moves.length;
  const legalMoves = () => (atEnd() ? (a.line.legal[mover()] ?? []) : []).map(parseMove).filter(Boolean);

  async function onSquare(name) {
    closeChooser(wrap);
    if (!a.line) return;
    // A move from an earlier position replaces the moves after it.
    if (!atEnd()) {
      const choice = a.whiteChoice;
      if (!(await load(spec(a.moves.slice(0, a.ply))))) return;
      a.whiteChoice = choice;
    }
    const legal = legalMoves();
    const onTarget = legal.filter((m) => m.from === a.selected && m.to === name);
    if (onTarget.length) {
      a.selected = null;
      choose(onTarget);
      return;
    }
    a.selected = legal.some((m) => m.from === name) ? name : null;
    update();
  }

  function choose(moves) {
    if (moves.length === 1) {
      play(moves[0].uci);
      return;
    }
    const options = moves.map((m) => ({ value: m.uci, label: m.uci }));
    openChooser(wrap, t('analysis-which-move'), options, (uci) => (uci ? play(uci) : update()));
  }

  async function play(uci) {
    if (sim() && !a.whiteChoice) {
      a.whiteChoice = uci;
      update();
      return;
    }
    const step = sim() ? `${a.whiteChoice}:${uci}` : uci;
    await load(spec([...a.moves.slice(0, a.ply), step]));
  }

  // ---- the engine ----

  const positionKey = () => JSON.stringify(spec(a.moves.slice(0, a.ply)));

  function scheduleEval() {
    clearTimeout(a.timer);
    const key = positionKey();
    const known = a.evals.get(key);
    const box = $('.eval');
    if (known) {
      box.innerHTML = evalHtml(known, shownPosition().fen);
      box.dataset.kind = known.kind;
      return;
    }
    box.innerHTML = `<div class="thinking">${escapeHtml(t('analysis-engine-thinking'))}</div>`;
    box.dataset.kind = 'thinking';
    a.timer = setTimeout(async () => {
      try {
        a.evals.set(key, await api.analyse(JSON.parse(key)));
      } catch (e) {
        if (positionKey() === key) box.innerHTML = `<div class="error">${messageHtml(e.message)}</div>`;
        return;
      }
      if (positionKey() === key) scheduleEval();
    }, DEBOUNCE_MS);
  }

  // ---- drawing ----

  function statusText() {
    if (a.line.outcome && atEnd()) return t('analysis-game-over', { outcome: a.line.outcome });
    if (!sim()) return shownPosition().to_move === 'white' ? t('analysis-white-to-move') : t('analysis-black-to-move');
    const turn = firstNumber() + a.ply;
    if (a.whiteChoice) return t('analysis-turn-white-chose', { turn, move: a.whiteChoice });
    return t('analysis-turn-choose', { turn });
  }

  function update() {
    if (!a.line) return;
    const s = { variant: a.line.variant, moves: a.line.moves, status: 'started', firstNumber: firstNumber() };
    const shown = positionState(s, a.ply, shownPosition());
    const targets = a.selected ? legalMoves().filter((m) => m.from === a.selected).map((m) => m.to) : [];
    const selection = a.selected && { from: a.selected, targets };
    // White's move of the turn being made is tinted as a committed move is.
    const sim = { pending: () => a.whiteChoice && { move: a.whiteChoice } };
    drawBoard(root, shown, { flipped: a.flipped, selection, onSquare, sim });
    drawMoves(root, s, a.ply);
    $('.fen').value = shownPosition().fen;
    $('.status').textContent = statusText();
    scheduleEval();
  }

  // ---- the set-up form ----

  let variants = [];
  try {
    variants = await api.variants();
  } catch (e) {
    showError(e);
  }
  form.elements.variant.innerHTML = variants
    .map((v) => `<option value="${escapeHtml(v.id)}">${escapeHtml(v.name)}</option>`)
    .join('');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = form.elements;
    const pgn = f.pgn.value.trim();
    load(pgn ? { pgn, variant: f.variant.value } : { variant: f.variant.value, fen: f.fen.value.trim() || null });
  });
  $('[data-action="flip"]').addEventListener('click', () => {
    a.flipped = !a.flipped;
    update();
  });
  $('.analyse').hidden = true;
  const unbind = bindNavigation(root, { ply: () => a.ply, count: () => a.line?.moves.length ?? 0, goTo });
  window.addEventListener('pagehide', unbind);

  const params = new URLSearchParams(location.search);
  const variant = params.get('variant') ?? 'chess';
  const fen = params.get('fen') || null;
  const moves = (params.get('moves') ?? '').split(/[\s,]+/).filter(Boolean);
  form.elements.variant.value = variant;
  form.elements.fen.value = fen ?? '';
  if (!(await load({ variant, fen, moves })) && moves.length) {
    // Moves that do not play from there: the start, and why.
    const why = $('.error').textContent;
    if (await load({ variant, fen })) showError({ message: why });
  }
}
