// The lobby: a card per variant (its start position, name and one line on
// its rules; a click picks it for the form), the form that creates a game,
// the open seeks of players (accepted with a click; a logged-in player
// posts one, or pairs at once with quick pairing), the challenges a logged-in player has received and sent,
// and the lists of live and finished games. A logged-in page follows its
// account's events and opens a game as soon as it begins.

import { api, accountEvents } from './api.js';
import { renderBoard } from './board.js';
import { escapeHtml, setMessage, messageHtml } from './html.js';
import { fillVariants, readTerms, termsFields } from './terms.js';
import { challengeList, CHALLENGE_EVENTS } from './challenges.js';
import { t, tMarkup, variantDescription } from './i18n.js';


// Lichess's quick-pairing grid, the live ones: minutes + seconds.
const QUICK_CLOCKS = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10]];

// Drawn when the page is shown, in the language of the settings.
const template = () => `
<section class="lobby">
  <section class="my-games" id="my-games" hidden>
    <h2>${t('lobby-your-games')}</h2><div class="table-wrap"><table class="my-games-list"></table></div>
  </section>
  <div class="variants">
    <h2>${t('lobby-variants')}</h2>
    <div class="variant-cards"></div>
  </div>
  <form class="create">
    <h2>${t('lobby-new-game')}</h2>
    <label>${t('lobby-variant')} <select name="variant" required></select></label>
    <p class="variant-description"></p>
    <fieldset>
      <legend>${t('lobby-time')}</legend>
      <label><input type="radio" name="timing" value="live" checked> ${t('lobby-live-clock')}</label>
      <label class="inline">${t('lobby-minutes')} <input type="number" name="minutes" min="0" max="180" step="any" value="10"></label>
      <label class="inline">${t('lobby-increment')} <input type="number" name="increment" min="0" max="180" value="5"></label>
      <br>
      <label><input type="radio" name="timing" value="days"> ${t('lobby-correspondence')}</label>
      <label class="inline">${t('lobby-days-per-move')} <input type="number" name="days" min="1" max="14" value="3"></label>
    </fieldset>
    <fieldset>
      <legend>${t('lobby-opponent')}</legend>
      <label><input type="radio" name="opponent" value="engine" checked> ${t('lobby-engine')}</label>
      <label class="inline">${t('lobby-level')} <input type="number" name="level" min="1" max="8" value="3"></label>
      <span class="level-rating" aria-live="polite"></span>
      <br>
      <label><input type="radio" name="opponent" value="friend"> ${t('lobby-friend')}</label>
    </fieldset>
    <fieldset>
      <legend>${t('lobby-your-colour')}</legend>
      <label><input type="radio" name="color" value="white"> ${t('lobby-white')}</label>
      <label><input type="radio" name="color" value="random" checked> ${t('lobby-random')}</label>
      <label><input type="radio" name="color" value="black"> ${t('lobby-black')}</label>
    </fieldset>
    <label>${t('lobby-start-position')} <input name="fen" autocomplete="off" spellcheck="false" placeholder="${escapeHtml(t('lobby-fen-placeholder'))}"></label>
    <label><input type="checkbox" name="public"> ${t('lobby-list-publicly')}</label>
    <button type="submit">${t('lobby-create-game')}</button>
    <div class="error" role="alert" hidden></div>
  </form>
  <div class="lists">
    <h2>${t('lobby-games-in-progress')}</h2><div class="table-wrap"><table class="games" data-status="live"></table></div>
    <h2>${t('lobby-finished-games')}</h2><div class="table-wrap"><table class="games" data-status="finished"></table></div>
  </div>
  <!-- Shown first by the grid; last in the markup, so the new-game form's fields come first. -->
  <section class="seeks">
    <section class="challenges" hidden>
      <h2>${t('lobby-challenges')}</h2>
      <div class="table-wrap"><table class="games challenge-list"></table></div>
      <div class="error" role="alert" hidden></div>
    </section>
    <h2>${t('lobby-open-seeks')}</h2>
    <div class="quick-pairing" hidden>
      <span>${tMarkup('lobby-quick-pairing', { variant: '<b class="quick-variant"></b>' })}</span>
      ${QUICK_CLOCKS.map(([m, i]) => `<button type="button" data-quick="${m}+${i}">${m}+${i}</button>`).join('')}
    </div>
    <div class="table-wrap"><table class="games seek-list"></table></div>
    <form class="seek" hidden>
      ${termsFields(t('lobby-colour'))}
      <label>${t('lobby-opponent-rating')} <input type="number" name="low" min="0" max="4000" placeholder="${escapeHtml(t('lobby-any'))}"> –
        <input type="number" name="high" min="0" max="4000" placeholder="${escapeHtml(t('lobby-any'))}"></label>
      <button type="submit">${t('lobby-seek-a-game')}</button>
      <div class="error" role="alert" hidden></div>
    </form>
    <p class="seek-login" hidden>${t('lobby-seek-login')}</p>
  </section>
</section>`;

