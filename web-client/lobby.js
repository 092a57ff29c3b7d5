// The lobby page: the live room list, the tournaments, and the create-room form; creating and
// joining rooms.
import * as G from './gomoku.js';
import * as J from './junqi.js';
import { h } from './dom.js';
import * as L from './length.js';
import { hooks, S, addOwned, toast, errorText, plural, formatText } from './state.js';

// Navigation is app.js's, the entry, which this module must not import: app.js sets hooks.go.
const go = (path) => hooks.go(path);

// ---------------------------------------------------------------- lobby

export function renderLobby() {
  const main = document.getElementById('main');
  const num = (id, label, value, min, max, help) => h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, type: 'number', min, max, value, required: true, inputmode: 'numeric', 'aria-describedby': help ? `${id}-help` : null }),
    help ? h('small', { id: `${id}-help` }, help) : null);
  const sel = (id, label, options, value) => h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('select', { id }, options.map(([v, t]) => h('option', { value: v, selected: v === value }, t))));
  const game = S.createGame || 'plane';
  const openings = h('div', { class: 'field' },
    h('label', { for: 'create-opening' }, 'Opening'),
    h('select', { id: 'create-opening', 'aria-describedby': 'create-opening-help' },
      h('option', { value: '', selected: true }, 'none: an empty board'),
      h('optgroup', { label: 'Renju openings (white moves next)' },
        G.OPENINGS.filter(([, , note]) => note !== 'seed formation')
          .map(([name, title, note]) => h('option', { value: name }, `${name} ${title} (${note})`))),
      h('optgroup', { label: 'Formations (white moves next)' },
        G.OPENINGS.filter(([, , note]) => note === 'seed formation')
          .map(([name, title]) => h('option', { value: name }, `${name} ${title}`)))),
    h('small', { id: 'create-opening-help' }, 'A starting position; on 19×19 it is centred.'));
  const form = h('form', { id: 'create-form', class: 'card create', onsubmit: createRoom, 'data-game': game },
    h('h2', {}, 'New room'),
    h('div', { class: 'field' }, h('label', { for: 'create-name' }, 'Room name'),
      h('input', { id: 'create-name', maxlength: 40, placeholder: `${S.name}'s room` })),
    h('div', { class: 'field' }, h('label', { for: 'create-game' }, 'Game'),
      h('select', { id: 'create-game', onchange: (e) => chooseGame(e.target.value) },
        [['plane', 'Plane battle (2 or 3 players)'], ['gomoku', 'Gomoku (2 players)'], ['junqi', 'Junqi (2 players)']]
          .map(([v, t]) => h('option', { value: v, selected: v === game }, t)))),
    h('fieldset', { id: 'plane-fields', class: 'create-game', hidden: game !== 'plane', disabled: game !== 'plane' },
      h('legend', { class: 'sr-only' }, 'Plane battle settings'),
      sel('create-players', 'Seats', [['2', '2 players'], ['3', '3 players']], '3'),
      sel('create-variant', 'Variant', [['double', 'double: 9×9, two planes'], ['classic', 'classic: 7×7, one plane']], 'double'),
      sel('create-format', 'Match length', [...L.FORMATS.map(([name, , label]) => [name, label]), ['custom', 'Custom: choose the rounds']], 'full'),
      num('create-rounds', 'Rounds', 18, 1, 99, 'Ties for first play extra rounds.'),
      h('p', { id: 'create-length', class: 'hint', 'aria-live': 'polite' }, L.lengthText(18, 3, 'double')),
      num('create-deploy', 'Seconds to deploy', 60, 0, 600, '0: no limit')),
    h('fieldset', { id: 'gomoku-fields', class: 'create-game', hidden: game !== 'gomoku', disabled: game !== 'gomoku' },
      h('legend', { class: 'sr-only' }, 'Gomoku settings'),
      sel('create-size', 'Board', [['15', '15×15'], ['19', '19×19']], '15'),
      sel('create-rule', 'Rule', G.RULES, 'freestyle'),
      openings,
      sel('create-colour', 'You play', [['black', 'black (moves first)'], ['white', 'white']], 'black')),
    h('fieldset', { id: 'junqi-fields', class: 'create-game', hidden: game !== 'junqi', disabled: game !== 'junqi' },
      h('legend', { class: 'sr-only' }, 'Junqi settings'),
      num('create-no-attack', 'No-attack limit', 31, 0, 31,
        'Moves in a row without a collision after which the side to move loses: 10 to 31, or 0 for no limit.'),
      num('create-junqi-deploy', 'Seconds to deploy', 180, 0, 600, '0: no limit. Out of time: a random layout.'),
      sel('create-side', 'You play', [['red', 'red (moves first)'], ['blue', 'blue']], 'red')),
    num('create-move', MOVE_FIELD[game].label, MOVE_FIELD[game].value, 0, 600, MOVE_FIELD[game].help),
    sel('create-on-drop', 'If a player drops out', [['bot', 'a bot takes the seat over'], ['forfeit', 'the seat forfeits'], ['wait', 'the seat waits for them']], 'bot'),
    num('create-grace', 'Seconds to come back', 60, 0, 3600, 'How long a dropped player has to reconnect before that happens.'),
    h('button', { id: 'create-submit', type: 'submit', class: 'primary' }, 'Create and sit'));
  form.querySelector('#create-no-attack').addEventListener('input', (e) => e.target.setCustomValidity(''));
  wireFormat(form);
  main.replaceChildren(
    h('section', { id: 'lobby', class: 'lobby', 'data-page': 'lobby' },
      h('div', { class: 'lobby-main' },
        h('div', { class: 'card rooms-card' },
          h('h1', {}, 'Rooms'),
          h('p', { class: 'muted' }, 'Open and running rooms, updated live. Join a free seat, or watch a match.'),
          h('div', { id: 'rooms', 'aria-live': 'polite' })),
        tournamentsCard()),
      form));
  renderRooms();
  renderTournaments();
  refreshTournaments();
}

