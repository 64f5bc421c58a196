// A player's profile (`/@/NAME`): the rating of each variant (a `?` marks
// a provisional one, as on lichess), a graph of the ratings after each
// rated game, the games; on one's own profile, the personal API tokens
// for tools (berserk, lichess-bot), each shown once when made, and the
// log-ins (browser, when made and last used; each can be ended); on another
// player's, when logged in, the form that challenges them.

import { api, accountEvents } from './api.js';
import { escapeHtml, setMessage, messageHtml } from './html.js';
import { challengeForm } from './challenges.js';
import { t } from './i18n.js';

const SCOPES = ['board:play', 'bot:play'];
const COLORS = ['#2b6cb0', '#c05621', '#2f855a', '#9b2c2c', '#6b46c1', '#975a16'];

/** Lichess calls chess `standard`; the page shows our names. */
function variantName(key, names) {
  return names.get(key === 'standard' ? 'chess' : key) ?? key;
}

function ratingsHtml(user, names) {
  const perfs = Object.entries(user.perfs ?? {});
  if (!perfs.length) return `<p class="none">${escapeHtml(t('profile-no-rated-games'))}</p>`;
  return `<ul class="ratings">${perfs
    .map(([key, p]) => `<li data-variant="${escapeHtml(key)}"><span class="variant-title">${escapeHtml(variantName(key, names))}</span>
      <span class="rating">${escapeHtml(p.rating)}${p.prov ? '?' : ''}</span>
      <span class="games-count">${escapeHtml(t('profile-games-count', { count: Number(p.games) }))}</span></li>`)
    .join('')}</ul>`;
}

/** An inline SVG line per variant: rating (y) after each rated game, in order of time (x). */
export function ratingGraph(points, names) {
  if (!points.length) return '';
  const width = 600;
  const height = 200;
  const pad = 36;
  const ratings = points.map((p) => p.rating);
  const lo = Math.floor(Math.min(...ratings) / 50) * 50 - 50;
  const hi = Math.ceil(Math.max(...ratings) / 50) * 50 + 50;
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (r) => height - pad / 2 - ((r - lo) * (height - pad)) / (hi - lo);
  const variants = [...new Set(points.map((p) => p.variant))];
  const lines = variants.map((variant, n) => {
    const mine = points.map((p, i) => [p, i]).filter(([p]) => p.variant === variant);
    const coords = mine.map(([p, i]) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`);
    const color = COLORS[n % COLORS.length];
    const dots = mine
      .map(([p, i]) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="3" fill="${color}"><title>${escapeHtml(Math.round(p.rating))}</title></circle>`)
      .join('');
    return `<polyline class="rating-line" data-variant="${escapeHtml(variant)}" fill="none" stroke="${color}" stroke-width="2" points="${coords.join(' ')}"/>${dots}
      <text x="${width - pad}" y="${14 + 14 * n}" text-anchor="end" fill="${color}" font-size="12">${escapeHtml(names.get(variant) ?? variant)}</text>`;
  });
  const grid = [lo, (lo + hi) / 2, hi]
    .map((r) => `<line x1="${pad}" x2="${width - pad}" y1="${y(r)}" y2="${y(r)}" stroke="#ccc"/>
      <text x="${pad - 4}" y="${y(r) + 4}" text-anchor="end" font-size="11" fill="#666">${r}</text>`)
    .join('');
  return `<svg class="rating-graph" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(t('profile-rating-history'))}">${grid}${lines.join('')}</svg>`;
}

function resultText(game) {
  if (!game.result) return t('profile-game-status', { status: game.status });
  const won = (game.result === '1-0' && game.color === 'white') || (game.result === '0-1' && game.color === 'black');
  const lost = (game.result === '0-1' && game.color === 'white') || (game.result === '1-0' && game.color === 'black');
  if (won) return t('profile-result-won', { result: game.result });
  if (lost) return t('profile-result-lost', { result: game.result });
  return game.result;
}

/** Games the profile shows at once; "More games" reads the next page. */
const GAMES_PAGE = 50;