function seatText(seat) {
  if (!seat) return '?';
  // The kinds the server names (`human`, `engine`) in words; another as it comes.
  return t('lobby-seat', { kind: seat.kind, level: seat.level ?? '' });
}

// Four narrow columns, so that a row fits a phone's width.
async function fillList(table, variantNames) {
  try {
    const games = await api.games(table.dataset.status);
    table.innerHTML = games.length
      ? `<tr><th>${t('lobby-col-game')}</th><th>${t('lobby-col-players')}</th><th>${t('lobby-col-turn')}</th><th>${t('lobby-col-result')}</th></tr>` +
        games
          .map(
            (g) => `<tr data-game="${escapeHtml(g.id)}"><td><a href="/game/${escapeHtml(g.id)}">${escapeHtml(variantNames.get(g.variant) ?? g.variant)}</a>
              <span class="game-id">${escapeHtml(g.id)}</span></td>
              <td>${escapeHtml(seatText(g.white))} – ${escapeHtml(seatText(g.black))}</td>
              <td>${escapeHtml(g.turn ?? '')}</td><td>${escapeHtml(g.result ?? t('lobby-status', { status: g.status }))}</td></tr>`,
          )
          .join('')
      : `<tr><td>${t('lobby-none')}</td></tr>`;
  } catch (e) {
    table.innerHTML = `<tr><td>${messageHtml(e.message)}</td></tr>`;
  }
}

function timeControl(seek) {
  if (seek.clock) return `${seek.clock.initial / 60}+${seek.clock.increment}`;
  return seek.days ? t('lobby-days', { count: seek.days }) : '∞';
}

// A row per open seek: who (and their rating), what, and the button.
async function fillSeeks(table, variantNames, me) {
  let seeks;
  try {
    seeks = await api.seeks();
  } catch (e) {
    table.innerHTML = `<tr><td>${messageHtml(e.message)}</td></tr>`;
    return;
  }
  if (!seeks.length) {
    table.innerHTML = `<tr><td>${t('lobby-none')}</td></tr>`;
    return;
  }
  table.innerHTML = `<tr><th>${t('lobby-col-player')}</th><th>${t('lobby-col-game')}</th><th>${t('lobby-col-range')}</th><th></th></tr>` + seeks
    .map((s) => {
      const own = me && s.user.toLowerCase() === me.id;
      const button = !me ? '' : own
        ? `<button type="button" data-seek-action="cancel">${t('lobby-cancel')}</button>`
        : `<button type="button" data-seek-action="accept">${t('lobby-accept')}</button>`;
      const range = s.rating_range ? `${s.rating_range[0]}–${s.rating_range[1]}` : t('lobby-any');
      return `<tr data-seek="${escapeHtml(s.id)}"><td><a href="/@/${encodeURIComponent(s.user)}">${escapeHtml(s.user)}</a>
          <span class="game-id">${escapeHtml(s.rating)}${s.provisional ? '?' : ''}</span></td>
        <td>${escapeHtml(variantNames.get(s.variant) ?? s.variant)} ${escapeHtml(timeControl(s))}
          <span class="game-id">${s.rated ? t('lobby-rated') : t('lobby-casual')} · ${escapeHtml(t('lobby-color', { color: s.color }))}</span></td>
        <td>${escapeHtml(range)}</td><td>${button}</td></tr>`;
    })
    .join('');
}