/** The lobby's list of tournaments (filled by renderTournaments). */
export function tournamentsCard() {
  return h('div', { class: 'card tournaments-card' },
    h('h2', {}, 'Tournaments'),
    h('div', { id: 'tournaments' }));
}

/** Reads the tournaments (`GET /api/tournaments`, newest first) for the lobby's list. */
export function refreshTournaments() {
  fetch('/api/tournaments', { cache: 'no-store' })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
    .then((list) => {
      S.tournaments = Array.isArray(list) ? list : [];
      if (S.page === 'lobby' || S.page === 'name') renderTournaments();
    })
    .catch(() => {});
}

const TOURNAMENT_GAMES = { plane: 'plane battle', gomoku: 'gomoku', junqi: 'junqi' };

export function renderTournaments() {
  const box = document.getElementById('tournaments');
  if (!box) return;
  const list = S.tournaments || [];
  if (!list.length) {
    box.replaceChildren(h('p', { class: 'empty small', 'data-tournaments-empty': true },
      'No tournaments yet. Bots play them; they are made with POST /api/tournaments.'));
    return;
  }
  box.replaceChildren(h('table', { class: 'rooms' },
    h('caption', { class: 'sr-only' }, 'Tournaments, newest first'),
    h('thead', {}, h('tr', {}, ['Tournament', 'Game', 'State', 'Matches'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, list.slice(0, 20).map((t) => h('tr', { 'data-tournament-id': t.id, 'data-state': t.state },
      h('th', { scope: 'row' }, h('a', { href: `/tournament/${t.id}` }, t.name)),
      h('td', {}, TOURNAMENT_GAMES[t.game] || t.game),
      h('td', {}, h('span', { class: `badge ${t.state === 'running' ? 'playing' : t.state === 'cancelled' ? 'off' : 'ok'}` }, t.state)),
      h('td', { 'data-progress': `${t.finished}/${t.total}` }, `${t.finished}/${t.total}`,
        t.running ? h('small', {}, ` · ${t.running} running`) : null))))));
}

/**
 * Keeps the create form's match length, rounds and expected duration in step: a named format sets
 * the rounds, typed rounds select the format they name (or Custom), and every change updates the
 * estimate.
 */
function wireFormat(form) {
  const format = form.querySelector('#create-format');
  const rounds = form.querySelector('#create-rounds');
  const update = () => {
    const n = Number(rounds.value);
    form.querySelector('#create-length').textContent = L.lengthText(n,
      Number(form.querySelector('#create-players').value), form.querySelector('#create-variant').value);
  };
  format.addEventListener('change', () => {
    const n = L.roundsOf(format.value);
    if (n != null) rounds.value = String(n);
    else rounds.focus();
    update();
  });
  rounds.addEventListener('input', () => { format.value = L.formatOf(Number(rounds.value)); update(); });
  form.querySelector('#create-players').addEventListener('change', update);
  form.querySelector('#create-variant').addEventListener('change', update);
}

/** The create-room form's move clock field per game: its label, default seconds and help. */
const MOVE_FIELD = {
  plane: { label: 'Seconds per shot', value: 30, help: '0: no limit' },
  gomoku: { label: 'Seconds per move', value: 30, help: '0: no limit. Running out of time loses the game.' },
  junqi: { label: 'Seconds per move', value: 60, help: '0: no limit. Running out of time loses the game.' },
};

/** Shows the create-room form's settings for `game` ('plane', 'gomoku' or 'junqi'). */
function chooseGame(game) {
  const before = S.createGame || 'plane';
  S.createGame = game;
  const form = document.getElementById('create-form');
  if (!form) return;
  form.dataset.game = game;
  for (const [id, g] of [['plane-fields', 'plane'], ['gomoku-fields', 'gomoku'], ['junqi-fields', 'junqi']]) {
    const set = document.getElementById(id);
    set.hidden = g !== game;
    set.disabled = g !== game;
  }
  const move = document.getElementById('create-move');
  if (Number(move.value) === MOVE_FIELD[before].value) move.value = MOVE_FIELD[game].value;
  document.querySelector('label[for="create-move"]').textContent = MOVE_FIELD[game].label;
  document.getElementById('create-move-help').textContent = MOVE_FIELD[game].help;
}

/** The no-attack limit field's value, or null (with the field marked invalid) when not 0 or 10-31. */
function noAttackLimit() {
  const input = document.getElementById('create-no-attack');
  const n = Number(input.value);
  const ok = Number.isInteger(n) && (n === 0 || (n >= 10 && n <= 31));
  input.setCustomValidity(ok ? '' : 'The no-attack limit is 0 (off) or 10 to 31.');
  if (!ok) input.reportValidity();
  return ok ? n : null;
}

export function roomCounts(summary) {
  let humans = 0; let bots = 0;
  for (const s of summary.seats) {
    if (!s.occupant) continue;
    if (s.occupant.bot != null) bots += 1; else humans += 1;
  }
  return { humans, bots, taken: humans + bots, total: summary.seats.length };
}

export function renderRooms() {
  const box = document.getElementById('rooms');
  if (!box) return;
  const rooms = S.rooms.filter((r) => r.status !== 'finished');
  if (!rooms.length) {
    box.replaceChildren(h('p', { class: 'empty', 'data-rooms-empty': true }, 'No rooms yet. Create one!'));
    return;
  }
  const rows = rooms.map((r) => {
    const c = roomCounts(r);
    const mine = r.seats.some((s) => s.occupant && s.occupant.player === S.player);
    const g = r.config.game;
    const [gameText, gameDetail] = g.game === 'gomoku' ? G.lobbyText(g) : g.game === 'junqi' ? J.lobbyText(g)
      : [`plane · ${g.variant}`, formatText(g.format)];
    const status = r.status === 'waiting' ? 'waiting' : 'in progress';
    return h('tr', { 'data-room-id': r.id, 'data-status': r.status },
      h('th', { scope: 'row' }, h('a', { href: `/room/${r.id}`, 'data-nav': true }, r.config.name || 'Room')),
      h('td', { 'data-game': g.game }, gameText, h('br'), h('small', {}, gameDetail)),
      h('td', { 'data-seats': `${c.taken}/${c.total}` }, `${c.taken}/${c.total}`, h('br'),
        h('small', {}, `${plural(c.humans, 'human')}, ${plural(c.bots, 'bot')}`)),
      h('td', {}, h('span', { class: `badge ${r.status}` }, status),
        r.spectators ? h('small', {}, ` · ${r.spectators} watching`) : null),
      h('td', { class: 'actions' },
        mine ? h('button', { 'data-action': 'open', onclick: () => go(`/room/${r.id}`) }, 'Rejoin')
          : r.status === 'waiting' && c.taken < c.total
            ? h('button', { class: 'primary', 'data-action': 'join', onclick: () => joinRoom(r.id, null) }, 'Join')
            : null,
        !mine ? h('button', { 'data-action': 'watch', onclick: () => go(`/room/${r.id}`) }, r.status === 'waiting' ? 'Open' : 'Watch') : null));
  });
  box.replaceChildren(h('table', { class: 'rooms' },
    h('caption', { class: 'sr-only' }, 'Rooms'),
    h('thead', {}, h('tr', {}, ['Room', 'Game', 'Seats', 'Status', ''].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows)));
}

async function createRoom(e) {
  e.preventDefault();
  const val = (id) => document.getElementById(id).value;
  const onDrop = { grace_ms: Number(val('create-grace')) * 1000, then: val('create-on-drop') };
  if (val('create-game') === 'gomoku') {
    const game = { game: 'gomoku', size: Number(val('create-size')), rule: val('create-rule') };
    if (val('create-opening')) game.opening = val('create-opening');
    const config = { name: val('create-name').trim() || null, game, clock: { move_ms: Number(val('create-move')) * 1000 }, on_drop: onDrop };
    if (val('create-colour') === 'white') await createAsWhite(config);
    else await createWith(config);
    return;
  }
  if (val('create-game') === 'junqi') {
    const limit = noAttackLimit();
    if (limit == null) return;
    const config = { name: val('create-name').trim() || null, game: { game: 'junqi', no_attack_limit: limit },
      clock: { deploy_ms: Number(val('create-junqi-deploy')) * 1000, move_ms: Number(val('create-move')) * 1000 }, on_drop: onDrop };
    if (val('create-side') === 'blue') await createAsWhite(config);
    else await createWith(config);
    return;
  }
  const config = {
    name: val('create-name').trim() || null,
    game: { game: 'plane', variant: val('create-variant'), players: Number(val('create-players')),
      format: { rounds: Number(val('create-rounds')) }, first_attacker: 'rotating' },
    clock: { deploy_ms: Number(val('create-deploy')) * 1000, move_ms: Number(val('create-move')) * 1000 },
    on_drop: onDrop,
  };
  await createWith(config);
}

export async function createWith(config, bots = []) {
  try {
    const seated = await S.conn.request({ type: 'create_room', config, sit: true }, { waitSeated: true });
    addOwned(seated.room);
    S.mySeats.push({ room: seated.room, seat: seated.seat });
    go(`/room/${seated.room}`);
    for (const strategy of bots) {
      await S.conn.request({ type: 'add_bot', room: seated.room, strategy }).catch((err) => toast(errorText(err)));
    }
  } catch (err) {
    toast(`Could not create the room: ${errorText(err)}`);
  }
}

/** Creates a two-seat room without sitting, then takes the second seat (gomoku's white, junqi's blue). */
async function createAsWhite(config) {
  try {
    const created = await S.conn.request({ type: 'create_room', config, sit: false });
    addOwned(created.room);
    await joinRoom(created.room, 1);
  } catch (err) {
    toast(`Could not create the room: ${errorText(err)}`);
  }
}

export async function joinRoom(id, seat) {
  try {
    const seated = await S.conn.request({ type: 'join_room', room: id, seat });
    S.watching.delete(id);
    S.mySeats.push({ room: id, seat: seated.seat });
    go(`/room/${id}`);
  } catch (err) {
    toast(`Could not join: ${errorText(err)}`);
  }
}
