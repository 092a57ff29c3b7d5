// The browser client's shared state: everything the page knows (S), the hooks through which lower
// modules call up to the ones that import them, and small helpers (names, clocks, text, the rules link).
import * as G from './gomoku.js';
import * as J from './junqi.js';
import { h } from './dom.js';
import { t, refusal, rulesHref } from './i18n.js';
import { pageModule } from './games.js';

export const NAME_KEY = 'skirmish.name';
const OWNED_KEY = 'skirmish.owned';
export const NUMBERS_KEY = 'skirmish.gomoku.numbers';

/**
 * Functions of upper modules that lower ones call (renderRoom, go, gameUi): set by app.js at start-up,
 * so that no module imports one that imports it (the project allows no import circles).
 */
export const hooks = {};

/** Everything the page knows. */
export const S = {
  name: localStorage.getItem(NAME_KEY) || '',
  conn: null,
  connState: 'closed',
  player: null,
  mySeats: [],
  rooms: [],
  /** The tournaments, as `GET /api/tournaments` last listed them (newest first). */
  tournaments: [],
  /** The connected bots, as `list_bots` last listed them. */
  bots: [],
  page: 'lobby',
  roomId: null,
  /** Per-room state: id -> RoomState. */
  roomStates: new Map(),
  watching: new Set(),
  botChoice: {},
  /** Gomoku: whether stones show their move numbers. */
  showNumbers: localStorage.getItem(NUMBERS_KEY) === 'true',
  /** Gomoku: the point that holds the board's keyboard focus. */
  gomokuFocus: null,
  /** The open room as plain data (id, seat, status, the game's view), for tests and the console. */
  current() {
    const rs = S.page === 'room' ? S.roomStates.get(S.roomId) : null;
    if (!rs || !rs.view) return null;
    const left = rs.deadlineAt == null ? null : Math.max(0, rs.deadlineAt - Date.now());
    return JSON.parse(JSON.stringify({ id: rs.id, you: rs.you, status: rs.summary && rs.summary.status,
      game: rs.view.game, view: rs.view, deadline_ms: left }));
  },
};
// For debugging from the console (and tests' failure messages).
window.skirmish = S;

// ---------------------------------------------------------------- helpers


export function owned() {
  try { return new Set(JSON.parse(localStorage.getItem(OWNED_KEY) || '[]')); } catch { return new Set(); }
}

export function addOwned(id) {
  const set = owned();
  set.add(id);
  localStorage.setItem(OWNED_KEY, JSON.stringify([...set].slice(-50)));
}

let toastTimer = null;
export function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 5000);
}

/** A refusal in the page's language (i18n.js, refusal: the sentence for its code, else the server's text). */
export function errorText(err) {
  return refusal(err);
}

/** "1st", "2nd" (第1名, 第2名): the place `n` in a ranking. */
export function ordinal(n) {
  return t('place', { count: n, ordinal: true });
}

export function fmtClock(ms) {
  if (ms == null) return '—';
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function formatText(format) {
  if (!format) return '';
  if (format.rounds != null) return t('plane.rounds', { count: format.rounds });
  return t('plane.first_to', { n: format.first_to });
}

/** The rules page's section for a room's game (docs/rules.md, served at /rules). */
export function rulesLink(config) {
  const g = config.game || {};
  const game = g.game === 'gomoku' || g.game === 'junqi' || pageModule(g.game) ? g.game : 'plane';
  return h('a', { href: rulesHref(game), target: '_blank', rel: 'noopener', 'data-rules-link': game },
    t(`rules.link.${game}`));
}

export function configText(config) {
  const g = config.game;
  const clock = config.clock || {};
  const mod = pageModule(g.game);
  if (mod) return mod.configText(g, clock);
  if (g.game === 'gomoku') return G.configText(g, clock);
  if (g.game === 'junqi') return J.configText(g, clock);
  const move = clock.move_ms ? t('plane.shot_clock', { s: clock.move_ms / 1000 }) : t('plane.no_shot_clock');
  return [t('game.plane'), t(`plane.variant.${g.variant}`), t('plane.players', { count: g.players }), formatText(g.format), move].join(' · ');
}
