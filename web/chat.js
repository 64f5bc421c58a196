// A game's chat on its page: the new lines, read whenever the game's
// WebSocket says a line was written (and every 15 s, for a socket on
// another node of a cluster or a page that polls), and a field to write.
// Players write in the players' room, others as spectators.

import { api } from './api.js';
import { escapeHtml } from './html.js';
import { t } from './i18n.js';

const POLL_MS = 15000;

const template = () => `
  <h2>${escapeHtml(t('game-chat'))}</h2>
  <ol class="chat-lines" aria-live="polite"></ol>
  <form class="chat-say">
    <input name="text" maxlength="140" autocomplete="off" aria-label="${escapeHtml(t('game-chat-label'))}"
           placeholder="${escapeHtml(t('game-chat-placeholder'))}">
    <button type="submit">${escapeHtml(t('game-chat-send'))}</button>
  </form>
  <div class="chat-error" role="alert" hidden></div>`;

/**
 * Fills `box` with the chat of game `id`; `seat()` is this page's colour
 * or null. Returns `{heard, stop}`: `heard()` on a `chatLine` of the
 * feed, `stop()` ends the polling.
 */
export function showChat(box, id, seat) {
  box.innerHTML = template();
  const list = box.querySelector('.chat-lines');
  const form = box.querySelector('form');
  const error = box.querySelector('.chat-error');
  let read = 0; // the number of the last line shown
  async function refresh() {
    try {
      // Two reads may cross (a socket's word and a poll): keep what is new.
      const lines = (await api.chat(id, read)).filter((l) => l.n > read);
      if (lines.length === 0) return;
      read = lines[lines.length - 1].n;
      list.insertAdjacentHTML('beforeend', lines
        .map((l) => `<li class="chat-line" data-room="${escapeHtml(l.room)}"><b>${escapeHtml(l.user)}</b> ${escapeHtml(l.text)}</li>`)
        .join(''));
      list.scrollTop = list.scrollHeight;
    } catch {
      // The next poll tries again.
    }
  }
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = form.elements.text.value.trim();
    if (!text) return;
    try {
      await api.say(id, seat() ? 'player' : 'spectator', text);
      form.elements.text.value = '';
      error.hidden = true;
      await refresh();
    } catch (err) {
      error.textContent = err.status === 401 ? t('game-chat-login') : err.message;
      error.hidden = false;
    }
  });
  refresh();
  const timer = setInterval(refresh, POLL_MS);
  return { heard: refresh, stop: () => clearInterval(timer) };
}
