// The server's HTTP API and the live feed of a game (docs/server.md). The
// seat token travels as the HttpOnly cookie the server sets, so requests
// only need `credentials: 'same-origin'` (the default).

import { language, t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Sends a request and returns the parsed JSON answer, or throws ApiError. */
export async function request(method, path, body) {
  // The server words its refusals in the page's language.
  const init = { method, headers: { 'Accept-Language': language() } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, t('settings-network-error', { error: e.message }));
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // A non-JSON answer (a proxy's error page): keep the text as the message.
  }
  if (!response.ok) {
    throw new ApiError(response.status, json?.error ?? (text || response.statusText));
  }
  return json;
}

export const api = {
  variants: () => request('GET', '/api/variants'),
  games: (status) => request('GET', `/api/games?status=${status}`),
  createGame: (spec) => request('POST', '/api/games', spec),
  join: (id, invite) => request('POST', `/api/games/${id}/join`, { invite }),
  game: (id) => request('GET', `/api/games/${id}`),
  /** A seat action: `move/e2e4`, `commit`, `reveal`, `resign`, `draw/yes`, ... */
  act: (id, action, body) => request('POST', `/api/board/game/${id}/${action}`, body),
  pgnUrl: (id) => `/api/games/${id}/pgn`,
  /** The game's line: the position after each move or turn. */
  positions: (id) => request('GET', `/api/games/${id}/positions`),
  /** An analysis board's line: `{variant, fen, moves}` or `{pgn}`. */
  analysisLine: (spec) => request('POST', '/api/analysis/line', spec),
  /** The engine's evaluation of a line's last position. */
  analyse: (spec) => request('POST', '/api/analysis', spec),
  /** A game's computer analysis: the review, `{status: 'running'}` or `{status: 'none'}`. */
  gameAnalysis: (id) => request('GET', `/api/games/${id}/analysis`),
  /** Asks for a finished game's computer analysis (`{status: 'running'}`, or the review). */
  requestGameAnalysis: (id) => request('POST', `/api/games/${id}/analysis`),
  /** The account's notifications: `{unread, notifications: [{id, at_ms, kind, text, url, seen}], mail}`. */
  notifications: () => request('GET', '/api/account/notifications'),
  readNotifications: () => request('POST', '/api/account/notifications/read'),
  /** The key browsers subscribe to the server's pushes with: `{publicKey}`. */
  pushKey: () => request('GET', '/api/push/key'),
  subscribePush: (subscription) => request('POST', '/api/account/push', subscription),
  unsubscribePush: (endpoint) => request('DELETE', '/api/account/push', { endpoint }),
  /** The account's page settings: `{prefs: {...}}` (lichess's shape). */
  preferences: () => request('GET', '/api/account/preferences'),
  /** Sets some of the account's page settings; answers all of them. */
  setPreferences: (change) => request('PUT', '/api/account/preferences', change),
  /** A variant's rules as HTML, rendered and escaped by the server. */
  rules: async (variant) => {
    const response = await fetch(`/api/variants/${encodeURIComponent(variant)}/rules?lang=${language()}`);
    if (!response.ok) throw new ApiError(response.status, response.statusText || t('settings-http-error', { status: response.status }));
    return response.text();
  },
  /** Typed move text read by the server: `{uci, san}`, or throws why it is not a move. */
  readMove: (id, color, text) =>
    request('GET', `/api/games/${id}/read-move?color=${color}&text=${encodeURIComponent(text)}`),
  /** The accounts of a game's seats (lichess's export): `{white: {user: {name}, rating, provisional}, black}`. */
  players: async (id) => (await api.exported(id)).players ?? {},
  /** Lichess's export of a game: `{players, tournament, ...}`. */
  exported: async (id) => {
    const response = await fetch(`/game/export/${id}`, { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new ApiError(response.status, response.statusText);
    return response.json();
  },
  /** The game's chat after line `after`, oldest first: `[{n, user, room, text, at}]`. */
  chat: (id, after = 0) => request('GET', `/api/games/${id}/chat?after=${after}`),
  say: (id, room, text) => request('POST', `/api/games/${id}/chat`, { room, text }),

  // ---- accounts (the log-in is an HttpOnly session cookie) ----
  signup: (username, password) => request('POST', '/api/signup', { username, password }),
  login: (username, password) => request('POST', '/api/login', { username, password }),
  logout: () => request('POST', '/api/logout'),
  /** The logged-in account, or null. */
  me: async () => {
    try {
      return await request('GET', '/api/me');
    } catch (e) {
      if (e.status === 401) return null;
      throw e;
    }
  },
  /** The account's unfinished games: `{nowPlaying: [{gameId, ...}]}`. */
  playing: () => request('GET', '/api/account/playing?nb=50'),
  user: (name) => request('GET', `/api/user/${encodeURIComponent(name)}`),
  ratingHistory: (name) => request('GET', `/api/user/${encodeURIComponent(name)}/rating-history`),
  /** A page of `nb` games, newest first; `before` is the last one's `cursor` for the next page. */
  userGames: (name, nb, before) =>
    request('GET', `/api/user/${encodeURIComponent(name)}/games?nb=${nb}${before ? `&before=${encodeURIComponent(before)}` : ''}`),
  tokens: () => request('GET', '/api/account/tokens'),
  newToken: (scopes) => request('POST', '/api/account/tokens', { scopes }),
  revokeToken: (hash) => request('DELETE', `/api/account/tokens/${hash}`),
  sessions: () => request('GET', '/api/account/sessions'),
  endSession: (hash) => request('DELETE', `/api/account/sessions/${hash}`),

  // ---- the lobby's seeks ----
  seeks: () => request('GET', '/api/lobby/seeks'),
  /** `{variant, clock, days, rated, color, rating_range}`: `{id}` of the seek, or `{game}` when paired at once. */
  seek: (spec) => request('POST', '/api/lobby/seeks', spec),
  acceptSeek: (id) => request('POST', `/api/lobby/seeks/${id}/accept`),
  cancelSeek: (id) => request('DELETE', `/api/lobby/seeks/${id}`),
};

/**
 * The account's event stream (`GET /api/stream/event`, NDJSON, the session
 * cookie authenticates): calls `onEvent` with each event; reconnects after
 * a drop until `stop()`.
 */
export function accountEvents(onEvent) {
  const controller = new AbortController();
  let stopped = false;
  async function run() {
    while (!stopped) {
      try {
        const response = await fetch('/api/stream/event', { signal: controller.signal });
        if (response.status === 401) return; // not logged in
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          const lines = buffer.split('\n');
          buffer = lines.pop();
          for (const line of lines) {
            if (line.trim()) onEvent(JSON.parse(line));
          }
        }
      } catch {
        // dropped: try again below
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  run();
  return { stop: () => { stopped = true; controller.abort(); } };
}

/**
 * The live feed of one game: a WebSocket that sends `gameFull` and then the
 * events; on a drop it reconnects with `since=` the last seq seen, so no
 * event is lost. Where WebSockets never connect (a proxy that refuses the
 * upgrade), it polls `gameFull` instead.
 */
export class GameFeed {
  constructor(gameId, onMessage, onStatus) {
    this.gameId = gameId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.seq = 0;
    this.failures = 0;
    this.everOpened = false;
    this.closed = false;
    this.socket = null;
    this.timer = null;
  }

  start() {
    this.connect();
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket?.close();
  }

  deliver(message) {
    if (typeof message.seq === 'number') this.seq = Math.max(this.seq, message.seq);
    this.onMessage(message);
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${location.host}/api/ws/game/${this.gameId}?since=${this.seq}&lang=${language()}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.everOpened = true;
      this.failures = 0;
      this.onStatus('live');
    };
    socket.onmessage = (e) => {
      let message;
      try {
        message = JSON.parse(e.data);
      } catch {
        return; // keep-alive or garbage: nothing to apply
      }
      this.deliver(message);
    };
    socket.onclose = () => {
      if (this.closed || socket !== this.socket) return;
      this.failures += 1;
      if (!this.everOpened && this.failures >= 3) {
        this.onStatus('polling');
        this.poll();
        return;
      }
      this.onStatus('reconnecting');
      const delay = Math.min(1000 * 2 ** (this.failures - 1), 10000);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  async poll() {
    if (this.closed) return;
    try {
      const full = await api.game(this.gameId);
      if (full.seq !== this.seq) this.deliver(full);
      this.onStatus('polling');
    } catch {
      this.onStatus('reconnecting');
    }
    this.timer = setTimeout(() => this.poll(), 2000);
  }
}
