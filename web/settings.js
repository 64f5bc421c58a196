// The player's settings: board colours, piece set, sounds, animation,
// premoves, confirming a simultaneous commit, language. An account keeps
// them on the server (`/api/account/preferences`); a guest in this browser.
// The browser's copy is also what the page applies before the server
// answers, so a reload never flashes the defaults.

import { api } from './api.js';
import { escapeHtml, setMessage } from './html.js';
import { pieceIcon } from './pieces.js';
import { t, useLanguage } from './i18n.js';

const KEY = 'parity-settings';
/** The defaults, the server's too (`crates/server/src/accounts/preferences.rs`). */
export const DEFAULTS = {
  theme: 'brown', pieceSet: 'parity', sound: true, animation: true, premove: true, confirmCommit: false, language: 'auto',
  email: '', notifyEmail: false,
};
// The choices' words, in the language in force when the page is drawn.
const themes = () => ({
  brown: t('settings-theme-brown'), blue: t('settings-theme-blue'), green: t('settings-theme-green'), grey: t('settings-theme-grey'),
});
const pieceSets = () => ({ parity: t('settings-pieces-parity'), letters: t('settings-pieces-letters') });
/** Each language is named in itself. */
const languages = () => ({ auto: t('settings-language-auto'), en: 'English', fr: 'Français' });

function stored() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    // The mute button's old key, before settings existed.
    if (localStorage.getItem('parity_muted') === '1' && saved.sound === undefined) saved.sound = false;
    return { ...DEFAULTS, ...saved };
  } catch {
    return { ...DEFAULTS };
  }
}

let current = stored();
let account = null;

/** The settings in force. */
export const settings = () => current;

/** Applies the settings that are styles: board colours and piece set. */
function apply() {
  document.documentElement.dataset.theme = current.theme;
  document.documentElement.dataset.pieces = current.pieceSet;
}
apply();

/** Reads an account's settings from the server (keeping them in this browser). */
export async function loadSettings(me) {
  account = me;
  if (!me) return current;
  try {
    const answer = await api.preferences();
    current = { ...DEFAULTS, ...answer.prefs };
    localStorage.setItem(KEY, JSON.stringify(current));
    apply();
  } catch {
    // Offline or logged out meanwhile: this browser's copy stays.
  }
  return current;
}

/** Changes some settings; an account's are saved on the server too. */
export async function changeSettings(change) {
  current = { ...current, ...change };
  localStorage.setItem(KEY, JSON.stringify(current));
  apply();
  if (account) {
    const answer = await api.setPreferences(change);
    current = { ...DEFAULTS, ...answer.prefs };
    localStorage.setItem(KEY, JSON.stringify(current));
  }
  return current;
}

function choices(name, options, value) {
  return Object.entries(options)
    .map(([key, label]) => `<label><input type="radio" name="${name}" value="${key}"${key === value ? ' checked' : ''}> ${escapeHtml(label)}</label>`)
    .join('');
}

function check(name, label, value, help = '') {
  return `<label class="check"><input type="checkbox" name="${name}"${value ? ' checked' : ''}> ${escapeHtml(label)}</label>${help ? `<p class="help">${escapeHtml(help)}</p>` : ''}`;
}

/** A small board of four squares with pieces, in the chosen colours and set. */
function preview() {
  const pieces = [['white', 'king', 'K'], ['black', 'queen', 'Q'], ['white', 'knight', 'N'], ['black', 'pawn', 'P']];
  return pieces
    .map(([color, name, letter], i) => `<span class="preview-square ${i % 2 ? 'dark' : 'light'}">${pieceIcon(color, name, letter, 44)}</span>`)
    .join('');
}

