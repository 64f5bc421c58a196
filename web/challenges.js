// Direct challenges between accounts, through lichess's challenge API
// (`/api/challenge/...`, the log-in cookie authenticates): the lobby's
// list of the challenges one has received (accept, decline) and sent
// (cancel), and the form on another player's profile that sends one and
// waits for the answer. The account's event stream says when a
// challenge arrives, is declined or canceled; the game's start moves
// both pages to it.

import { request } from './api.js';
import { escapeHtml, setMessage } from './html.js';
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
    ? `${tc.daysPerTurn} day${tc.daysPerTurn === 1 ? '' : 's'}` : '∞';
  // Lichess calls chess `standard`; the page calls it Chess.
  const variant = c.variant?.key === 'standard' ? 'Chess' : c.variant?.name ?? c.variant?.key;
  return `${variant} ${time} · ${c.rated ? 'rated' : 'casual'} · ${c.color}`;
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
        <td>from ${who(c.challenger)}</td><td>${escapeHtml(termsText(c))}</td>
        <td><button type="button" data-challenge-action="accept">Accept</button>
          <button type="button" data-challenge-action="decline">Decline</button></td></tr>`),
      ...listed.out.map((c) => `<tr data-challenge="${escapeHtml(c.id)}" data-direction="out">
        <td>to ${who(c.destUser)}</td><td>${escapeHtml(termsText(c))}</td>
        <td><button type="button" data-challenge-action="cancel">Cancel</button></td></tr>`),
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

const FORM = `
  <form class="challenge-form">
    <h2>Challenge to a game</h2>
    ${termsFields('Your colour')}
    <button type="submit">Challenge</button>
    <p class="challenge-status" role="status" hidden><span></span>
      <button type="button" class="cancel-challenge" hidden>Cancel</button></p>
    <div class="error" role="alert" hidden></div>
  </form>`;

/**
 * The form on `name`'s profile that challenges them, in `container`.
 * Its `onEvent` takes the account's events: the page moves to the game
 * when it starts, and says so when the challenge is declined.
 */
export function challengeForm(container, name, variants) {
  container.innerHTML = FORM;
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
      show(`Waiting for ${name} to accept…`, true);
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
      show('Challenge canceled.', false);
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
      show(`${name} declined: ${event.challenge.declineReason ?? 'no reason given'}`, false);
    }
    if (event.type === 'challengeCanceled') {
      pending = null;
      show('Challenge canceled.', false);
    }
  }
  return { onEvent };
}
