// "My games" (/my-games): the finished casual matches this browser's players sat in, newest first,
// from POST /api/my/games with the browser's secret resume tokens (net.js keeps the last 20 it was
// given; the public player id would not do, so nobody lists another's games). Each line: the game, the players, how it went
// for you, when, and links to its replay as you saw it and with everything shown.
import { t, lang, translateStatic, mountSwitch, rulesHref, refusal } from './i18n.js';
import { h, ApiError } from './dom.js';
import { ordinal, configText } from './state.js';

/** Where net.js keeps every resume token the server's `welcome` gave this browser. */
const TOKENS_KEY = 'skirmish.resumes';

/** Everything the page knows (also `window.myGames`, for tests). */
const M = { games: null, error: null };
window.myGames = M;

/** A seat's name as the room showed it ("pool-1 for 阿强" for a bot that took over). */
function seatName(s, seat) {
  if (!s.name) return t('replay.seat', { n: seat + 1 });
  return s.took_over_from ? t('replay.took_over', { bot: s.name, name: s.took_over_from }) : s.name;
}

/** How the match went for the seat `seat`: won, drew, lost, or a place. */
function outcome(game) {
  const r = game.result;
  if (!r) return t('mygames.no_result');
  const place = r.placings[game.seat];
  const shared = r.placings.filter((p) => p === place).length > 1;
  if (r.placings.length > 2) return t('mygames.place', { place: ordinal(place) });
  if (shared) return t('mygames.draw');
  return place === 1 ? t('mygames.won') : t('mygames.lost');
}

function when(ms) {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

function line(game) {
  const names = game.seats.map(seatName);
  return h('li', { class: 'card mygame', 'data-room': game.id, 'data-seat': game.seat },
    h('p', { class: 'mygame-head' }, h('strong', { class: 'mygame-outcome' }, outcome(game)), ' · ',
      h('span', { class: 'muted' }, when(game.finished_ms))),
    h('p', { class: 'muted small' }, configText({ game: game.game, clock: {} })),
    h('p', {}, names.map((name, seat) => (seat === game.seat ? t('mygames.you_as', { name }) : name)).join(t('replay.vs'))),
    h('p', { class: 'mygame-links' },
      h('a', { href: `/replay/${game.id}?seat=${game.seat}`, 'data-replay-seat': game.seat }, t('mygames.replay_as_you')), ' · ',
      h('a', { href: `/replay/${game.id}`, 'data-replay-all': '' }, t('mygames.replay_all'))));
}

function render() {
  const main = document.getElementById('main');
  let body;
  if (M.error) body = h('p', { id: 'mygames-error' }, t('mygames.error', { why: refusal(M.error) }));
  else if (!M.games) body = h('p', {}, t('mygames.loading'));
  else if (!M.games.length) body = h('p', { id: 'mygames-empty' }, t('mygames.empty'));
  else body = h('ol', { id: 'mygames', class: 'mygames' }, M.games.map(line));
  main.replaceChildren(h('section', { id: 'my-games', class: 'my-games', 'data-state': M.error ? 'error' : M.games ? 'ready' : 'loading' },
    h('div', { class: 'card' },
      h('h1', {}, t('mygames.title')),
      h('p', { class: 'muted' }, t('mygames.intro')),
      h('p', {}, h('a', { href: '/' }, t('replay.back')))),
    body));
}

async function load() {
  let tokens;
  try { tokens = JSON.parse(localStorage.getItem(TOKENS_KEY) || '[]'); } catch { tokens = []; }
  if (!Array.isArray(tokens) || !tokens.length) {
    M.games = [];
    render();
    return;
  }
  try {
    const response = await fetch('/api/my/games', {
      method: 'POST', cache: 'no-store', headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ tokens }),
    });
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new ApiError(response.status, body && body.code, (body && body.message) || response.statusText);
    M.games = body.games;
  } catch (err) {
    M.error = err;
  }
  render();
}

translateStatic();
mountSwitch();
document.getElementById('rules-link').href = rulesHref();
render();
load();
