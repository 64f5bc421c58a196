// The header's account control: the logged-in name (a link to its profile)
// and "Log out"; or "Log in" and "Sign up", which open one small form.

import { api } from './api.js';
import { escapeHtml, setMessage } from './html.js';
import { t } from './i18n.js';

// Drawn when the control is, in the language of the settings.
const formHtml = () => `
  <form class="login-form" hidden>
    <label>${t('account-name')} <input name="username" autocomplete="username" required minlength="2"></label>
    <label>${t('account-password')} <input name="password" type="password" autocomplete="current-password" required></label>
    <button type="submit"></button>
    <button type="button" class="cancel">${t('account-cancel')}</button>
    <div class="error" role="alert" hidden></div>
  </form>`;

/** Draws the control into `box` for `me` (the account or null). */
function draw(box, me) {
  if (me) {
    box.innerHTML = `<a class="me" href="/@/${encodeURIComponent(me.username)}">${escapeHtml(me.username)}</a>
      <button type="button" class="logout">${t('account-log-out')}</button>`;
    box.querySelector('.logout').addEventListener('click', async () => {
      await api.logout();
      location.reload();
    });
    return;
  }
  box.innerHTML = `<button type="button" data-mode="login">${t('account-log-in')}</button>
    <button type="button" data-mode="signup">${t('account-sign-up')}</button>${formHtml()}`;
  const form = box.querySelector('form');
  const error = form.querySelector('.error');
  const submit = form.querySelector('button[type=submit]');
  for (const button of box.querySelectorAll('[data-mode]')) {
    button.addEventListener('click', () => {
      form.dataset.mode = button.dataset.mode;
      const signup = button.dataset.mode === 'signup';
      submit.textContent = signup ? t('account-sign-up') : t('account-log-in');
      form.elements.password.autocomplete = signup ? 'new-password' : 'current-password';
      form.elements.password.minLength = signup ? 8 : 0;
      error.hidden = true;
      form.hidden = false;
      form.elements.username.focus();
    });
  }
  form.querySelector('.cancel').addEventListener('click', () => { form.hidden = true; });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const { username, password } = form.elements;
    try {
      const call = form.dataset.mode === 'signup' ? api.signup : api.login;
      await call(username.value.trim(), password.value);
      location.reload();
    } catch (err) {
      setMessage(error, err.message);
      error.hidden = false;
    }
  });
}

/** Fills the header's account box; resolves to the account or null. */
export async function showAccount(box) {
  let me = null;
  try {
    me = await api.me();
  } catch {
    // The server is unreachable: the page reports it elsewhere.
  }
  draw(box, me);
  return me;
}