// The seeks' form and buttons; `onError` shows what went wrong.
function bindSeeks(root, table, variants, refresh) {
  const form = root.querySelector('form.seek');
  const error = form.querySelector('.error');
  const fail = (e) => {
    setMessage(error, e.message);
    error.hidden = false;
  };
  fillVariants(form, variants);
  const quickVariant = root.querySelector('.quick-variant');
  const seekVariant = form.elements.variant;
  const nameQuickVariant = () => {
    quickVariant.textContent = seekVariant.selectedOptions[0]?.textContent ?? '';
  };
  seekVariant.addEventListener('change', () => {
    nameQuickVariant();
    root.dispatchEvent(new CustomEvent('variant-picked', { detail: seekVariant.value }));
  });
  root.addEventListener('variant-picked', (e) => {
    if (seekVariant.value !== e.detail) {
      seekVariant.value = e.detail;
      nameQuickVariant();
    }
  });
  seekVariant.value = root.querySelector('form.create').elements.variant.value || seekVariant.value;
  nameQuickVariant();
  // A seek paired at once opens its game; else it waits in the list.
  const post = async (spec) => {
    error.hidden = true;
    try {
      const answer = await api.seek(spec);
      if (answer.game) location.assign(`/game/${answer.game}`);
      else refresh();
    } catch (err) {
      fail(err);
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = form.elements;
    const range = f.low.value && f.high.value ? [Number(f.low.value), Number(f.high.value)] : null;
    post({ ...readTerms(form), rating_range: range });
  });
  // Quick pairing: the variant of the form, a rated seek at that clock,
  // paired with the first open seek that fits.
  root.querySelector('.quick-pairing').addEventListener('click', (e) => {
    const button = e.target.closest('[data-quick]');
    if (!button) return;
    const [minutes, increment] = button.dataset.quick.split('+').map(Number);
    post({
      variant: form.elements.variant.value,
      clock: { initial: minutes * 60, increment },
      days: null,
      rated: true,
      color: 'random',
      rating_range: null,
    });
  });
  table.addEventListener('click', async (e) => {
    const button = e.target.closest('[data-seek-action]');
    if (!button) return;
    const id = button.closest('tr').dataset.seek;
    try {
      if (button.dataset.seekAction === 'accept') {
        const { game } = await api.acceptSeek(id);
        location.assign(`/game/${game}`);
      } else {
        await api.cancelSeek(id);
        refresh();
      }
    } catch (err) {
      fail(err);
      refresh();
    }
  });
}

// A variant's family in words (`lobby-family`: `turn-based`, `crowd`, `simultaneous`; another as it comes).
const familyText = (family) => t('lobby-family', { family });

