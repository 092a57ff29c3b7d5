// The lobby page: the live room list, the tournaments, and the create-room form; creating and
// joining rooms.
import * as G from './gomoku.js';
import { GAMES, pageModule } from './games.js';
import * as J from './junqi.js';
import { h } from './dom.js';
import * as L from './length.js';
import { hooks, S, addOwned, toast, errorText, formatText } from './state.js';
import { t } from './i18n.js';
import { LADDERS, ladderName } from './ladders.js';

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
    h('label', { for: 'create-opening' }, t('create.opening')),
    h('select', { id: 'create-opening', 'aria-describedby': 'create-opening-help' },
      h('option', { value: '', selected: true }, t('create.opening_none')),
      h('optgroup', { label: t('create.renju_openings') },
        G.OPENINGS.filter(([, , note]) => note !== 'seed formation')
          .map(([name, , note]) => h('option', { value: name }, G.openingLabel(name, note)))),
      h('optgroup', { label: t('create.formations') },
        G.OPENINGS.filter(([, , note]) => note === 'seed formation')
          .map(([name]) => h('option', { value: name }, G.openingLabel(name))))),
    h('small', { id: 'create-opening-help' }, t('create.opening_help')));
  const form = h('form', { id: 'create-form', class: 'card create', onsubmit: createRoom, 'data-game': game },
    h('h2', {}, t('create.title')),
    h('div', { class: 'field' }, h('label', { for: 'create-name' }, t('create.room_name')),
      h('input', { id: 'create-name', maxlength: 40, placeholder: t('create.room_placeholder', { name: S.name }) })),
    h('div', { class: 'field' }, h('label', { for: 'create-game' }, t('create.game')),
      h('select', { id: 'create-game', onchange: (e) => chooseGame(e.target.value) },
        [['plane', t('create.game_plane')], ['gomoku', t('create.game_gomoku')], ['junqi', t('create.game_junqi')],
          ...Object.keys(GAMES).map((g) => [g, t(`create.game_${g}`)])]
          .map(([v, t]) => h('option', { value: v, selected: v === game }, t)))),
    h('fieldset', { id: 'plane-fields', class: 'create-game', hidden: game !== 'plane', disabled: game !== 'plane' },
      h('legend', { class: 'sr-only' }, t('create.plane_settings')),
      sel('create-players', t('create.seats'), [['2', t('plane.players', { count: 2 })], ['3', t('plane.players', { count: 3 })]], '3'),
      sel('create-variant', t('create.variant'), [['double', t('create.variant_double')], ['classic', t('create.variant_classic')]], 'double'),
      sel('create-format', t('create.length'), [...L.FORMATS.map(([name, , label]) => [name, label]), ['custom', t('create.length_custom')]], L.SHORTEST),
      num('create-rounds', t('create.rounds'), L.roundsOf(L.SHORTEST), 1, 99, t('create.rounds_help')),
      h('p', { id: 'create-length', class: 'hint', 'aria-live': 'polite' }, L.lengthText(L.roundsOf(L.SHORTEST), 3, 'double')),
      num('create-deploy', t('create.deploy_seconds'), 60, 0, 600, t('create.no_limit'))),
    h('fieldset', { id: 'gomoku-fields', class: 'create-game', hidden: game !== 'gomoku', disabled: game !== 'gomoku' },
      h('legend', { class: 'sr-only' }, t('create.gomoku_settings')),
      sel('create-size', t('create.board'), [['15', '15×15'], ['19', '19×19']], '15'),
      sel('create-rule', t('create.rule'), G.RULES, 'freestyle'),
      openings,
      sel('create-colour', t('create.you_play'), [['black', t('create.black_first')], ['white', t('colour.white')]], 'black')),
    h('fieldset', { id: 'junqi-fields', class: 'create-game', hidden: game !== 'junqi', disabled: game !== 'junqi' },
      h('legend', { class: 'sr-only' }, t('create.junqi_settings')),
      num('create-no-attack', t('create.no_attack'), 31, 0, 31, t('create.no_attack_help')),
      num('create-junqi-deploy', t('create.deploy_seconds'), 180, 0, 600, t('create.junqi_deploy_help')),
      sel('create-side', t('create.you_play'), [['red', t('create.red_first')], ['blue', t('colour.blue')]], 'red')),
    ...Object.values(GAMES).map((mod) => h('fieldset', { id: `${mod.GAME}-fields`, class: 'create-game', hidden: game !== mod.GAME, disabled: game !== mod.GAME },
      h('legend', { class: 'sr-only' }, t(`create.game_${mod.GAME}`)), mod.createFields(h))),
    num('create-move', MOVE_FIELD[game].label, MOVE_FIELD[game].value, 0, 600, MOVE_FIELD[game].help),
    sel('create-on-drop', t('create.on_drop'), [['bot', t('create.on_drop_bot')], ['forfeit', t('create.on_drop_forfeit')], ['wait', t('create.on_drop_wait')]], 'bot'),
    num('create-grace', t('create.grace'), 60, 0, 3600, t('create.grace_help')),
    h('button', { id: 'create-submit', type: 'submit', class: 'primary' }, t('create.submit')));
  form.querySelector('#create-no-attack').addEventListener('input', (e) => e.target.setCustomValidity(''));
  wireFormat(form);
  main.replaceChildren(
    h('section', { id: 'lobby', class: 'lobby', 'data-page': 'lobby' },
      quickMatchCard(),
      h('div', { class: 'lobby-main' },
        h('div', { class: 'card rooms-card' },
          h('h1', {}, t('lobby.rooms')),
          h('p', { class: 'muted' }, t('lobby.rooms_intro')),
          h('div', { id: 'rooms', 'aria-live': 'polite' })),
        tournamentsCard(),
        laddersCard(),
        myGamesCard()),
      form));
  renderRooms();
  renderTournaments();
  refreshTournaments();
}

