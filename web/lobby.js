// The lobby: a form that creates a game, and the lists of live and finished
// games.

import { api } from './api.js';
import { escapeHtml } from './html.js';


const TEMPLATE = `
<section class="lobby">
  <form class="create">
    <h2>New game</h2>
    <label>Variant <select name="variant" required></select></label>
    <p class="variant-description"></p>
    <fieldset>
      <legend>Time</legend>
      <label><input type="radio" name="timing" value="live" checked> Live clock</label>
      <label class="inline">minutes <input type="number" name="minutes" min="0" max="180" step="any" value="10"></label>
      <label class="inline">+ seconds <input type="number" name="increment" min="0" max="180" value="5"></label>
      <br>
      <label><input type="radio" name="timing" value="days"> Correspondence</label>
      <label class="inline">days per move <input type="number" name="days" min="1" max="14" value="3"></label>
    </fieldset>
    <fieldset>
      <legend>Opponent</legend>
      <label><input type="radio" name="opponent" value="engine" checked> Engine</label>
      <label class="inline">level <input type="number" name="level" min="1" max="8" value="3"></label>
      <br>
      <label><input type="radio" name="opponent" value="friend"> A friend (invite link)</label>
    </fieldset>
    <fieldset>
      <legend>Your colour</legend>
      <label><input type="radio" name="color" value="white"> White</label>
      <label><input type="radio" name="color" value="random" checked> Random</label>
      <label><input type="radio" name="color" value="black"> Black</label>
    </fieldset>
    <label>Start position (FEN, optional) <input name="fen" autocomplete="off" spellcheck="false" placeholder="the variant's start"></label>
    <label><input type="checkbox" name="public"> List this game publicly</label>
    <button type="submit">Create game</button>
    <div class="error" role="alert" hidden></div>
  </form>
  <div class="lists">
    <h2>Live games</h2><table class="games" data-status="live"></table>
    <h2>Finished games</h2><table class="games" data-status="finished"></table>
  </div>
</section>`;

function seatText(seat) {
  if (!seat) return '?';
  return seat.kind === 'engine' ? `engine ${seat.level}` : seat.kind;
}

async function fillList(table) {
  try {
    const games = await api.games(table.dataset.status);
    table.innerHTML = games.length
      ? '<tr><th>Game</th><th>Variant</th><th>White</th><th>Black</th><th>Turn</th><th>Result</th></tr>' +
        games
          .map(
            (g) => `<tr><td><a href="/game/${escapeHtml(g.id)}">${escapeHtml(g.id)}</a></td><td>${escapeHtml(g.variant)}</td>
              <td>${escapeHtml(seatText(g.white))}</td><td>${escapeHtml(seatText(g.black))}</td>
              <td>${escapeHtml(g.turn ?? '')}</td><td>${escapeHtml(g.result ?? g.status)}</td></tr>`,
          )
          .join('')
      : '<tr><td>none</td></tr>';
  } catch (e) {
    table.innerHTML = `<tr><td>${escapeHtml(e.message)}</td></tr>`;
  }
}

export async function showLobby(root) {
  root.innerHTML = TEMPLATE;
  const form = root.querySelector('form.create');
  const select = form.elements.variant;
  const description = root.querySelector('.variant-description');
  const error = form.querySelector('.error');
  let variants = [];
  try {
    variants = await api.variants();
  } catch (e) {
    error.textContent = `cannot load the variants: ${e.message}`;
    error.hidden = false;
  }
  select.innerHTML = variants
    .map((v) => `<option value="${escapeHtml(v.id)}">${escapeHtml(v.name)} (${v.files}x${v.ranks}, ${escapeHtml(v.family)})</option>`)
    .join('');
  const describe = () => {
    description.textContent = variants.find((v) => v.id === select.value)?.description ?? '';
  };
  select.addEventListener('change', describe);
  describe();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    const live = f.timing.value === 'live';
    const spec = {
      variant: select.value,
      clock: live ? { initial: Math.round(Number(f.minutes.value) * 60), increment: Number(f.increment.value) } : null,
      days: live ? null : Number(f.days.value),
      opponent: f.opponent.value === 'friend' ? 'friend' : { engine: { level: Number(f.level.value) } },
      color: f.color.value,
      public: f.public.checked,
    };
    if (f.fen.value.trim()) spec.fen = f.fen.value.trim();
    error.hidden = true;
    try {
      const created = await api.createGame(spec);
      location.assign(`/game/${created.id}`);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });

  const tables = root.querySelectorAll('table.games');
  const refresh = () => tables.forEach(fillList);
  refresh();
  const timer = setInterval(refresh, 15000);
  window.addEventListener('pagehide', () => clearInterval(timer));
}
