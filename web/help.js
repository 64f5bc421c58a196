// Help on the game page: the variant's rules for players in a disclosure
// (fetched from the server when first opened) with the legend of its
// pieces beyond chess's (`legend.js`), and, in the first simultaneous game this
// browser plays (only there), two sentences on how a turn works until they
// are dismissed.

import { api } from './api.js';
import { isSimultaneous } from './gamestate.js';
import { setMessage } from './html.js';
import { legendHtml } from './legend.js';

/** localStorage key: the first simultaneous game's id, or `dismissed`. */
export const TURN_HELP_SEEN = 'parity_turn_help_seen';

/** Fills the rules panel and shows the turn explanation where due; idempotent. */
export function drawHelp(root, s) {
  const rules = root.querySelector('details.rules');
  if (rules && rules.dataset.variant !== s.variant.id) {
    rules.dataset.variant = s.variant.id;
    rules.variantInfo = s.variant;
    rules.querySelector('.rules-variant').textContent = s.variant.name;
    rules.querySelector('.rules-text').innerHTML = '';
    if (!rules.dataset.wired) {
      rules.dataset.wired = 'yes';
      rules.addEventListener('toggle', () => loadRules(rules));
    }
  }
  const help = root.querySelector('.turn-help');
  if (help) {
    const due = isSimultaneous(s) && s.you && s.status !== 'finished';
    help.hidden = !(due && isFirstSimultaneousGame(s.id));
    if (!help.dataset.wired) {
      help.dataset.wired = 'yes';
      help.querySelector('button').addEventListener('click', () => {
        remember(DISMISSED);
        help.hidden = true;
      });
    }
  }
}

const DISMISSED = 'dismissed';

// The key holds the first simultaneous game's id (the explanation shows
// there, reloads included), or DISMISSED.
function isFirstSimultaneousGame(id) {
  let first;
  try {
    first = localStorage.getItem(TURN_HELP_SEEN);
  } catch {
    return false; // no storage (private mode): say nothing rather than say it every time
  }
  if (first === null) {
    remember(id);
    return true;
  }
  return first === id;
}

function remember(value) {
  try {
    localStorage.setItem(TURN_HELP_SEEN, value);
  } catch {
    // Hidden for this page at least.
  }
}

async function loadRules(rules) {
  const text = rules.querySelector('.rules-text');
  if (!rules.open || text.dataset.loaded === rules.dataset.variant) return;
  text.dataset.loaded = rules.dataset.variant;
  text.textContent = 'loading…';
  try {
    // The server renders docs/rules and escapes any markup in it.
    text.innerHTML = await api.rules(rules.dataset.variant) + legendHtml(rules.variantInfo ?? {});
  } catch (e) {
    delete text.dataset.loaded;
    setMessage(text, `the rules could not be loaded: ${e.message}`);
  }
}
