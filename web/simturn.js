// This seat's side of a simultaneous turn: the move it has committed to,
// when the commitment is sent and when the move is revealed, and what the
// page says meanwhile. The hash and the storage that survives the tab are
// in commit.js; the protocol is in docs/server.md.

import { api } from './api.js';
import { makeCommitment, loadSecrets, saveSecret, forgetSecrets } from './commit.js';
import { isSimultaneous, other } from './gamestate.js';

/**
 * The commit-reveal state of game `id`. `page`: state() (the game as
 * shown), act(action, body) (a seat action; null when it failed, its error
 * shown), update() (redraws the page) and showError(error).
 */
export function simultaneousTurn(id, page) {
  let sending = null; // {turn, commitment}: a commitment on its way to the server
  let revealedTurn = 0; // the last turn whose reveal this tab saw accepted
  let revealing = false; // a reveal request is under way
  let claimTimer = null;
  const me = () => page.state()?.you;

  /** A seat's simultaneous game under way. */
  function playing() {
    const s = page.state();
    return Boolean(s && me() && isSimultaneous(s) && s.status === 'started');
  }

  /** The hash of this seat's commitment this turn: the server's, or the one being sent. */
  function myCommitment() {
    const s = page.state();
    return s.commitments?.[me()] ?? (sending?.turn === s.turn ? sending.commitment : null);
  }

  /** This seat's committed move and nonce this turn, if this device holds them. */
  function pending() {
    const hash = playing() && myCommitment();
    return (hash && loadSecrets(id, page.state().turn, me())[hash]) || null;
  }

  const revealedBy = (color) => Boolean(page.state().revealed?.[color]);

  /** The server holds this seat's commitment, but this device has not its move. */
  const secretElsewhere = () => playing() && Boolean(page.state().commitments?.[me()]) && !revealedBy(me()) && !pending();

  /** This device holds a commitment not revealed yet: leaving now risks it. */
  const owesReveal = () => Boolean(pending()) && !revealedBy(me());

  const hasCommitted = (color) => Boolean(page.state().committed?.[color] || (color === me() && myCommitment()));

  /** Commits this seat to `uci` for the current turn. */
  async function commit(uci) {
    const side = me();
    const turn = page.state().turn;
    const made = await makeCommitment(id, turn, side, uci);
    // Kept before the server can know the hash, so no tab ever loses it.
    saveSecret(id, turn, side, made);
    sending = { turn, commitment: made.commitment };
    page.update();
    if (!(await page.act('commit', { commitment: made.commitment }))) sending = null;
    page.update();
    maybeReveal();
  }

  // Both commitments in: reveal ours (once; another tab or a reload may
  // have done it already, which the server answers with a 409).
  async function maybeReveal() {
    const s = page.state();
    if (!isSimultaneous(s)) return;
    forgetSecrets(id, s.status === 'finished' ? Infinity : s.turn);
    watchDeadline();
    if (!playing() || revealing || revealedTurn === s.turn || revealedBy(me())) return;
    if (!(s.committed?.white && s.committed?.black)) return;
    const mine = pending();
    if (!mine) return;
    revealing = true;
    try {
      await api.act(id, 'reveal', { move: mine.move, nonce: mine.nonce });
      revealedTurn = s.turn;
    } catch (e) {
      if (e.status === 409) revealedTurn = s.turn;
      else page.showError(e);
    } finally {
      revealing = false;
      page.update();
    }
  }

  // ---- the reveal deadline of a game without a clock ----

  /** Milliseconds until this seat may claim the game, or null if it cannot come to that. */
  function claimIn() {
    const s = page.state();
    if (!playing() || s.reveal_deadline_ms == null || !revealedBy(me()) || revealedBy(other(me()))) return null;
    return Math.max(0, s.reveal_deadline_ms - (performance.now() - s.receivedAt));
  }

  const canClaim = () => claimIn() === 0;

  // Redraw when the deadline passes, so the claim button appears.
  function watchDeadline() {
    clearTimeout(claimTimer);
    const wait = claimIn();
    if (wait) claimTimer = setTimeout(page.update, wait + 50);
  }

  // ---- words ----

  /** What a player's line says about `color` during a turn: empty outside one. */
  function commitState(color) {
    const s = page.state();
    if (!(isSimultaneous(s) && s.status === 'started')) return '';
    if (revealedBy(color)) return 'revealed';
    return hasCommitted(color) ? 'committed' : 'choosing…';
  }

  function elsewhereText(s) {
    const next = s.clocks
      ? 'Reveal it on the device you chose it on: your clock runs until it is revealed, and if it runs out you lose on "no reveal".'
      : 'If it is not revealed from the device you chose it on by the reveal deadline, your opponent may claim the game ("no reveal").';
    return `Your committed move for turn ${s.turn} is not on this device; it cannot be revealed here. ${next}`;
  }

  function waitingText(s) {
    const wait = claimIn();
    if (wait === null) return `Turn ${s.turn}: both committed, revealing…`;
    if (wait === 0) return `Turn ${s.turn}: your opponent did not reveal in time; you may claim the game.`;
    const at = new Date(Date.now() + wait).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    return `Turn ${s.turn}: waiting for your opponent's reveal; if it has not come by ${at}, you may claim the game.`;
  }

  /** The status line while a simultaneous game is under way. */
  function statusLine() {
    const s = page.state();
    if (!me()) return `Turn ${s.turn}: both sides choose.`;
    if (secretElsewhere()) return elsewhereText(s);
    const mine = hasCommitted(me());
    const theirs = hasCommitted(other(me()));
    if (!mine) return `Turn ${s.turn}: your move${theirs ? ' (opponent has committed)' : ''}.`;
    if (!theirs) return `Turn ${s.turn}: committed, waiting for opponent.`;
    return waitingText(s);
  }

  window.addEventListener('beforeunload', (e) => {
    if (!owesReveal()) return;
    e.preventDefault();
    e.returnValue = ''; // older browsers ask only when this is set
  });

  return { pending, hasCommitted, commit, maybeReveal, commitState, statusLine, canClaim, secretElsewhere };
}
