// Tournaments: `/tournaments` lists them (upcoming, running, finished) with
// the form that creates one (an arena, a Swiss event or a round robin, and
// a team for the two that need one); `/tournament/ID` shows one with live
// standings, the games in play, a Swiss event's pairings by round, the
// join and withdraw buttons and, at the end, the podium. A player's new
// game in the tournament opens by itself.

import { request } from './api.js';
import { escapeHtml, setMessage } from './html.js';
import { t } from './i18n.js';

const REFRESH_MS = 2000;
const OPENED_KEY = 'parity-opened-games';

/** The tournament games this browser has opened (this tab's session). */
function openedGames() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(OPENED_KEY) ?? '[]'));
  } catch {
    return new Set();
  }
}

/** Notes that this browser opened game `id`, so it is not opened for the player again. */
export function rememberOpened(id) {
  const opened = openedGames();
  opened.add(id);
  sessionStorage.setItem(OPENED_KEY, JSON.stringify([...opened].slice(-200)));
}

/** The player's game in play in `tournament` that this browser has not opened yet. */
function unopenedGame(tournament, name) {
  const opened = openedGames();
  const mine = tournament.duels.filter((d) => d.p.some((p) => p.n.toLowerCase() === name.toLowerCase()));
  return mine.map((d) => d.id).find((game) => !opened.has(game));
}

/**
 * After a tournament game ends, opens the player's next game in it as
 * soon as it is paired (as lichess does), until the page is left or the
 * tournament is over. Returns a function that stops following.
 */
export function followNextGame(tournamentId, name) {
  const timer = setInterval(async () => {
    try {
      const tournament = await tournamentApi.get(tournamentId);
      const next = unopenedGame(tournament, name);
      if (next) location.assign(`/game/${next}`);
      if (tournament.isFinished && !tournament.duels.length) clearInterval(timer);
    } catch {
      // Try again at the next tick.
    }
  }, REFRESH_MS);
  window.addEventListener('pagehide', () => clearInterval(timer));
  return () => clearInterval(timer);
}

const tournamentApi = {
  list: () => request('GET', '/api/tournament'),
  get: (id) => request('GET', `/api/tournament/${encodeURIComponent(id)}`),
  join: (id) => request('POST', `/api/tournament/${encodeURIComponent(id)}/join`),
  withdraw: (id) => request('POST', `/api/tournament/${encodeURIComponent(id)}/withdraw`),
  createArena: (spec) => request('POST', '/api/tournament', spec),
  createSwiss: (team, spec) => request('POST', `/api/swiss/new/${encodeURIComponent(team)}`, spec),
  teamsOf: (name) => request('GET', `/api/team/of/${encodeURIComponent(name)}`),
  createTeam: (name) => request('POST', '/api/team', { name }),
};

