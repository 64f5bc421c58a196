// Entry point: `/` is the lobby, `/game/ID` a game, `/tournaments` and
// `/tournament/ID` the tournaments, `/analysis` the
// analysis board, `/@/NAME` a player's profile, `/settings` the player's
// settings (applied on every page, `settings.js`); the header shows the
// log-in and the player's games in progress (`mygames.js`). An invite link
// (`/game/ID?invite=TOKEN`) first takes the invited seat, then drops the
// token from the address so a reload or a shared URL does not reuse it.

import { api } from './api.js';
import { showLobby } from './lobby.js';
import { showGame } from './game.js';
import { showAnalysis } from './analysis.js';
import { showAccount } from './account.js';
import { showProfile } from './profile.js';
import { showTournament, showTournaments } from './tournaments.js';
import { setMessage } from './html.js';
import { followMyGames } from './mygames.js';
import { loadSettings, settings, showSettings } from './settings.js';
import { language, resolveLanguage, t, useLanguage } from './i18n.js';
import { followBell } from './bell.js';

async function route() {
  const root = document.getElementById('app');
  // The words first: the language is the browser's copy of the settings
  // until an account's own arrive (then the page is drawn in it).
  await useLanguage(settings().language);
  const me = showAccount(document.querySelector('nav.account'));
  const loaded = me.then(loadSettings);
  me.then((account) => {
    const stopBell = followBell(document.querySelector('nav.bell'), account);
    window.addEventListener('pagehide', stopBell);
  });
  const chosen = (await loaded).language;
  if (resolveLanguage(chosen) !== language()) await useLanguage(chosen);
  await show(root, me);
  // The player's games: counted in the header and the title, listed in the lobby.
  const stop = followMyGames(await me, {
    badge: document.querySelector('nav.my-games'),
    section: root.querySelector('section.my-games'),
  });
  window.addEventListener('pagehide', stop);
}

async function show(root, me) {
  if (location.pathname === '/analysis') {
    await showAnalysis(root);
    return;
  }
  if (location.pathname === '/settings') {
    const account = await me;
    await loadSettings(account);
    showSettings(root, account);
    return;
  }
  if (location.pathname === '/tournaments') {
    await showTournaments(root, await me);
    return;
  }
  const tournament = /^\/tournament\/([A-Za-z0-9]+)\/?$/.exec(location.pathname);
  if (tournament) {
    await showTournament(root, tournament[1], await me);
    return;
  }
  const profile = /^\/@\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  if (profile) {
    await showProfile(root, profile[1], await me);
    return;
  }
  const match = /^\/game\/([A-Za-z0-9]+)\/?$/.exec(location.pathname);
  if (!match) {
    await showLobby(root, await me);
    return;
  }
  const id = match[1];
  const invite = new URLSearchParams(location.search).get('invite');
  let joinError = null;
  if (invite) {
    try {
      await api.join(id, invite);
    } catch (e) {
      // A used link opened again by the player who used it: they hold
      // the seat already, and nothing went wrong.
      const seated = await api.game(id).then((g) => Boolean(g.you), () => false);
      if (!seated) joinError = e;
    }
    history.replaceState(null, '', `/game/${id}`);
  }
  const shown = await showGame(root, id);
  if (shown && joinError) {
    const box = root.querySelector('.error');
    setMessage(box, t('common-invite-failed', { error: joinError.message }));
    box.hidden = false;
  }
}

route();
