// The lobby: a card per variant (its start position, name and one line on
// its rules; a click picks it for the form), the form that creates a game,
// and the lists of live and finished games.

import { api } from './api.js';
import { renderBoard } from './board.js';
import { escapeHtml } from './html.js';


const TEMPLATE = `
<section class="lobby">
  <div class="variants">
    <h2>Variants</h2>
    <div class="variant-cards"></div>
  </div>
  <form class="create">
    <h2>New game</h2>
    <label>Variant <select name="variant" required></select></label>
    <p class="variant-description"></p>
    <fieldset>
      <legend>Time</legend>
      <label><input type="radio" name="timing" value="live" checked> Live clock</label>
      <label class="inline">minutes <input type="number" name="minutes" min="0" max="180" step="any" value="10"></label>
      <label class="inline">+ seconds <input type="number" name="increment" min="0" max="180" value="5"></label>
      <br>
      <label><input type="radio" name="timing" value="days"> Correspondence</label>
      <label class="inline">days per move <input type="number" name="days" min="1" max="14" value="3"></label>
    </fieldset>
    <fieldset>
      <legend>Opponent</legend>
      <label><input type="radio" name="opponent" value="engine" checked> Engine</label>
      <label class="inline">level <input type="number" name="level" min="1" max="8" value="3"></label>
      <br>
      <label><input type="radio" name="opponent" value="friend"> A friend (invite link)</label>
    </fieldset>
    <fieldset>
      <legend>Your colour</legend>
      <label><input type="radio" name="color" value="white"> White</label>
      <label><input type="radio" name="color" value="random" checked> Random</label>
      <label><input type="radio" name="color" value="black"> Black</label>
    </fieldset>
    <label>Start position (FEN, optional) <input name="fen" autocomplete="off" spellcheck="false" placeholder="the variant's start"></label>
    <label><input type="checkbox" name="public"> List this game publicly</label>
    <button type="submit">Create game</button>
    <div class="error" role="alert" hidden></div>
  </form>
  <div class="lists">
    <h2>Games in progress</h2><div class="table-wrap"><table class="games" data-status="live"></table></div>
    <h2>Finished games</h2><div class="table-wrap"><table class="games" data-status="finished"></table></div>
  </div>
</section>`;

function seatText(seat) {
  if (!seat) return '?';
  return seat.kind === 'engine' ? `engine ${seat.level}` : seat.kind;
}

// Four narrow columns, so that a row fits a phone's width.
async function fillList(table, variantNames) {
  try {
    const games = await api.games(table.dataset.status);
    table.innerHTML = games.length
      ? '<tr><th>Game</th><th>Players</th><th>Turn</th><th>Result</th></tr>' +
        games
          .map(
            (g) => `<tr data-game="${escapeHtml(g.id)}"><td><a href="/game/${escapeHtml(g.id)}">${escapeHtml(variantNames.get(g.variant) ?? g.variant)}</a>
              <span class="game-id">${escapeHtml(g.id)}</span></td>
              <td>${escapeHtml(seatText(g.white))} – ${escapeHtml(seatText(g.black))}</td>
              <td>${escapeHtml(g.turn ?? '')}</td><td>${escapeHtml(g.result ?? g.status)}</td></tr>`,
          )
          .join('')
      : '<tr><td>none</td></tr>';
  } catch (e) {
    table.innerHTML = `<tr><td>${escapeHtml(e.message)}</td></tr>`;
  }
}

const FAMILY_TEXT = { 'turn-based': 'one move at a time', crowd: 'crowds', simultaneous: 'simultaneous moves' };

// One card per variant, its start position drawn by the game page's board.
function drawCards(container, variants, onPick) {
  container.innerHTML = variants
    .map(
      (v) => `<button type="button" class="variant-card" data-variant="${escapeHtml(v.id)}" aria-pressed="false">
        <span class="mini-board"></span>
        <span class="variant-title">${escapeHtml(v.name)}</span>
        <span class="variant-facts">${v.files}x${v.ranks} · ${escapeHtml(FAMILY_TEXT[v.family] ?? v.family)}</span>
        <span class="variant-line">${escapeHtml(v.description ?? '')}</span></button>`,
    )
    .join('');
  for (const v of variants) {
    const card = container.querySelector(`[data-variant="${CSS.escape(v.id)}"]`);
    const squares = new Map((v.start ?? []).map((sq) => [sq.square, { pieces: sq.pieces, lastMoved: [] }]));
    renderBoard(card.querySelector('.mini-board'), {
      files: v.files, ranks: v.ranks, flipped: false, squares, marks: new Map(), onSquare: () => {},
    });
    card.addEventListener('click', () => onPick(v.id));
  }
}

export async function showLobby(root) {
  root.innerHTML = TEMPLATE;
  const form = root.querySelector('form.create');
  const select = form.elements.variant;
  const description = root.querySelector('.variant-description');
  const error = form.querySelector('.error');
  let variants = [];
  try {
    variants = await api.variants();
  } catch (e) {
    error.textContent = `cannot load the variants: ${e.message}`;
    error.hidden = false;
  }
  select.innerHTML = variants
    .map((v) => `<option value="${escapeHtml(v.id)}">${escapeHtml(v.name)}</option>`)
    .join('');
  const cards = root.querySelector('.variant-cards');
  const describe = () => {
    description.textContent = variants.find((v) => v.id === select.value)?.description ?? '';
    for (const card of cards.querySelectorAll('.variant-card')) {
      card.setAttribute('aria-pressed', String(card.dataset.variant === select.value));
    }
  };
  drawCards(cards, variants, (id) => {
    select.value = id;
    describe();
  });
  select.addEventListener('change', describe);
  describe();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    const live = f.timing.value === 'live';
    const spec = {
      variant: select.value,
      clock: live ? { initial: Math.round(Number(f.minutes.value) * 60), increment: Number(f.increment.value) } : null,
      days: live ? null : Number(f.days.value),
      opponent: f.opponent.value === 'friend' ? 'friend' : { engine: { level: Number(f.level.value) } },
      color: f.color.value,
      public: f.public.checked,
    };
    if (f.fen.value.trim()) spec.fen = f.fen.value.trim();
    error.hidden = true;
    try {
      const created = await api.createGame(spec);
      location.assign(`/game/${created.id}`);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });

  const tables = root.querySelectorAll('table.games');
  const variantNames = new Map(variants.map((v) => [v.id, v.name]));
  const refresh = () => tables.forEach((table) => fillList(table, variantNames));
  refresh();
  const timer = setInterval(refresh, 15000);
  window.addEventListener('pagehide', () => clearInterval(timer));
}
