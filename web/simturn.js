// This seat's side of a simultaneous turn: the move it has committed to,
// when the commitment is sent and when the move is revealed, and what the
// page says meanwhile. The hash and the storage that survives a reload are
// in commit.js; the protocol is in docs/server.md.

import { api } from './api.js';
import { makeCommitment, loadPending, savePending } from './commit.js';
import { isSimultaneous, other } from './gamestate.js';

/**
 * The commit-reveal state of game `id`. `page`: state() (the game as
 * shown), act(action, body) (a seat action; null when it failed, its error
 * shown), update() (redraws the page) and showError(error).
 */
export function simultaneousTurn(id, page) {
  let revealing = false; // a reveal request is under way
  const me = () => page.state().you;

  /** This seat's commitment for the current turn, or null. */
  function pending() {
    const s = page.state();
    return isSimultaneous(s) && me() ? loadPending(id, me(), s.turn) : null;
  }

  // This seat counts as committed from the server's ack, before the event.
  const hasCommitted = (color) => Boolean(page.state().committed?.[color] || (color === me() && pending()?.sent));

  /** Commits this seat to `uci` for the current turn. */
  async function commit(uci) {
    const side = me();
    const turn = page.state().turn;
    const commitment = await makeCommitment(id, turn, side, uci);
    savePending(id, side, commitment);
    page.update();
    if (await page.act('commit', { commitment: commitment.commitment })) {
      // Accepted: no second pick this turn, even before the `committed` event.
      savePending(id, side, { ...commitment, sent: true });
      page.update();
      maybeReveal();
    }
  }

  // Both commitments in: reveal ours (once; a reload finds it in storage).
  async function maybeReveal() {
    const s = page.state();
    const mine = pending();
    if (!mine || mine.revealed || s.revealed?.[me()] || revealing || s.status !== 'started') return;
    if (!(s.committed?.white && s.committed?.black)) return;
    revealing = true;
    try {
      await api.act(id, 'reveal', { move: mine.move, nonce: mine.nonce });
      savePending(id, me(), { ...mine, revealed: true });
    } catch (e) {
      // 409 after a reload that had already revealed: nothing left to do.
      if (e.status === 409) savePending(id, me(), { ...mine, revealed: true });
      else page.showError(e);
    } finally {
      revealing = false;
      page.update();
    }
  }

  /** What a player's line says about `color` during a turn: empty outside one. */
  function commitState(color) {
    const s = page.state();
    if (!(isSimultaneous(s) && s.status === 'started')) return '';
    return hasCommitted(color) ? 'committed' : 'choosing…';
  }

  /** The status line while a simultaneous game is under way. */
  function statusLine() {
    const s = page.state();
    if (!me()) return `Turn ${s.turn}: both sides choose.`;
    const mine = hasCommitted(me());
    const theirs = hasCommitted(other(me()));
    if (!mine) return `Turn ${s.turn}: your move${theirs ? ' (opponent has committed)' : ''}.`;
    if (!theirs) return `Turn ${s.turn}: committed, waiting for opponent.`;
    return `Turn ${s.turn}: both committed, revealing…`;
  }

  return { pending, hasCommitted, commit, maybeReveal, commitState, statusLine };
}
