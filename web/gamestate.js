// The game as the page holds it: the last `gameFull` with the events
// received after it applied, and plain facts about it.

/**
 * Events after which the page fetches a fresh `gameFull`: those that change
 * the position, and `revealed` (it brings the reveal deadline of a game
 * without a clock).
 */
export const STRUCTURAL = new Set(['started', 'joined', 'move', 'revealed', 'turn', 'finished', 'rematch']);

export const other = (color) => (color === 'white' ? 'black' : 'white');

export const isSimultaneous = (s) => s.variant.family === 'simultaneous';

// gameFull's `rematch` is `{offer: color}` or `{game: id}`.
export function fromFull(full) {
  const s = structuredClone(full);
  s.rematch_offer = full.rematch?.offer ?? null;
  s.rematch_game = full.rematch?.game ?? null;
  return s;
}

/** Applies one event to the state `s` (in place) and returns it. */
export function applyEvent(s, e) {
  s.seq = e.seq;
  if (e.clocks) {
    s.clocks = e.clocks;
    s.receivedAt = e.receivedAt;
  }
  switch (e.type) {
    case 'committed':
      s.committed = { ...s.committed, [e.color]: true };
      s.commitments = { ...s.commitments, [e.color]: e.commitment };
      break;
    case 'revealed':
      s.revealed = { ...s.revealed, [e.color]: true };
      break;
    case 'berserk':
      s.berserk = { ...s.berserk, [e.color]: true };
      break;
    case 'draw_offer':
      s.draw_offer = e.color;
      break;
    case 'draw_declined':
      s.draw_offer = null;
      break;
    case 'finished':
      Object.assign(s, { status: 'finished', result: e.result, reason: e.reason, reason_text: null });
      break;
    case 'rematch_offer':
      s.rematch_offer = e.color;
      break;
    case 'rematch':
      s.rematch_game = e.game;
      break;
    case 'rematch_cancelled':
      s.rematch_offer = null;
      break;
  }
  return s;
}
