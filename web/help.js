// Help on the game page: the variant's rules in a disclosure (fetched from
// the server when first opened), and, in the first simultaneous game this
// browser plays, two sentences on how a turn works until they are dismissed.

import { api } from './api.js';
import { isSimultaneous } from './gamestate.js';

/** localStorage key set once the turn explanation is dismissed. */
export const TURN_HELP_SEEN = 'parity_turn_help_seen';

/** Fills the rules panel and shows the turn explanation where due; idempotent. */
export function drawHelp(root, s) {
  const rules = root.querySelector('details.rules');
  if (rules && rules.dataset.variant !== s.variant.id) {
    rules.dataset.variant = s.variant.id;
    rules.querySelector('.rules-variant').textContent = s.variant.name;
    rules.querySelector('.rules-text').innerHTML = '';
    if (!rules.dataset.wired) {
      rules.dataset.wired = 'yes';
      rules.addEventListener('toggle', () => loadRules(rules));
    }
  }
  const help = root.querySelector('.turn-help');
  if (help) {
    let seen = true;
    try {
      seen = localStorage.getItem(TURN_HELP_SEEN) !== null;
    } catch {
      // No storage (private mode): say nothing rather than say it every time.
    }
    help.hidden = seen || !(isSimultaneous(s) && s.you && s.status !== 'finished');
    if (!help.dataset.wired) {
      help.dataset.wired = 'yes';
      help.querySelector('button').addEventListener('click', () => {
        try {
          localStorage.setItem(TURN_HELP_SEEN, '1');
        } catch {
          // Hidden for this page at least.
        }
        help.hidden = true;
      });
    }
  }
}

async function loadRules(rules) {
  const text = rules.querySelector('.rules-text');
  if (!rules.open || text.dataset.loaded === rules.dataset.variant) return;
  text.dataset.loaded = rules.dataset.variant;
  text.textContent = 'loading…';
  try {
    // The server renders docs/rules and escapes any markup in it.
    text.innerHTML = await api.rules(rules.dataset.variant);
  } catch (e) {
    delete text.dataset.loaded;
    text.textContent = `the rules could not be loaded: ${e.message}`;
  }
}