/** The settings page (`/settings`). */
export function showSettings(root, me) {
  const s = current;
  root.innerHTML = `
<section class="settings">
  <h1>${escapeHtml(t('settings-heading'))}</h1>
  <p class="where">${escapeHtml(me ? t('settings-where-account', { name: me.username }) : t('settings-where-browser'))}</p>
  <form>
    <fieldset><legend>${escapeHtml(t('settings-board-colours'))}</legend>${choices('theme', themes(), s.theme)}</fieldset>
    <fieldset><legend>${escapeHtml(t('settings-pieces'))}</legend>${choices('pieceSet', pieceSets(), s.pieceSet)}</fieldset>
    <div class="preview" aria-hidden="true">${preview()}</div>
    <fieldset><legend>${escapeHtml(t('settings-play'))}</legend>
      ${check('sound', t('settings-sound'), s.sound)}
      ${check('animation', t('settings-animation'), s.animation, t('settings-animation-help'))}
      ${check('premove', t('settings-premove'), s.premove, t('settings-premove-help'))}
      ${check('confirmCommit', t('settings-confirm-commit'), s.confirmCommit, t('settings-confirm-commit-help'))}
    </fieldset>
    <fieldset><legend>${escapeHtml(t('settings-language'))}</legend>${choices('language', languages(), s.language)}</fieldset>
    ${me ? `<fieldset class="notify"><legend>${escapeHtml(t('settings-notifications'))}</legend>
      <p class="help">${escapeHtml(t('settings-notifications-help'))}</p>
      <label>${escapeHtml(t('settings-email'))} <input type="email" name="email" autocomplete="email" value="${escapeHtml(s.email ?? '')}"></label>
      ${check('notifyEmail', t('settings-notify-email'), s.notifyEmail)}
      <p class="mail-off help" hidden>${escapeHtml(t('settings-mail-off'))}</p>
      <label class="check"><input type="checkbox" name="push"> ${escapeHtml(t('settings-push'))}</label>
      <p class="push-help help"></p>
    </fieldset>` : ''}
  </form>
  <p class="saved" aria-live="polite"></p>
  <div class="error" role="alert" hidden></div>
</section>`;
  const form = root.querySelector('form');
  const saved = root.querySelector('.saved');
  const error = root.querySelector('.error');
  if (me) {
    api.notifications().then((n) => {
      root.querySelector('.mail-off').hidden = n.mail !== false;
    }, () => {});
  }
  // Each change is saved as it is made: Enter in the address submits nothing.
  form.addEventListener('submit', (e) => e.preventDefault());
  const push = root.querySelector('input[name="push"]');
  if (push) {
    browserSubscription().then((s) => { push.checked = Boolean(s); }, () => {});
    if (!('serviceWorker' in navigator) || !('PushManager' in window)) {
      push.disabled = true;
      root.querySelector('.push-help').textContent = t('settings-push-unsupported');
    }
  }
  form.addEventListener('change', async (e) => {
    const input = e.target;
    if (input.name === 'push') {
      error.hidden = true;
      try {
        await (input.checked ? subscribeBrowser() : unsubscribeBrowser());
        saved.textContent = input.checked ? t('settings-push-on') : t('settings-push-off');
      } catch (err) {
        input.checked = false;
        setMessage(error, err.message);
        error.hidden = false;
      }
      return;
    }
    const value = input.type === 'checkbox' ? input.checked : input.value;
    error.hidden = true;
    try {
      await changeSettings({ [input.name]: value });
      if (input.name === 'language') {
        // The page in the new language at once: the header's words
        // (useLanguage) and this page, drawn again.
        await useLanguage(current.language);
        showSettings(root, me);
        root.querySelector('.saved').textContent = t('settings-saved');
        root.querySelector(`input[name="language"][value="${value}"]`)?.focus();
        return;
      }
      root.querySelector('.preview').innerHTML = preview();
      saved.textContent = t('settings-saved');
    } catch (err) {
      setMessage(error, err.message);
      error.hidden = false;
    }
  });
}

// ---- Web Push: this browser's subscription (the service worker is sw.js) ----

async function browserSubscription() {
  if (!('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function subscribeBrowser() {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) {
    throw new Error(t('settings-push-unsupported-error'));
  }
  if ((await Notification.requestPermission()) !== 'granted') {
    throw new Error(t('settings-push-blocked'));
  }
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const { publicKey } = await api.pushKey();
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: keyBytes(publicKey),
  });
  await api.subscribePush(subscription.toJSON());
}

async function unsubscribeBrowser() {
  const subscription = await browserSubscription();
  if (!subscription) return;
  await api.unsubscribePush(subscription.endpoint).catch(() => {});
  await subscription.unsubscribe();
}