function gameRows(games, names) {
  return games
    .map((g) => `<tr data-game="${escapeHtml(g.id)}"><td><a href="/game/${escapeHtml(g.id)}">${escapeHtml(names.get(g.variant) ?? g.variant)}</a>
      ${escapeHtml(g.rated ? t('profile-rated') : t('profile-casual'))} <span class="game-id">${escapeHtml(new Date(g.created_ms).toLocaleDateString())}</span></td>
      <td>${g.opponent ? `<a href="/@/${encodeURIComponent(g.opponent)}">${escapeHtml(g.opponent)}</a>` : escapeHtml(t('profile-anonymous'))}</td>
      <td>${escapeHtml(t('profile-color', { color: g.color }))}</td><td>${escapeHtml(resultText(g))}</td></tr>`)
    .join('');
}

function gamesHtml(games, names) {
  if (!games.length) return `<p class="none">${escapeHtml(t('profile-no-games'))}</p>`;
  const heads = [t('profile-column-game'), t('profile-column-opponent'), t('profile-column-colour'), t('profile-column-result')]
    .map((head) => `<th>${escapeHtml(head)}</th>`)
    .join('');
  return `<div class="table-wrap"><table class="user-games"><tr>${heads}</tr>${gameRows(games, names)}</table></div>
    <button type="button" class="more-games" ${games.length < GAMES_PAGE ? 'hidden' : ''}>${escapeHtml(t('profile-more-games'))}</button>`;
}

/** The "More games" button: appends the next page after the last game shown. */
function bindMoreGames(root, name, games, names) {
  const button = root.querySelector('.more-games');
  if (!button) return;
  let last = games[games.length - 1];
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const more = await api.userGames(name, GAMES_PAGE, last.cursor);
      root.querySelector('table.user-games tbody').insertAdjacentHTML('beforeend', gameRows(more, names));
      if (more.length) last = more[more.length - 1];
      button.hidden = more.length < GAMES_PAGE;
    } finally {
      button.disabled = false;
    }
  });
}

const tokensHtml = () => `
  <section class="tokens">
    <h2>${escapeHtml(t('profile-tokens-heading'))}</h2>
    <p>${messageHtml(t('profile-tokens-help', { header: '`Authorization: Bearer`' }))}</p>
    <table class="token-list"></table>
    <form class="new-token">
      ${SCOPES.map((s) => `<label><input type="checkbox" name="scope" value="${s}" ${s === 'board:play' ? 'checked' : ''}> ${s}</label>`).join(' ')}
      <button type="submit">${escapeHtml(t('profile-make-token'))}</button>
    </form>
    <p class="new-token-shown" hidden>${escapeHtml(t('profile-token-shown'))} <input class="token" readonly spellcheck="false"></p>
    <div class="error" role="alert" hidden></div>
  </section>`;

async function showTokens(section) {
  const list = section.querySelector('.token-list');
  const error = section.querySelector('.error');
  const fail = (e) => {
    setMessage(error, e.message);
    error.hidden = false;
  };
  async function refresh() {
    const tokens = await api.tokens();
    list.innerHTML = tokens.length
      ? `<tr><th>${escapeHtml(t('profile-column-token'))}</th><th>${escapeHtml(t('profile-column-scopes'))}</th><th>${escapeHtml(t('profile-column-made'))}</th><th></th></tr>` + tokens
        .map((token) => `<tr data-hash="${escapeHtml(token.hash)}"><td><code>pat_… ${escapeHtml(token.hash.slice(0, 8))}</code></td>
          <td>${escapeHtml(token.scopes)}</td><td>${escapeHtml(new Date(token.created_ms).toLocaleString())}</td>
          <td><button type="button" class="revoke">${escapeHtml(t('profile-revoke'))}</button></td></tr>`)
        .join('')
      : `<tr><td>${escapeHtml(t('profile-no-tokens'))}</td></tr>`;
  }
  list.addEventListener('click', async (e) => {
    const row = e.target.closest('.revoke') && e.target.closest('tr');
    if (!row) return;
    try {
      await api.revokeToken(row.dataset.hash);
      await refresh();
    } catch (err) {
      fail(err);
    }
  });
  const form = section.querySelector('form');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const scopes = [...form.querySelectorAll('[name=scope]:checked')].map((c) => c.value);
    try {
      const { token } = await api.newToken(scopes);
      const shown = section.querySelector('.new-token-shown');
      shown.querySelector('input').value = token;
      shown.hidden = false;
      error.hidden = true;
      await refresh();
    } catch (err) {
      fail(err);
    }
  });
  await refresh().catch(fail);
}

