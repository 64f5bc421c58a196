// This seat's side of a simultaneous turn: the move it has committed to,
// when the commitment is sent and when the move is revealed, and what the
// page says meanwhile. The hash and the storage that survives the tab are
// in commit.js; the protocol is in docs/server.md.

import { api } from './api.js';
import { makeCommitment, loadSecrets, saveSecret, forgetSecrets } from './commit.js';
import { isSimultaneous, other } from './gamestate.js';
import { t } from './i18n.js';

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
    if (revealedBy(color)) return t('game-commit-revealed');
    return hasCommitted(color) ? t('game-commit-committed') : t('game-commit-choosing');
  }

  function elsewhereText(s) {
    const turn = s.turn;
    return s.clocks ? t('game-elsewhere-clock', { turn }) : t('game-elsewhere-deadline', { turn });
  }

  function waitingText(s) {
    const wait = claimIn();
    if (wait === null) return t('game-turn-revealing', { turn: s.turn });
    if (wait === 0) return t('game-turn-claim', { turn: s.turn });
    const at = new Date(Date.now() + wait).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    return t('game-turn-claim-at', { turn: s.turn, time: at });
  }

  /** The status line while a simultaneous game is under way. */
  function statusLine() {
    const s = page.state();
    if (!me()) return t('game-turn-both-choose', { turn: s.turn });
    if (secretElsewhere()) return elsewhereText(s);
    const mine = hasCommitted(me());
    const theirs = hasCommitted(other(me()));
    if (!mine) return theirs ? t('game-turn-your-move-opponent', { turn: s.turn }) : t('game-turn-your-move', { turn: s.turn });
    if (!theirs) return t('game-turn-waiting', { turn: s.turn });
    return waitingText(s);
  }

  window.addEventListener('beforeunload', (e) => {
    if (!owesReveal()) return;
    e.preventDefault();
    e.returnValue = ''; // older browsers ask only when this is set
  });

  return { pending, hasCommitted, commit, maybeReveal, commitState, statusLine, canClaim, secretElsewhere };
}
