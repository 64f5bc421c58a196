// The player's own games in progress: an account's from the server
// (`/api/account/playing`), a guest's from the seats this browser has held
// (their ids kept in localStorage, each read again from the server). The
// lobby lists them, "your turn" first; the header counts them and the
// page title shows how many wait for this player, as lichess's does.

import { api } from './api.js';
import { escapeHtml } from './html.js';
import { t } from './i18n.js';

const SEATS_KEY = 'parity-seats';
/** Seats remembered at most: the oldest go first. */
const MAX_SEATS = 30;
const REFRESH_MS = 15000;

function remembered() {
  try {
    const ids = JSON.parse(localStorage.getItem(SEATS_KEY));
    return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function keep(ids) {
  if (ids.length) localStorage.setItem(SEATS_KEY, JSON.stringify(ids.slice(0, MAX_SEATS)));
  else localStorage.removeItem(SEATS_KEY);
}

/** The game page holds a seat of `id` that is not over: remember it. */
export function rememberSeat(id) {
  const ids = remembered();
  if (ids[0] !== id) keep([id, ...ids.filter((other) => other !== id)]);
}

export function forgetSeat(id) {
  const ids = remembered();
  if (ids.includes(id)) keep(ids.filter((other) => other !== id));
}

const other = (color) => (color === 'white' ? 'black' : 'white');

/** A guest's game as the `nowPlaying` entry of an account's would say it. */
function fromState(s) {
  const seat = s[other(s.you)] ?? {};
  const opponent = seat.kind === 'engine' ? t('lobby-my-games-engine', { level: seat.level })
    : seat.joined === false ? t('lobby-my-games-friend-invited') : t('lobby-my-games-anonymous');
  const simultaneous = Boolean(s.committed);
  const isMyTurn = s.status === 'started'
    && (simultaneous ? !s.committed[s.you] : s.to_move === s.you);
  const ms = s.clocks?.[`${s.you}_ms`];
  return {
    gameId: s.id,
    variant: { name: s.variant?.name ?? s.variant?.id },
    opponent: { username: opponent },
    isMyTurn,
    ...(ms == null ? {} : { secondsLeft: Math.max(0, Math.floor(ms / 1000)) }),
    days: s.days,
  };
}

/** The player's games in progress, their turn first: `nowPlaying` entries. */
export async function readMyGames(me) {
  const games = new Map();
  if (me) {
    const playing = await api.playing().catch(() => ({ nowPlaying: [] }));
    for (const g of playing.nowPlaying) games.set(g.gameId, g);
  }
  const states = await Promise.all(remembered()
    .filter((id) => !games.has(id))
    .map((id) => api.game(id).then((s) => [id, s], (e) => [id, e.status === 404 ? null : undefined])));
  for (const [id, s] of states) {
    if (s === undefined) continue; // not read now: kept for the next time
    if (!s?.you || !['waiting', 'started'].includes(s.status)) forgetSeat(id);
    else games.set(id, fromState(s));
  }
  return [...games.values()].sort((a, b) => (b.isMyTurn - a.isMyTurn)
    || ((a.secondsLeft ?? Infinity) - (b.secondsLeft ?? Infinity)));
}

/** Time left in words: `4:05`, `1h 20m`, `2 days 23h`. */
export function timeLeftText(seconds) {
  if (seconds == null) return '';
  if (seconds >= 86400) {
    const days = Math.floor(seconds / 86400);
    return t('lobby-time-left-days', { days, hours: Math.floor((seconds % 86400) / 3600) });
  }
  if (seconds >= 3600) {
    return t('lobby-time-left-hours', { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) });
  }
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function rowsHtml(games) {
  return games.map((g) => `<tr data-game="${escapeHtml(g.gameId)}"${g.isMyTurn ? ' class="my-turn"' : ''}>
      <td>${g.isMyTurn ? `<strong class="turn-badge">${t('lobby-my-games-your-turn')}</strong>` : t('lobby-my-games-waiting')}</td>
      <td><a href="/game/${escapeHtml(g.gameId)}">${escapeHtml(g.variant?.name ?? '')}</a></td>
      <td>${escapeHtml(g.opponent?.username ?? '')}</td>
      <td class="time-left">${escapeHtml(timeLeftText(g.secondsLeft))}</td></tr>`).join('');
}

function show(games, { section, badge }) {
  const waiting = games.filter((g) => g.isMyTurn).length;
  document.title = waiting ? `(${waiting}) Parity` : 'Parity';
  if (badge) {
    badge.hidden = !games.length;
    const turns = waiting ? ` <strong class="turn-badge">${t('lobby-my-games-badge-turns', { count: waiting })}</strong>` : '';
    badge.innerHTML = `<a href="/#my-games">${t('lobby-my-games-badge', { count: games.length })}${turns}</a>`;
  }
  if (section) {
    section.hidden = !games.length;
    section.querySelector('table').innerHTML = `<tr><th><span class="visually-hidden">${t('lobby-my-games-whose-move')}</span></th>`
      + `<th>${t('lobby-col-game')}</th><th>${t('lobby-opponent')}</th><th>${t('lobby-my-games-time-left')}</th></tr>${rowsHtml(games)}`;
  }
}

/** Keeps the header's count (`badge`), the page title and, in the lobby,
 * its list (`section`) up to date; returns a stop function. */
export function followMyGames(me, places) {
  let stopped = false;
  const refresh = async () => {
    const games = await readMyGames(me);
    if (!stopped) show(games, places);
  };
  refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
