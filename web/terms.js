// A game's terms as the seek form and the challenge form ask for them:
// variant, live clock or days per move, the asker's colour, rated.

import { escapeHtml } from './html.js';
import { t } from './i18n.js';

/** The fields, inside a form of one's own; `colorLabel` names the colour's select. */
export function termsFields(colorLabel) {
  return `
    <label>${t('lobby-variant')} <select name="variant"></select></label>
    <label><input type="radio" name="timing" value="live" checked> ${t('lobby-minutes')}
      <input type="number" name="minutes" min="0" max="180" step="any" value="5"></label>
    <label>${t('lobby-terms-increment')} <input type="number" name="increment" min="0" max="180" value="3"></label>
    <label><input type="radio" name="timing" value="days"> ${t('lobby-terms-days')}
      <input type="number" name="days" min="1" max="14" value="3"></label>
    <label>${escapeHtml(colorLabel)} <select name="color">${['random', 'white', 'black'].map((color) => `<option value="${color}">${t('lobby-color', { color })}</option>`).join('')}</select></label>
    <label><input type="checkbox" name="rated" checked> ${t('lobby-rated')}</label>`;
}

/** Fills the variant select with `variants` (`{id, name}`), values made by `key`. */
export function fillVariants(form, variants, key = (v) => v.id) {
  form.elements.variant.innerHTML = variants
    .map((v) => `<option value="${escapeHtml(key(v))}">${escapeHtml(v.name)}</option>`)
    .join('');
}

/** The terms the form holds: `{variant, clock: {initial, increment} | null, days | null, rated, color}`. */
export function readTerms(form) {
  const f = form.elements;
  const live = f.timing.value === 'live';
  return {
    variant: f.variant.value,
    clock: live ? { initial: Math.round(Number(f.minutes.value) * 60), increment: Number(f.increment.value) } : null,
    days: live ? null : Number(f.days.value),
    rated: f.rated.checked,
    color: f.color.value,
  };
}