function clockText(clock) {
  const minutes = clock.limit / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(2)}+${clock.increment}`;
}

function systemText(system) {
  return t('tournament-system', { system });
}

function rowHtml(entry) {
  const winner = entry.winner ? ` · ${escapeHtml(t('tournament-won-by', { name: entry.winner.name }))}` : '';
  return `<li data-id="${escapeHtml(entry.id)}"><a href="/tournament/${escapeHtml(entry.id)}">${escapeHtml(entry.fullName)}</a>
    <span class="tournament-terms">${escapeHtml(systemText(entry.system))} · ${escapeHtml(entry.variant.name)} · ${escapeHtml(clockText(entry.clock))}
    · ${escapeHtml(t('tournament-players', { count: Number(entry.nbPlayers) }))}${winner}</span></li>`;
}

function listHtml(entries) {
  if (!entries.length) return `<p class="none">${escapeHtml(t('tournament-none'))}</p>`;
  return `<ul class="tournament-list">${entries.map(rowHtml).join('')}</ul>`;
}

const formTemplate = () => `
<form class="create-tournament">
  <h2>${t('tournament-new')}</h2>
  <label>${t('tournament-system-label')} <select name="system">
    <option value="arena">${t('tournament-system', { system: 'arena' })}</option>
    <option value="swiss">${t('tournament-system', { system: 'swiss' })}</option>
    <option value="robin">${t('tournament-system', { system: 'robin' })}</option>
  </select></label>
  <label>${t('tournament-name')} <input name="name" maxlength="30"></label>
  <label>${t('lobby-variant')} <select name="variant"></select></label>
  <fieldset><legend>${t('lobby-time')}</legend>
    <label class="inline">${t('lobby-minutes')} <input type="number" name="clockMinutes" min="0.25" max="60" step="0.25" value="3"></label>
    <label class="inline">${t('lobby-increment')} <input type="number" name="increment" min="0" max="60" value="2"></label>
  </fieldset>
  <label class="arena-only">${t('tournament-length')} <input type="number" name="minutes" min="1" max="720" value="30"></label>
  <label class="swiss-only" hidden>${t('tournament-rounds')} <input type="number" name="rounds" min="3" max="100" value="5"></label>
  <label class="team-only" hidden>${t('tournament-team')} <select name="team"></select></label>
  <p class="team-only no-team" hidden>${t('tournament-needs-team')}
    <input name="teamName" maxlength="60" aria-label="${escapeHtml(t('tournament-team-name'))}" placeholder="${escapeHtml(t('tournament-team-name'))}">
    <button type="button" class="create-team">${t('tournament-create-team')}</button></p>
  <label>${t('tournament-starts-in')} <input type="number" name="wait" min="0" max="10080" value="5"></label>
  <label><input type="checkbox" name="rated" checked> ${t('lobby-rated')}</label>
  <label><input type="checkbox" name="bots"> ${t('tournament-bots')}</label>
  <button type="submit">${t('tournament-create')}</button>
  <div class="error" role="alert" hidden></div>
