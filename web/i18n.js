// The page's words, from one catalogue: `web/locales/LANG/*.ftl` (Fluent),
// read by the server and served as `/api/i18n/LANG`, each message as its
// text or as parts: text, `{var}` and `{select, variants, default}`
// (plurals by the language's own rules). `t(id, {name: value})` gives a
// message in the language of the settings, or of the browser ("auto").

import { escapeHtml } from './html.js';

/** The languages the catalogue has, the first the fallback. */
export const LANGUAGES = ['en', 'fr'];

let lang = 'en';
let messages = {};

/** The language in force. */
export const language = () => lang;

/** The catalogue's language for a setting (`auto`: the browser's first known). */
export function resolveLanguage(choice) {
  if (LANGUAGES.includes(choice)) return choice;
  for (const wanted of navigator.languages ?? [navigator.language ?? 'en']) {
    const base = String(wanted).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return LANGUAGES[0];
}

/** Loads the messages of the language for `choice`, and retranslates the page's fixed words. */
export async function useLanguage(choice) {
  const wanted = resolveLanguage(choice);
  try {
    const response = await fetch(`/api/i18n/${wanted}`);
    if (!response.ok) throw new Error(`${response.status}`);
    messages = (await response.json()).messages;
    lang = wanted;
  } catch {
    // Offline: the ids stand in, and the next load tries again.
  }
  document.documentElement.lang = lang;
  translateMarked(document);
  return lang;
}

/** Message `id` with `args`; the id itself when the catalogue lacks it. */
export function t(id, args = {}) {
  const pattern = messages[id];
  if (pattern === undefined) return id;
  return format(pattern, args);
}

/** Message `id` if the catalogue has it, else `fallback` (words that come with the data). */
export function tOr(id, fallback, args = {}) {
  return messages[id] === undefined ? fallback : t(id, args);
}

/**
 * Message `id` as markup: its text escaped, and the variables named in
 * `html` put in as the markup given (a link, a bold name).
 */
export function tMarkup(id, html, args = {}) {
  const names = Object.keys(html);
  const marks = Object.fromEntries(names.map((name, i) => [name, `\u0000${i}\u0000`]));
  return t(id, { ...args, ...marks })
    .split(/\u0000(\d+)\u0000/)
    .map((part, i) => (i % 2 ? html[names[Number(part)]] : escapeHtml(part)))
    .join('');
}

/** A variant's description: the catalogue's for a built-in one, else its own. */
export function variantDescription(variant) {
  return tOr(`variant-${variant.id}-description`, variant.description ?? '');
}

function format(pattern, args) {
  if (typeof pattern === 'string') return pattern;
  return pattern.map((part) => {
    if (typeof part === 'string') return part;
    if ('var' in part) return args[part.var] === undefined ? `{$${part.var}}` : String(args[part.var]);
    return format(choose(part, args[part.select]), args);
  }).join('');
}

function choose(select, value) {
  const variants = select.variants;
  if (value !== undefined && Object.hasOwn(variants, String(value))) return variants[String(value)];
  if (typeof value === 'number') {
    const category = new Intl.PluralRules(lang).select(value);
    if (Object.hasOwn(variants, category)) return variants[category];
  }
  return variants[select.default];
}

/** Elements marked `data-i18n="id"` (text) or `data-i18n-label="id"` (aria-label). */
export function translateMarked(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}
