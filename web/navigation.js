// Moving through a line of positions, on the game page and the analysis
// board alike: the first/previous/next/last buttons, a click on a move of
// the list (`[data-ply]`), the arrow keys, Home and End; and the FEN of the
// position shown, with a button that copies it.

import { escapeHtml } from './html.js';
import { t } from './i18n.js';

const navButton = (nav, label, title, text) => `<button type="button" data-nav="${nav}" title="${escapeHtml(title)}" aria-label="${escapeHtml(label)}">${text}</button>`;

/** The first/previous/next/last buttons, in the language of the settings. */
export const navHtml = () => `
    <div class="nav" role="group" aria-label="${escapeHtml(t('lobby-nav-group'))}">
      ${navButton('first', t('lobby-nav-first'), t('lobby-nav-first-title'), '«')}
      ${navButton('prev', t('lobby-nav-prev'), t('lobby-nav-prev-title'), '‹')}
      ${navButton('next', t('lobby-nav-next'), t('lobby-nav-next-title'), '›')}
      ${navButton('last', t('lobby-nav-last'), t('lobby-nav-last-title'), '»')}
    </div>`;

/** The FEN of the position shown, its copy button and the analysis link. */
export const fenHtml = () => `
    <div class="fen-box">
      <label>FEN <input class="fen" readonly spellcheck="false"></label>
      <button type="button" data-copy="fen">${t('lobby-nav-copy')}</button>
      <a class="analyse" href="/analysis">${t('lobby-nav-analyse')}</a>
    </div>`;

// The same as markup put in a template (`${NAV_HTML}`): made when the
// template is, so in the language then in force.
export const NAV_HTML = { toString: navHtml };
export const FEN_HTML = { toString: fenHtml };

const KEYS = { ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'first', ArrowDown: 'last', Home: 'first', End: 'last' };

/** Copies an input's text to the clipboard (selecting it where the clipboard API is refused). */
export async function copyField(field) {
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand?.('copy');
  }
}

/**
 * Wires the navigation inside `root`. `line`: ply() (the position shown,
 * in moves or turns played), count() (moves or turns in the line) and
 * goTo(ply). Returns a function that unhooks the keys.
 */
export function bindNavigation(root, line) {
  const target = {
    first: () => 0,
    prev: () => line.ply() - 1,
    next: () => line.ply() + 1,
    last: () => line.count(),
  };
  const go = (action) => line.goTo(Math.max(0, Math.min(line.count(), target[action]())));
  root.querySelector('.nav').addEventListener('click', (e) => {
    const button = e.target.closest('button[data-nav]');
    if (button) go(button.dataset.nav);
  });
  root.querySelector('.moves').addEventListener('click', (e) => {
    const move = e.target.closest('[data-ply]');
    if (move) line.goTo(Number(move.dataset.ply));
  });
  root.querySelector('.fen-box').addEventListener('click', (e) => {
    if (e.target.closest('[data-copy]')) copyField(root.querySelector('.fen'));
  });
  const onKey = (e) => {
    const typing = e.target.closest?.('input, textarea, select, .chooser, svg.board');
    if (typing || e.altKey || e.ctrlKey || e.metaKey || !KEYS[e.key]) return;
    e.preventDefault();
    go(KEYS[e.key]);
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
