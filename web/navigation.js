// Moving through a line of positions, on the game page and the analysis
// board alike: the first/previous/next/last buttons, a click on a move of
// the list (`[data-ply]`), the arrow keys, Home and End; and the FEN of the
// position shown, with a button that copies it.

export const NAV_HTML = `
    <div class="nav" role="group" aria-label="move navigation">
      <button type="button" data-nav="first" title="first position (Home, ↑)" aria-label="first position">«</button>
      <button type="button" data-nav="prev" title="previous position (←)" aria-label="previous position">‹</button>
      <button type="button" data-nav="next" title="next position (→)" aria-label="next position">›</button>
      <button type="button" data-nav="last" title="last position (End, ↓)" aria-label="last position">»</button>
    </div>`;

export const FEN_HTML = `
    <div class="fen-box">
      <label>FEN <input class="fen" readonly spellcheck="false"></label>
      <button type="button" data-copy="fen">Copy</button>
      <a class="analyse" href="/analysis">analyse</a>
    </div>`;

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