</form>`;

/** The list of tournaments, and the creation form for a logged-in player. */
export async function showTournaments(root, me) {
  root.innerHTML = `<section class="tournaments">
    <h1>${t('tournament-heading')}</h1>
    <section class="started"><h2>${t('tournament-running')}</h2><div class="list"></div></section>
    <section class="created"><h2>${t('tournament-upcoming')}</h2><div class="list"></div></section>
    <section class="finished"><h2>${t('tournament-finished')}</h2><div class="list"></div></section>
    ${me ? formTemplate() : `<p>${escapeHtml(t('tournament-log-in-to-create'))}</p>`}
  </section>`;
  const draw = async () => {
    const all = await tournamentApi.list();
    for (const status of ['started', 'created', 'finished']) {
      root.querySelector(`section.${status} .list`).innerHTML = listHtml(all[status]);
    }
  };
  await draw();
  if (me) await wireForm(root.querySelector('form.create-tournament'), me);
}

async function wireForm(form, me) {
  const variants = await request('GET', '/api/variants');
  form.elements.variant.innerHTML = variants
    .map((v) => `<option value="${escapeHtml(v.id)}">${escapeHtml(v.name)}</option>`)
    .join('');
  const error = form.querySelector('.error');
  const fillTeams = async () => {
    const teams = await tournamentApi.teamsOf(me.username);
    form.elements.team.innerHTML = teams
      .map((team) => `<option value="${escapeHtml(team.id)}">${escapeHtml(team.name)}</option>`)
      .join('');
    return teams.length;
  };
  const showFields = async () => {
    const system = form.elements.system.value;
    form.querySelector('.arena-only').hidden = system !== 'arena';
    form.querySelector('.swiss-only').hidden = system !== 'swiss';
    const teams = system === 'arena' ? 0 : await fillTeams();
    form.querySelector('label.team-only').hidden = system === 'arena' || !teams;
    form.querySelector('p.no-team').hidden = system === 'arena' || teams > 0;
  };
  form.elements.system.addEventListener('change', showFields);
  form.querySelector('button.create-team').addEventListener('click', async () => {
    try {
      await tournamentApi.createTeam(form.elements.teamName.value);
      error.hidden = true;
      await showFields();
    } catch (e) {
      setMessage(error, e.message);
      error.hidden = false;
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const f = form.elements;
    const startsAt = Date.now() + Number(f.wait.value) * 60_000;
    const common = {
      name: f.name.value,
      variant: f.variant.value,
      rated: f.rated.checked,
      'conditions.bots': f.bots.checked,
    };
    try {
      const made = f.system.value === 'arena'
        ? await tournamentApi.createArena({
          ...common,
          clockTime: Number(f.clockMinutes.value),
          clockIncrement: Number(f.increment.value),
          minutes: Number(f.minutes.value),
          startDate: startsAt,
        })
        : await tournamentApi.createSwiss(f.team.value, {
          ...common,
          system: f.system.value,
          'clock.limit': Math.round(Number(f.clockMinutes.value) * 60),
          'clock.increment': Number(f.increment.value),
          nbRounds: Number(f.rounds.value),
          startsAt,
        });
      location.assign(`/tournament/${made.id}`);
    } catch (e) {
      setMessage(error, e.message);
      error.hidden = false;
    }
  });
  await showFields();
}

function standingsHtml(tournament, me) {
  const players = tournament.standing.players;
  if (!players.length) return `<p class="none">${escapeHtml(t('tournament-no-players'))}</p>`;
  const arena = tournament.system === 'arena';
  const head = arena
    ? `<th>${t('tournament-column-sheet')}</th><th>${t('tournament-column-score')}</th>`
    : `<th>${t('tournament-column-points')}</th><th>${t('tournament-column-buchholz')}</th><th>${t('tournament-column-sb')}</th>`;
  const rows = players.map((p) => {
    const mine = me && p.username.toLowerCase() === me.username.toLowerCase();
    const cells = arena
      ? `<td class="sheet">${escapeHtml(p.sheet.scores)}${p.sheet.fire ? ` <span class="fire" title="${escapeHtml(t('tournament-on-fire'))}">🔥</span>` : ''}</td><td class="score">${escapeHtml(p.score)}</td>`
      : `<td class="score">${escapeHtml(p.points)}</td><td>${escapeHtml(p.buchholz)}</td><td>${escapeHtml(p.tieBreak)}</td>`;
    return `<tr class="${mine ? 'me' : ''}${p.withdraw ? ' withdrawn' : ''}" data-player="${escapeHtml(p.username)}">
      <td class="rank">${escapeHtml(p.rank)}</td>
      <td><a href="/@/${escapeHtml(p.username)}">${escapeHtml(p.title ? `${p.title} ${p.username}` : p.username)}</a> <span class="rating">${escapeHtml(p.rating)}</span></td>
      ${cells}</tr>`;
  });
  return `<div class="table-wrap"><table class="standings"><thead><tr><th>#</th><th>${t('tournament-column-player')}</th>${head}</tr></thead>
    <tbody>${rows.join('')}</tbody></table></div>`;
}

function duelsHtml(tournament) {
  if (!tournament.duels.length) return `<p class="none">${escapeHtml(t('tournament-no-games'))}</p>`;
  return `<ul class="duels">${tournament.duels
    .map((d) => `<li><a href="/game/${escapeHtml(d.id)}">${escapeHtml(d.p[0].n)} – ${escapeHtml(d.p[1].n)}</a></li>`)
    .join('')}</ul>`;
}

function pairingsHtml(tournament) {
  return (tournament.pairings ?? [])
    .slice()
    .reverse()
    .map((round) => `<section class="round" data-round="${round.round}"><h3>${escapeHtml(t('tournament-round', { round: round.round }))}</h3>
      <ol>${round.boards
        .map((b) => `<li><a href="/game/${escapeHtml(b.id)}">${escapeHtml(b.white)} – ${escapeHtml(b.black)}</a> <span class="result">${escapeHtml(b.result ?? '*')}</span></li>`)
        .join('')}</ol>
      ${round.byes.length ? `<p class="byes">${escapeHtml(t('tournament-byes', { names: round.byes.join(', ') }))}</p>` : ''}</section>`)
    .join('');
}

function statusText(tournament) {
  if (tournament.isFinished) return t('tournament-status-finished');
  if (!tournament.isStarted) return t('tournament-status-starts-in', { seconds: Number(tournament.secondsToStart ?? 0) });
  if (tournament.system === 'arena') return t('tournament-status-ends-in', { seconds: Number(tournament.secondsToFinish ?? 0) });
  return t('tournament-status-round', { round: Number(tournament.round), rounds: Number(tournament.nbRounds) });
}

function podiumHtml(tournament) {
  if (!tournament.podium) return '';
  return `<ol class="podium">${tournament.podium
    .map((p) => `<li class="place-${escapeHtml(p.rank)}"><span class="name">${escapeHtml(p.username)}</span>
      <span class="score">${escapeHtml(tournament.system === 'arena' ? p.score : p.points)}</span></li>`)
    .join('')}</ol>`;
}

/** One tournament, kept up to date until the page is left. */
export async function showTournament(root, id, me) {
  root.innerHTML = `<section class="tournament">
    <h1 class="name"></h1><p class="terms"></p><p class="status" aria-live="polite"></p>
    <div class="podium-box"></div>
    <p class="actions"></p>
    <div class="error" role="alert" hidden></div>
    <section><h2>${t('tournament-standings')}</h2><div class="standings-box"></div></section>
    <section><h2>${t('tournament-games-in-play')}</h2><div class="duels-box"></div></section>
    <section class="pairings-box"></section>
  </section>`;
  const error = root.querySelector('.error');
  const draw = async () => {
    const tournament = await tournamentApi.get(id);
    document.title = `${tournament.fullName} · Parity`;
    root.querySelector('.name').textContent = tournament.fullName;
    root.querySelector('.terms').textContent = `${systemText(tournament.system)} · ${tournament.variant.name} · ${clockText(tournament.clock)} · ${tournament.rated ? t('lobby-rated') : t('tournament-casual')}`;
    root.querySelector('.status').textContent = statusText(tournament);
    root.querySelector('.podium-box').innerHTML = podiumHtml(tournament);
    root.querySelector('.standings-box').innerHTML = standingsHtml(tournament, me);
    root.querySelector('.duels-box').innerHTML = duelsHtml(tournament);
    const pairings = pairingsHtml(tournament);
    root.querySelector('.pairings-box').innerHTML = pairings ? `<h2>${t('tournament-pairings')}</h2>${pairings}` : '';
    const mine = me && tournament.standing.players.find((p) => p.username.toLowerCase() === me.username.toLowerCase());
    const actions = root.querySelector('.actions');
    actions.innerHTML = !me || tournament.isFinished ? ''
      : mine && !mine.withdraw ? `<button type="button" class="withdraw">${t('tournament-withdraw')}</button>`
        : `<button type="button" class="join">${t('tournament-join')}</button>`;
    // The player's new game opens by itself (one this browser has not opened).
    const fresh = me && unopenedGame(tournament, me.username);
    if (fresh) location.assign(`/game/${fresh}`);
    return tournament;
  };
  root.querySelector('.actions').addEventListener('click', async (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    try {
      await (button.classList.contains('join') ? tournamentApi.join(id) : tournamentApi.withdraw(id));
      error.hidden = true;
      await draw();
    } catch (e) {
      setMessage(error, e.message);
      error.hidden = false;
    }
  });
  try {
    await draw();
  } catch (e) {
    setMessage(error, e.message);
    error.hidden = false;
    return;
  }
  const timer = setInterval(() => draw().catch(() => {}), REFRESH_MS);
  window.addEventListener('pagehide', () => clearInterval(timer));
}