// One card per variant, its start position drawn by the game page's board.
function drawCards(container, variants, onPick) {
  container.innerHTML = variants
    .map(
      (v) => `<button type="button" class="variant-card" data-variant="${escapeHtml(v.id)}" aria-pressed="false">
        <span class="mini-board"></span>
        <span class="variant-title">${escapeHtml(v.name)}</span>
        <span class="variant-facts">${v.files}x${v.ranks} · ${escapeHtml(familyText(v.family))}</span>
        <span class="variant-line">${escapeHtml(variantDescription(v))}</span></button>`,
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

/** Shows the lobby in `root`; `me` is the logged-in account or null. */
/**
 * The engine's levels as a ladder measured in chess matches (each level
 * against the next and against Fairy-Max, fitted with Fairy-Max taken as
 * 2000; docs/benchmarks.md, "Levels"): about where each stands.
 */
export const LEVEL_RATINGS = [1078, 1124, 1269, 1591, 1780, 2220, 2471, 2777];

export function levelRatingText(level) {
  const rating = LEVEL_RATINGS[level - 1];
  return rating ? t('lobby-level-rating', { rating: Math.round(rating / 50) * 50 }) : '';
}

export async function showLobby(root, me = null) {
  root.innerHTML = template();
  const form = root.querySelector('form.create');
  // Measured in chess: not said for the simultaneous variants, whose
  // ladder is measured in parity without an anchor on this scale
  // (docs/benchmarks.md, "Levels").
  let variantFamily = () => 'turn-based';
  const levelRating = () => {
    const text = variantFamily() === 'simultaneous' ? '' : levelRatingText(Number(form.elements.level.value));
    root.querySelector('.level-rating').textContent = text;
  };
  form.elements.level.addEventListener('input', levelRating);
  levelRating();
  const select = form.elements.variant;
  const description = root.querySelector('.variant-description');
  const error = form.querySelector('.error');
  let variants = [];
  try {
    variants = await api.variants();
  } catch (e) {
    setMessage(error, t('lobby-variants-failed', { error: e.message }));
    error.hidden = false;
  }
  select.innerHTML = variants
    .map((v) => `<option value="${escapeHtml(v.id)}">${escapeHtml(v.name)}</option>`)
    .join('');
  const cards = root.querySelector('.variant-cards');
  const describe = () => {
    const chosen = variants.find((v) => v.id === select.value);
    description.textContent = chosen ? variantDescription(chosen) : '';
    for (const card of cards.querySelectorAll('.variant-card')) {
      card.setAttribute('aria-pressed', String(card.dataset.variant === select.value));
    }
  };
  // One variant for the page: a card, this form and the seek form (with
  // its quick pairing) pick it together (`variant-picked` on `root`).
  const pick = (id) => {
    select.value = id;
    describe();
    root.dispatchEvent(new CustomEvent('variant-picked', { detail: id }));
  };
  drawCards(cards, variants, pick);
  variantFamily = () => variants.find((v) => v.id === select.value)?.family;
  select.addEventListener('change', () => pick(select.value));
  root.addEventListener('variant-picked', levelRating);
  root.addEventListener('variant-picked', (e) => {
    if (select.value !== e.detail) {
      select.value = e.detail;
      describe();
    }
  });
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
      setMessage(error, err.message);
      error.hidden = false;
    }
  });

  const tables = root.querySelectorAll('table.games[data-status]');
  const variantNames = new Map(variants.map((v) => [v.id, v.name]));
  const refresh = () => tables.forEach((table) => fillList(table, variantNames));
  refresh();
  const timer = setInterval(refresh, 15000);

  const seekTable = root.querySelector('table.seek-list');
  const refreshSeeks = () => fillSeeks(seekTable, variantNames, me);
  root.querySelector('form.seek').hidden = !me;
  root.querySelector('.quick-pairing').hidden = !me;
  root.querySelector('.seek-login').hidden = Boolean(me);
  bindSeeks(root, seekTable, variants, refreshSeeks);
  refreshSeeks();
  const seekTimer = setInterval(refreshSeeks, 3000);
  // A seek of ours accepted elsewhere: its game begins here too. The
  // stream opens with the games already under way, which stay put.
  let events = null;
  if (me) {
    const playing = await api.playing().catch(() => ({ nowPlaying: [] }));
    const underWay = new Set(playing.nowPlaying.map((game) => game.gameId));
    const challenges = challengeList(root.querySelector('section.challenges'));
    challenges.refresh();
    events = accountEvents((event) => {
      const id = event.type === 'gameStart' && (event.game.gameId ?? event.game.id);
      if (id && !underWay.has(id)) location.assign(`/game/${id}`);
      if (CHALLENGE_EVENTS.has(event.type)) challenges.refresh();
    });
  }
  window.addEventListener('pagehide', () => {
    clearInterval(timer);
    clearInterval(seekTimer);
    events?.stop();
  });
}
