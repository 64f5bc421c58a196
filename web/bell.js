// The header's bell: an account's notifications (its turn in a
// correspondence game, a challenge), the unread ones counted. Opening the
// list marks them read. Read again every 20 s and when the page is shown.

import { api } from './api.js';
import { escapeHtml } from './html.js';
import { t } from './i18n.js';

const POLL_MS = 20000;
const BELL_SVG = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
  <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1z"/></svg>`;

function ago(ms) {
  const minutes = Math.round((Date.now() - ms) / 60000);
  if (minutes < 1) return t('account-bell-just-now');
  if (minutes < 60) return t('account-bell-minutes-ago', { count: minutes });
  const hours = Math.round(minutes / 60);
  return hours < 48 ? t('account-bell-hours-ago', { count: hours }) : t('account-bell-days-ago', { count: Math.round(hours / 24) });
}

/** Shows `me`'s bell in `box` (hidden for a guest); returns a function that stops it. */
export function followBell(box, me) {
  if (!box || !me) return () => {};
  box.hidden = false;
  box.innerHTML = `<button type="button" class="bell-button" aria-expanded="false">${BELL_SVG}
      <span class="bell-count" hidden></span></button>
    <div class="bell-list" hidden></div>`;
  const button = box.querySelector('.bell-button');
  const count = box.querySelector('.bell-count');
  const list = box.querySelector('.bell-list');
  let last = null;

  function draw(answer) {
    last = answer;
    const unread = answer.unread ?? 0;
    count.hidden = unread === 0;
    count.textContent = String(unread);
    button.setAttribute('aria-label', unread ? t('account-bell-unread', { count: unread }) : t('account-bell-label'));
    const items = answer.notifications ?? [];
    list.innerHTML = items.length
      ? `<ul>${items.map((n) => `<li class="${n.seen ? 'seen' : 'unseen'}" data-kind="${escapeHtml(n.kind)}">
          <a href="${escapeHtml(n.url)}">${escapeHtml(n.text)}</a> <span class="when">${ago(n.at_ms)}</span></li>`).join('')}</ul>`
      : `<p>${t('account-bell-empty')}</p>`;
  }

  async function read() {
    try {
      draw(await api.notifications());
    } catch {
      // Logged out or offline: the bell keeps what it showed.
    }
  }

  button.addEventListener('click', async () => {
    const open = list.hidden;
    list.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open && last?.unread) {
      await api.readNotifications().catch(() => {});
      await read();
    }
  });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !list.hidden) {
      list.hidden = true;
      button.setAttribute('aria-expanded', 'false');
      button.focus();
    }
  });
  const onVisible = () => {
    if (document.visibilityState === 'visible') read();
  };
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(read, POLL_MS);
  read();
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