/** Quick match (快速开始): one button per game; the server seats the person in a waiting room or makes one. */
function quickMatchCard() {
  const names = { plane: t('game.plane'), gomoku: t('game.gomoku'), junqi: t('game.junqi'), tic_tac_toe: t('game.tic_tac_toe') };
  const games = ['plane', 'gomoku', 'junqi', ...Object.keys(GAMES)];
  return h('div', { class: 'card quick-match', id: 'quick-match' },
    h('h2', {}, t('quick.title')),
    h('p', { class: 'muted small', id: 'quick-match-help' }, t('quick.help', { seconds: QUICK_MATCH_WAIT_SECONDS })),
    h('div', { class: 'quick-buttons' }, games.map((game) => h('button', {
      type: 'button', class: 'primary', 'data-quick-match': game, 'aria-describedby': 'quick-match-help',
      onclick: (e) => quickMatch(game, e.currentTarget),
    }, names[game] || t(`create.game_${game}`)))));
}

/** The server's default quick-match wait in seconds (`--quick-match-wait-ms`), for the card's line. */
const QUICK_MATCH_WAIT_SECONDS = 15;

/** Asks the server for a seat in a waiting room of `game` (`quick_match`), and opens that room. */
async function quickMatch(game, button) {
  if (button.disabled) return;
  button.disabled = true;
  try {
    const name = t('quick.room_name', { game: button.textContent });
    const seated = await S.conn.request({ type: 'quick_match', game, name });
    S.watching.delete(seated.room);
    if (!S.mySeats.some((s) => s.room === seated.room)) S.mySeats.push({ room: seated.room, seat: seated.seat });
    go(`/room/${seated.room}`);
  } catch (err) {
    toast(t('quick.failed', { reason: errorText(err) }));
  } finally {
    button.disabled = false;
  }
}

/** Links to the standing bot ladders (ladder.html, one page per ladder). */
function laddersCard() {
  return h('div', { class: 'card ladders-card' },
    h('h2', {}, t('lobby.ladders')),
    h('p', { class: 'muted small' }, t('lobby.ladders_note')),
    h('ul', { class: 'ladder-links', id: 'ladder-links' }, LADDERS.map((id) => h('li', {},
      h('a', { href: `/ladder/${id}`, 'data-ladder': id }, ladderName(id))))));
}

