// The player's settings: board colours, piece set, sounds, animation,
// premoves, confirming a simultaneous commit, language. An account keeps
// them on the server (`/api/account/preferences`); a guest in this browser.
// The browser's copy is also what the page applies before the server
// answers, so a reload never flashes the defaults.

import { api } from './api.js';
import { escapeHtml, setMessage } from './html.js';
import { pieceIcon } from './pieces.js';

const KEY = 'parity-settings';
/** The defaults, the server's too (`crates/server/src/accounts/preferences.rs`). */
export const DEFAULTS = {
  theme: 'brown', pieceSet: 'parity', sound: true, animation: true, premove: true, confirmCommit: false, language: 'auto',
  email: '', notifyEmail: false,
};
const THEMES = { brown: 'Brown', blue: 'Blue', green: 'Green', grey: 'Grey' };
const PIECE_SETS = { parity: 'Parity (drawn)', letters: 'Letters' };
const LANGUAGES = { auto: "The browser's", en: 'English', fr: 'Français' };

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
  <h1>Settings</h1>
  <p class="where">${me ? `Saved with your account, ${escapeHtml(me.username)}.` : 'Saved in this browser (log in to keep them with an account).'}</p>
  <form>
    <fieldset><legend>Board colours</legend>${choices('theme', THEMES, s.theme)}</fieldset>
    <fieldset><legend>Pieces</legend>${choices('pieceSet', PIECE_SETS, s.pieceSet)}</fieldset>
    <div class="preview" aria-hidden="true">${preview()}</div>
    <fieldset><legend>Play</legend>
      ${check('sound', 'Sounds', s.sound)}
      ${check('animation', 'Animate moves', s.animation, 'Never when the system asks for reduced motion.')}
      ${check('premove', 'Premoves', s.premove, 'Pick your next move while the opponent thinks (turn-based games).')}
      ${check('confirmCommit', 'Confirm simultaneous moves', s.confirmCommit, 'Ask before your move of a simultaneous turn is committed.')}
    </fieldset>
    <fieldset><legend>Language</legend>${choices('language', LANGUAGES, s.language)}</fieldset>
    ${me ? `<fieldset class="notify"><legend>Notifications</legend>
      <p class="help">The bell in the header tells you when it is your turn in a correspondence game or someone challenges you.</p>
      <label>E-mail address <input type="email" name="email" autocomplete="email" value="${escapeHtml(s.email ?? '')}"></label>
      ${check('notifyEmail', 'Also tell me by e-mail (several at once come in one mail)', s.notifyEmail)}
      <p class="mail-off help" hidden>This server sends no mail.</p>
      <label class="check"><input type="checkbox" name="push"> Notifications in this browser, even when the page is closed</label>
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
      root.querySelector('.push-help').textContent = 'This browser cannot receive pushed notifications.';
    }
  }
  form.addEventListener('change', async (e) => {
    const input = e.target;
    if (input.name === 'push') {
      error.hidden = true;
      try {
        await (input.checked ? subscribeBrowser() : unsubscribeBrowser());
        saved.textContent = input.checked ? 'This browser will be notified.' : 'This browser will not be notified.';
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
      root.querySelector('.preview').innerHTML = preview();
      saved.textContent = 'Saved.';
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
    throw new Error('this browser cannot receive pushed notifications');
  }
  if ((await Notification.requestPermission()) !== 'granted') {
    throw new Error('notifications are blocked for this site in the browser');
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
