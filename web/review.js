// A finished game's computer analysis on its page: the button that asks
// for it, the evaluation graph under the board, each player's accuracy
// (turn-based) or expected loss (simultaneous), and the marks the move list
// shows. The server makes and keeps the analysis (docs/analysis.md).

import { api } from './api.js';
import { escapeHtml } from './html.js';
import { t } from './i18n.js';

const WIDTH = 600;
const HEIGHT = 120;
const POLL_MS = 1500;

// The words are put in by `drawReview` (and retranslated by `useLanguage`
// through the data-i18n marks): this markup is made when the module loads,
// before the catalogue is.
export const REVIEW_HTML = `
<section class="review" data-i18n-label="analysis-review-label" hidden>
  <button type="button" data-action="request-analysis" data-i18n="analysis-request" hidden></button>
  <p class="review-status" aria-live="polite"></p>
  <div class="review-graph"></div>
  <div class="review-players"></div>
  <div class="review-turn"></div>
</section>`;

/** Lichess's win percentage of White from a position's evaluation. */
export function whiteWinPercent(p) {
  let cp = p.cp;
  if (cp == null && p.mate != null) cp = p.mate > 0 ? 1000 : -1000;
  if (cp == null) cp = p.over === '1-0' ? 1000 : p.over === '0-1' ? -1000 : 0;
  cp = Math.max(-1000, Math.min(1000, cp));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

/** The glyph of a judgment: `?!`, `?`, `??`. */
export function judgmentGlyph(judgment) {
  return { inaccuracy: '?!', mistake: '?', blunder: '??' }[judgment] ?? '';
}

/** A judgment's word: Inaccuracy, Mistake, Blunder. */
export function judgmentName(judgment) {
  const names = {
    inaccuracy: t('analysis-inaccuracy'),
    mistake: t('analysis-mistake'),
    blunder: t('analysis-blunder'),
  };
  return names[judgment] ?? judgment;
}

/** The judged move's comment, as lichess writes it: "Blunder. e4 was best." */
export function judgmentComment(review, move) {
  if (!move?.judgment) return '';
  const judgment = judgmentName(move.judgment);
  const best = review.positions?.[move.ply - 1]?.bestSan;
  return best ? t('analysis-judgment-best', { judgment, best }) : t('analysis-judgment', { judgment });
}

/** A side's name: White, Black. */
const sideName = (color) => (color === 'white' ? t('analysis-white') : t('analysis-black'));

const percent = (x) => `${Math.round(x * 100)}%`;

/**
 * Points of the graph: White's chances (0 to 100) at each ply or turn.
 * Turn-based: the start and after each move; simultaneous: before each turn.
 */
function series(review) {
  if (review.kind === 'turn-based') return review.positions.map(whiteWinPercent);
  return review.turns.map((turn) => turn.value * 100);
}

function graphSvg(review, ply) {
  const values = series(review);
  const n = Math.max(1, values.length - 1);
  const x = (i) => (i / n) * WIDTH;
  const y = (v) => HEIGHT * (1 - v / 100);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const area = `0,${HEIGHT} ${line} ${x(values.length - 1).toFixed(1)},${HEIGHT}`;
  // Marks: judged moves (turn-based) or costly turns (simultaneous).
  const marks = [];
  if (review.kind === 'turn-based') {
    for (const m of review.moves) {
      if (m.judgment) marks.push({ i: m.ply, cls: m.judgment, title: `${m.san}${judgmentGlyph(m.judgment)}` });
    }
  } else {
    review.turns.forEach((turn, i) => {
      const worst = Math.max(turn.white.loss, turn.black.loss);
      if (worst >= 0.1) marks.push({ i, cls: 'mistake', title: t('analysis-graph-turn', { number: turn.number }) });
    });
  }
  const at = ply ?? values.length - 1;
  const cursorIndex = review.kind === 'turn-based' ? at : Math.max(0, Math.min(values.length - 1, at - 1));
  const label = review.kind === 'turn-based'
    ? t('analysis-graph-label', {
      moves: review.moves.length,
      from: `${Math.round(values[0])}%`,
      to: `${Math.round(values.at(-1))}%`,
    })
    : t('analysis-graph-label-simultaneous', { turns: review.turns.length });
  return `<svg class="eval-graph" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(label)}">
    <rect class="graph-black" x="0" y="0" width="${WIDTH}" height="${HEIGHT}"></rect>
    <polygon class="graph-white" points="${area}"></polygon>
    <line class="graph-middle" x1="0" x2="${WIDTH}" y1="${HEIGHT / 2}" y2="${HEIGHT / 2}"></line>
    <polyline class="graph-line" points="${line}"></polyline>
    ${marks.map((m) => `<circle class="graph-mark ${m.cls}" cx="${x(m.i).toFixed(1)}" cy="${y(values[m.i]).toFixed(1)}" r="4"><title>${escapeHtml(m.title)}</title></circle>`).join('')}
    <line class="graph-cursor" x1="${x(cursorIndex).toFixed(1)}" x2="${x(cursorIndex).toFixed(1)}" y1="0" y2="${HEIGHT}"></line>
  </svg>`;
}

function playersHtml(review, players) {
  const name = (color) => escapeHtml(players?.[color]?.user?.name ?? sideName(color));
  if (review.kind === 'turn-based') {
    return ['white', 'black'].map((c) => {
      const p = review[c];
      const accuracy = p.accuracy == null ? '–' : `${Math.round(p.accuracy)}%`;
      const summary = t('analysis-player-turn-based', {
        accuracy,
        inaccuracies: p.inaccuracy,
        mistakes: p.mistake,
        blunders: p.blunder,
        acpl: p.acpl,
      });
      return `<p class="review-player" data-color="${c}"><strong>${name(c)}</strong>${escapeHtml(summary)}</p>`;
    }).join('');
  }
  return ['white', 'black'].map((c) => {
    const p = review[c];
    const summary = t('analysis-player-simultaneous', {
      loss: `${(p.averageLoss * 100).toFixed(1)}%`,
      costly: p.costlyTurns,
    });
    return `<p class="review-player" data-color="${c}"><strong>${name(c)}</strong>${escapeHtml(summary)}</p>`;
  }).join('');
}

function strategyText(side) {
  return side.strategy.map((c) => `${c.san} ${percent(c.probability)}`).join(', ');
}

/** The shown turn of a simultaneous review: what each side played against the engine's strategy. */
function turnHtml(review, ply) {
  if (review.kind !== 'simultaneous' || review.turns.length === 0) return '';
  const index = Math.max(1, Math.min(review.turns.length, ply ?? review.turns.length)) - 1;
  const turn = review.turns[index];
  const side = (c) => {
    const s = turn[c];
    const played = t('analysis-turn-played', {
      san: s.san,
      loss: `${(s.loss * 100).toFixed(1)}%`,
      strategy: strategyText(s),
    });
    return `<li data-color="${c}"><strong>${escapeHtml(sideName(c))}</strong>${escapeHtml(played)}</li>`;
  };
  return `<h3>${escapeHtml(t('analysis-turn-heading', { number: turn.number }))}</h3><p>${escapeHtml(t('analysis-turn-equilibrium', { score: percent(turn.value) }))}</p>
    <ul>${side('white')}${side('black')}</ul>`;
}

/**
 * Draws the review part of the page: `review` (null: none yet), `running`
 * (an analysis is being made), `ply` the position shown (null: the end).
 */
export function drawReview(root, s, review, running, ply) {
  const section = root.querySelector('.review');
  if (!section) return;
  const finished = s.status === 'finished' && (s.moves ?? []).length > 0;
  section.hidden = !finished;
  if (!finished) return;
  section.setAttribute('aria-label', t('analysis-review-label'));
  const button = section.querySelector('[data-action="request-analysis"]');
  button.textContent = t('analysis-request');
  button.hidden = Boolean(review) || running;
  section.querySelector('.review-status').textContent = running
    ? t('analysis-review-running')
    : review
      ? t('analysis-review-done', { ms: review.msPerPosition })
      : '';
  section.querySelector('.review-graph').innerHTML = review ? graphSvg(review, ply) : '';
  section.querySelector('.review-players').innerHTML = review ? playersHtml(review, s.players) : '';
  section.querySelector('.review-turn').innerHTML = review ? turnHtml(review, ply) : '';
}

/** The analysis of a turn-based move list entry (1-based ply), if judged. */
export function moveJudgment(review, ply) {
  if (review?.kind !== 'turn-based') return null;
  const move = review.moves[ply - 1];
  return move?.judgment ? { judgment: move.judgment, glyph: judgmentGlyph(move.judgment), comment: judgmentComment(review, move) } : null;
}

/** What a simultaneous turn cost each side, if anything worth saying. */
export function turnLosses(review, turn) {
  if (review?.kind !== 'simultaneous') return '';
  const losses = review.turns[turn - 1];
  if (!losses || Math.max(losses.white.loss, losses.black.loss) < 0.02) return '';
  return t('analysis-turn-losses', {
    white: `${(losses.white.loss * 100).toFixed(0)}%`,
    black: `${(losses.black.loss * 100).toFixed(0)}%`,
  });
}

/**
 * Keeps game `id`'s analysis: reads it once the game is over, asks for one
 * when the button is pressed, and polls while it runs. `changed` redraws.
 */
export function followReview(root, id, { changed, goTo, count, showError }) {
  const r = { review: null, running: false, asked: false, timer: null };
  async function read() {
    try {
      const answer = await api.gameAnalysis(id);
      r.running = answer?.status === 'running';
      if (r.running) r.timer = setTimeout(read, POLL_MS);
      else if (answer?.kind) r.review = answer;
    } catch (e) {
      r.running = false;
      showError(e);
    }
    changed();
  }
  root.querySelector('.review')?.addEventListener('click', async (e) => {
    if (e.target.closest('[data-action="request-analysis"]')) {
      r.running = true;
      changed();
      try {
        const answer = await api.requestGameAnalysis(id);
        if (answer?.status === 'running') r.timer = setTimeout(read, POLL_MS);
        else {
          r.review = answer;
          r.running = false;
        }
      } catch (err) {
        r.running = false;
        showError(err);
      }
      changed();
      return;
    }
    const graph = e.target.closest('.eval-graph');
    if (graph && r.review) {
      const box = graph.getBoundingClientRect();
      const points = r.review.kind === 'turn-based' ? r.review.positions.length - 1 : r.review.turns.length - 1;
      const index = Math.round(((e.clientX - box.left) / box.width) * Math.max(1, points));
      goTo(r.review.kind === 'turn-based' ? index : Math.min(count(), index + 1));
    }
  });
  return {
    get review() { return r.review; },
    get running() { return r.running; },
    /** Reads the analysis the first time the game is seen finished. */
    finished() {
      if (r.asked) return;
      r.asked = true;
      read();
    },
    stop() { clearTimeout(r.timer); },
  };
}