/** A link to "My games" (my-games.html): this browser's finished games and their replays. */
function myGamesCard() {
  return h('div', { class: 'card my-games-card' },
    h('h2', {}, h('a', { href: '/my-games', id: 'my-games-link' }, t('mygames.title'))),
    h('p', { class: 'muted small' }, t('mygames.lobby_note')));
}

/** The lobby's list of tournaments (filled by renderTournaments). */
export function tournamentsCard() {
  return h('div', { class: 'card tournaments-card' },
    h('h2', {}, t('lobby.tournaments')),
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

export function renderTournaments() {
  const box = document.getElementById('tournaments');
  if (!box) return;
  const list = S.tournaments || [];
  if (!list.length) {
    box.replaceChildren(h('p', { class: 'empty small', 'data-tournaments-empty': true },
      t('lobby.no_tournaments')));
    return;
  }
  box.replaceChildren(h('table', { class: 'rooms' },
    h('caption', { class: 'sr-only' }, t('lobby.tournaments_caption')),
    h('thead', {}, h('tr', {}, [t('lobby.col_tournament'), t('lobby.col_game'), t('lobby.col_state'), t('lobby.col_matches')].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, list.slice(0, 20).map((x) => h('tr', { 'data-tournament-id': x.id, 'data-state': x.state },
      h('th', { scope: 'row' }, h('a', { href: `/tournament/${x.id}` }, x.name)),
      h('td', {}, ['plane', 'gomoku', 'junqi'].includes(x.game) ? t(`tournament.game.${x.game}`) : x.game),
      h('td', {}, h('span', { class: `badge ${x.state === 'running' ? 'playing' : x.state === 'cancelled' ? 'off' : 'ok'}` }, t(`tournament.state.${x.state}`))),
      h('td', { 'data-progress': `${x.finished}/${x.total}` }, `${x.finished}/${x.total}`,
        x.running ? h('small', {}, t('lobby.running', { n: x.running })) : null))))));
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
  plane: { label: t('create.shot_seconds'), value: 30, help: t('create.no_limit') },
  gomoku: { label: t('create.move_seconds'), value: 30, help: t('create.move_help') },
  junqi: { label: t('create.move_seconds'), value: 60, help: t('create.move_help') },
  ...Object.fromEntries(Object.values(GAMES).map((mod) => [mod.GAME,
    { label: t('create.move_seconds'), value: mod.MOVE_FIELD.value, help: t(mod.MOVE_FIELD.help) }])),
};

/** Shows the create-room form's settings for `game` ('plane', 'gomoku' or 'junqi'). */
function chooseGame(game) {
  const before = S.createGame || 'plane';
  S.createGame = game;
  const form = document.getElementById('create-form');
  if (!form) return;
  form.dataset.game = game;
  for (const [id, g] of [['plane-fields', 'plane'], ['gomoku-fields', 'gomoku'], ['junqi-fields', 'junqi'],
    ...Object.keys(GAMES).map((key) => [`${key}-fields`, key])]) {
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
  input.setCustomValidity(ok ? '' : t('create.no_attack_invalid'));
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
    box.replaceChildren(h('p', { class: 'empty', 'data-rooms-empty': true }, t('lobby.no_rooms')));
    return;
  }
  const rows = rooms.map((r) => {
    const c = roomCounts(r);
    const mine = r.seats.some((s) => s.occupant && s.occupant.player === S.player);
    const g = r.config.game;
    const [gameText, gameDetail] = pageModule(g.game) ? pageModule(g.game).lobbyText(g) : g.game === 'gomoku' ? G.lobbyText(g) : g.game === 'junqi' ? J.lobbyText(g)
      : [`${t('game.plane')} · ${t(`plane.variant.${g.variant}`)}`, formatText(g.format)];
    const status = r.status === 'waiting' ? t('lobby.waiting') : t('lobby.in_progress');
    return h('tr', { 'data-room-id': r.id, 'data-status': r.status },
      h('th', { scope: 'row' }, h('a', { href: `/room/${r.id}`, 'data-nav': true }, r.config.name || t('room.default_name'))),
      h('td', { 'data-game': g.game }, gameText, h('br'), h('small', {}, gameDetail)),
      h('td', { 'data-seats': `${c.taken}/${c.total}` }, `${c.taken}/${c.total}`, h('br'),
        h('small', {}, t('lobby.occupants', { humans: t('lobby.humans', { count: c.humans }), bots: t('lobby.bots', { count: c.bots }) }))),
      h('td', {}, h('span', { class: `badge ${r.status}` }, status),
        r.spectators ? h('small', {}, t('lobby.watching', { n: r.spectators })) : null),
      h('td', { class: 'actions' },
        mine ? h('button', { 'data-action': 'open', onclick: () => go(`/room/${r.id}`) }, t('lobby.rejoin'))
          : r.status === 'waiting' && c.taken < c.total
            ? h('button', { class: 'primary', 'data-action': 'join', onclick: () => joinRoom(r.id, null) }, t('lobby.join'))
            : null,
        !mine ? h('button', { 'data-action': 'watch', onclick: () => go(`/room/${r.id}`) }, r.status === 'waiting' ? t('lobby.open') : t('lobby.watch')) : null));
  });
  box.replaceChildren(h('table', { class: 'rooms' },
    h('caption', { class: 'sr-only' }, t('lobby.rooms')),
    h('thead', {}, h('tr', {}, [t('lobby.col_room'), t('lobby.col_game'), t('lobby.col_seats'), t('lobby.col_status'), ''].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows)));
}

/** The form's room name, else "<player>'s room" in the page's language (the server's default is English). */
function roomName() {
  return document.getElementById('create-name').value.trim() || t('create.room_placeholder', { name: S.name });
}

async function createRoom(e) {
  e.preventDefault();
  const val = (id) => document.getElementById(id).value;
  const onDrop = { grace_ms: Number(val('create-grace')) * 1000, then: val('create-on-drop') };
  const mod = pageModule(val('create-game'));
  if (mod) {
    await createWith({ name: roomName(), game: mod.configFromForm(val), clock: { move_ms: Number(val('create-move')) * 1000 }, on_drop: onDrop });
    return;
  }
  if (val('create-game') === 'gomoku') {
    const game = { game: 'gomoku', size: Number(val('create-size')), rule: val('create-rule') };
    if (val('create-opening')) game.opening = val('create-opening');
    const config = { name: roomName(), game, clock: { move_ms: Number(val('create-move')) * 1000 }, on_drop: onDrop };
    if (val('create-colour') === 'white') await createAsWhite(config);
    else await createWith(config);
    return;
  }
  if (val('create-game') === 'junqi') {
    const limit = noAttackLimit();
    if (limit == null) return;
    const config = { name: roomName(), game: { game: 'junqi', no_attack_limit: limit },
      clock: { deploy_ms: Number(val('create-junqi-deploy')) * 1000, move_ms: Number(val('create-move')) * 1000 }, on_drop: onDrop };
    if (val('create-side') === 'blue') await createAsWhite(config);
    else await createWith(config);
    return;
  }
  const config = {
    name: roomName(),
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
    toast(t('toast.create_failed', { reason: errorText(err) }));
  }
}

/** Creates a two-seat room without sitting, then takes the second seat (gomoku's white, junqi's blue). */
async function createAsWhite(config) {
  try {
    const created = await S.conn.request({ type: 'create_room', config, sit: false });
    addOwned(created.room);
    await joinRoom(created.room, 1);
  } catch (err) {
    toast(t('toast.create_failed', { reason: errorText(err) }));
  }
}

export async function joinRoom(id, seat) {
  try {
    const seated = await S.conn.request({ type: 'join_room', room: id, seat });
    S.watching.delete(id);
    S.mySeats.push({ room: id, seat: seated.seat });
    go(`/room/${id}`);
  } catch (err) {
    toast(t('toast.join_failed', { reason: errorText(err) }));
  }
}