const sessionsHtml = () => `
  <section class="sessions">
    <h2>${escapeHtml(t('profile-sessions-heading'))}</h2>
    <p>${escapeHtml(t('profile-sessions-help'))}</p>
    <table class="session-list"></table>
    <div class="error" role="alert" hidden></div>
  </section>`;

async function showSessions(section) {
  const list = section.querySelector('.session-list');
  const error = section.querySelector('.error');
  const when = (ms) => escapeHtml(new Date(ms).toLocaleString());
  async function refresh() {
    const sessions = await api.sessions();
    const heads = [t('profile-column-browser'), t('profile-column-logged-in'), t('profile-column-last-used')]
      .map((head) => `<th>${escapeHtml(head)}</th>`)
      .join('');
    list.innerHTML = `<tr>${heads}<th></th></tr>` + sessions
      .map((s) => `<tr data-hash="${escapeHtml(s.hash)}"><td>${escapeHtml(s.agent || t('profile-unknown-browser'))}</td>
        <td>${when(s.created_ms)}</td><td>${when(s.seen_ms)}</td>
        <td>${s.current ? escapeHtml(t('profile-this-session')) : `<button type="button" class="end-session">${escapeHtml(t('profile-log-out'))}</button>`}</td></tr>`)
      .join('');
  }
  list.addEventListener('click', async (e) => {
    const row = e.target.closest('.end-session') && e.target.closest('tr');
    if (!row) return;
    try {
      await api.endSession(row.dataset.hash);
      await refresh();
    } catch (err) {
      setMessage(error, err.message);
      error.hidden = false;
    }
  });
  await refresh();
}

/** Shows the profile of `name` in `root`; `me` is the logged-in account or null. */
export async function showProfile(root, name, me) {
  let user;
  try {
    user = await api.user(name);
  } catch (e) {
    root.innerHTML = `<section class="profile"><h1>${escapeHtml(name)}</h1><p class="error">${messageHtml(e.message)}</p></section>`;
    return;
  }
  const [variants, history, games] = await Promise.all([
    api.variants().catch(() => []),
    api.ratingHistory(name),
    api.userGames(name, GAMES_PAGE),
  ]);
  const names = new Map(variants.map((v) => [v.id, v.name]));
  const own = me?.id === user.id;
  root.innerHTML = `<section class="profile" data-user="${escapeHtml(user.id)}">
    <h1>${user.title ? `<span class="title">${escapeHtml(user.title)}</span> ` : ''}${escapeHtml(user.username)}</h1>
    ${me && !own ? '<section class="challenge"></section>' : ''}
    <h2>${escapeHtml(t('profile-ratings-heading'))}</h2><div class="standing">${ratingsHtml(user, names)}
    ${ratingGraph(history, names)}</div>
    <h2>${escapeHtml(t('profile-games-heading'))}</h2>${gamesHtml(games, names)}
    ${own ? tokensHtml() + sessionsHtml() : ''}
  </section>`;
  bindMoreGames(root, name, games, names);
  if (me && !own) {
    const form = challengeForm(root.querySelector('section.challenge'), user.username, variants);
    const events = accountEvents(form.onEvent);
    window.addEventListener('pagehide', () => events.stop());
  }
  if (own) {
    // A rated game that ends while the profile is open moves its ratings.
    const events = accountEvents(async (event) => {
      if (event.type !== 'gameFinish') return;
      const [fresh, newer] = await Promise.all([api.user(name), api.ratingHistory(name)]);
      root.querySelector('.standing').innerHTML = ratingsHtml(fresh, names) + ratingGraph(newer, names);
    });
    window.addEventListener('pagehide', () => events.stop());
    await showTokens(root.querySelector('.tokens'));
    await showSessions(root.querySelector('.sessions')).catch((e) => {
      const error = root.querySelector('.sessions .error');
      setMessage(error, e.message);
      error.hidden = false;
    });
  }
}
