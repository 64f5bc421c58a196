// Direct challenges between accounts, through lichess's challenge API
// (`/api/challenge/...`, the log-in cookie authenticates): the lobby's
// list of the challenges one has received (accept, decline) and sent
// (cancel), and the form on another player's profile that sends one and
// waits for the answer. The account's event stream says when a
// challenge arrives, is declined or canceled; the game's start moves
// both pages to it.

import { request } from './api.js';
import { escapeHtml, setMessage } from './html.js';
import { t, tMarkup } from './i18n.js';
import { fillVariants, readTerms, termsFields } from './terms.js';

export const challenges = {
  /** `{in: [...], out: [...]}` in lichess's challenge shape. */
  list: () => request('GET', '/api/challenge'),
  /** Lichess's fields: `variant`, `rated`, `clock.limit`, `clock.increment` or `days`, `color`. */
  send: (name, fields) => request('POST', `/api/challenge/${encodeURIComponent(name)}`, fields),
  accept: (id) => request('POST', `/api/challenge/${id}/accept`),
  decline: (id) => request('POST', `/api/challenge/${id}/decline`, { reason: 'generic' }),
  cancel: (id) => request('POST', `/api/challenge/${id}/cancel`),
};

/** The account events that change the list of challenges. */
export const CHALLENGE_EVENTS = new Set(['challenge', 'challengeCanceled', 'challengeDeclined']);

function termsText(c) {
  const tc = c.timeControl ?? {};
  const time = tc.type === 'clock' ? tc.show : tc.type === 'correspondence'
    ? t('lobby-days', { count: tc.daysPerTurn }) : '∞';
  // Lichess calls chess `standard`; the page calls it Chess.
  const variant = c.variant?.key === 'standard' ? 'Chess' : c.variant?.name ?? c.variant?.key;
  return `${variant} ${time} · ${c.rated ? t('lobby-rated') : t('lobby-casual')} · ${t('lobby-color', { color: c.color })}`;
}

function who(user) {
  if (!user) return '?';
  const rating = user.rating ? ` ${user.rating}${user.provisional ? '?' : ''}` : '';
  return `<a href="/@/${encodeURIComponent(user.name)}">${escapeHtml(user.name)}</a><span class="game-id">${escapeHtml(rating)}</span>`;
}

/**
 * The lobby's list of challenges in `section`; `refresh()` reads it again
 * (on each challenge event). Accepting opens the game.
 */
export function challengeList(section) {
  const table = section.querySelector('table.challenge-list');
  const error = section.querySelector('.error');
  const fail = (e) => {
    setMessage(error, e.message);
    error.hidden = false;
  };
  async function refresh() {
    let listed;
    try {
      listed = await challenges.list();
    } catch (e) {
      fail(e);
      return;
    }
    const rows = [
      ...listed.in.map((c) => `<tr data-challenge="${escapeHtml(c.id)}" data-direction="in">
        <td>${tMarkup('lobby-challenge-from', { player: who(c.challenger) })}</td><td>${escapeHtml(termsText(c))}</td>
        <td><button type="button" data-challenge-action="accept">${t('lobby-accept')}</button>
          <button type="button" data-challenge-action="decline">${t('lobby-decline')}</button></td></tr>`),
      ...listed.out.map((c) => `<tr data-challenge="${escapeHtml(c.id)}" data-direction="out">
        <td>${tMarkup('lobby-challenge-to', { player: who(c.destUser) })}</td><td>${escapeHtml(termsText(c))}</td>
        <td><button type="button" data-challenge-action="cancel">${t('lobby-cancel')}</button></td></tr>`),
    ];
    section.hidden = rows.length === 0;
    table.innerHTML = rows.join('');
  }
  table.addEventListener('click', async (e) => {
    const button = e.target.closest('[data-challenge-action]');
    if (!button) return;
    const id = button.closest('tr').dataset.challenge;
    const action = button.dataset.challengeAction;
    error.hidden = true;
    try {
      await challenges[action](id);
      if (action === 'accept') location.assign(`/game/${id}`);
      else await refresh();
    } catch (err) {
      fail(err);
      await refresh();
    }
  });
  return { refresh };
}

// Drawn when the form is shown, in the language of the settings.
const formHtml = () => `
  <form class="challenge-form">
    <h2>${t('lobby-challenge-heading')}</h2>
    ${termsFields(t('lobby-your-colour'))}
    <button type="submit">${t('lobby-challenge-send')}</button>
    <p class="challenge-status" role="status" hidden><span></span>
      <button type="button" class="cancel-challenge" hidden>${t('lobby-cancel')}</button></p>
    <div class="error" role="alert" hidden></div>
  </form>`;

/**
 * The form on `name`'s profile that challenges them, in `container`.
 * Its `onEvent` takes the account's events: the page moves to the game
 * when it starts, and says so when the challenge is declined.
 */
export function challengeForm(container, name, variants) {
  container.innerHTML = formHtml();
  const form = container.querySelector('form');
  const status = form.querySelector('.challenge-status');
  const cancelButton = form.querySelector('.cancel-challenge');
  const error = form.querySelector('.error');
  let pending = null;
  const show = (text, waiting) => {
    status.querySelector('span').textContent = text;
    status.hidden = false;
    cancelButton.hidden = !waiting;
    form.querySelector('button[type=submit]').disabled = waiting;
  };
  fillVariants(form, variants, (v) => (v.id === 'chess' ? 'standard' : v.id));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const terms = readTerms(form);
    // Lichess's field names.
    const fields = { variant: terms.variant, rated: terms.rated, color: terms.color };
    if (terms.clock) {
      fields['clock.limit'] = terms.clock.initial;
      fields['clock.increment'] = terms.clock.increment;
    } else {
      fields.days = terms.days;
    }
    error.hidden = true;
    try {
      pending = (await challenges.send(name, fields)).id;
      show(t('lobby-challenge-waiting', { name }), true);
    } catch (err) {
      setMessage(error, err.message);
      error.hidden = false;
    }
  });
  cancelButton.addEventListener('click', async () => {
    if (!pending) return;
    try {
      await challenges.cancel(pending);
      pending = null;
      show(t('lobby-challenge-canceled'), false);
    } catch (err) {
      setMessage(error, err.message);
      error.hidden = false;
    }
  });
  function onEvent(event) {
    const id = event.challenge?.id ?? event.game?.gameId ?? event.game?.id;
    if (!pending || id !== pending) return;
    if (event.type === 'gameStart') location.assign(`/game/${id}`);
    if (event.type === 'challengeDeclined') {
      pending = null;
      const reason = event.challenge.declineReason ?? t('lobby-challenge-no-reason');
      show(t('lobby-challenge-declined', { name, reason }), false);
    }
    if (event.type === 'challengeCanceled') {
      pending = null;
      show(t('lobby-challenge-canceled'), false);
    }
  }
  return { onEvent };
}
