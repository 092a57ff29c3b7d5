// Skirmish's browser client: lobby, rooms, and the games' pages (plane battle here: deployment,
// attack, scoreboard; gomoku in gomoku.js; junqi in junqi.js). Plain ES module, no build.
import { Connection } from './net.js';
import * as P from './plane.js';
import * as G from './gomoku.js';
import { auditText, checkReveal, roundAudit } from './audit.js';
import * as J from './junqi.js';
import { h } from './dom.js';
import * as L from './length.js';
import * as A from './alert.js';
import * as C from './chat.js';

const NAME_KEY = 'skirmish.name';
const OWNED_KEY = 'skirmish.owned';
const NUMBERS_KEY = 'skirmish.gomoku.numbers';

/** Everything the page knows. */
const S = {
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


function owned() {
  try { return new Set(JSON.parse(localStorage.getItem(OWNED_KEY) || '[]')); } catch { return new Set(); }
}

function addOwned(id) {
  const set = owned();
  set.add(id);
  localStorage.setItem(OWNED_KEY, JSON.stringify([...set].slice(-50)));
}

let toastTimer = null;
function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 5000);
}

function errorText(err) {
  return err && err.message ? err.message : String(err && err.code || err);
}

function ordinal(n) {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

function fmtClock(ms) {
  if (ms == null) return '—';
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function formatText(format) {
  if (!format) return '';
  if (format.rounds != null) return plural(format.rounds, 'round');
  return `first to ${format.first_to}`;
}

/** The rules page's section for a room's game (docs/rules.md, served at /rules). */
function rulesLink(config) {
  const g = config.game || {};
  const [anchor, name] = g.game === 'gomoku' ? ['2-gomoku', 'gomoku']
    : g.game === 'junqi' ? ['3-junqi', 'junqi'] : ['1-plane-battle', 'plane battle'];
  return h('a', { href: `/rules#${anchor}`, target: '_blank', rel: 'noopener', 'data-rules-link': g.game || 'plane' },
    `Rules of ${name}`);
}

function configText(config) {
  const g = config.game;
  const clock = config.clock || {};
  if (g.game === 'gomoku') return G.configText(g, clock);
  if (g.game === 'junqi') return J.configText(g, clock);
  const move = clock.move_ms ? `${clock.move_ms / 1000}s per shot` : 'no shot clock';
  return `Plane battle · ${g.variant} · ${g.players} players · ${formatText(g.format)} · ${move}`;
}

// ---------------------------------------------------------------- room state

function roomState(id) {
  let rs = S.roomStates.get(id);
  if (!rs) {
    rs = { id, summary: null, you: null, seq: 0, view: null, deadlineAt: null, lastShot: null,
      log: [], revealed: null, firing: false, placing: null, confirmResign: false, deploy: { planes: [], facing: 'up', hover: null, sent: false } };
    S.roomStates.set(id, rs);
  }
  return rs;
}

function seatName(rs, seat) {
  const occ = rs.summary && rs.summary.seats[seat] && rs.summary.seats[seat].occupant;
  return occ ? occ.name : `Seat ${seat + 1}`;
}

function who(rs, seat) {
  return rs.you === seat ? 'You' : seatName(rs, seat);
}

/**
 * Adds a line to the room's event log. `opts.public`: the line names a rank everyone may know (a
 * revealed junqi flag); `opts.mine`: it names ranks of the player's own pieces only; the page marks
 * either as such.
 */
function logLine(rs, text, opts = {}) {
  rs.log.push(opts.public || opts.mine ? { text, public: Boolean(opts.public), mine: Boolean(opts.mine) } : text);
  if (rs.log.length > 300) rs.log.splice(0, rs.log.length - 300);
}

function phaseKey(view) {
  if (!view) return '';
  const p = view.phase;
  return `${view.round}/${p.phase}/${p.attacker ?? ''}`;
}

function isGomoku(rs) {
  return Boolean(rs.view && rs.view.game === 'gomoku');
}

function isJunqi(rs) {
  return Boolean(rs.view && rs.view.game === 'junqi');
}

/** A gomoku or junqi snapshot: the newer view wins; a change of turn drops the stale deadline. */
function turnSnapshot(rs, snap, turnKey) {
  const before = turnKey(rs.view);
  rs.summary = snap.room;
  rs.you = snap.you ?? null;
  if (snap.seq >= rs.seq || !rs.view) {
    rs.view = snap.view;
    rs.seq = snap.seq;
  }
  if (turnKey(rs.view) !== before) rs.deadlineAt = null;
}

function onSnapshot(snap) {
  const rs = roomState(snap.room.id);
  rs.commitments = snap.commitments || [];
  replayHistory(rs, snap);
  viewSnapshot(rs, snap);
  // The server's clock, so a page opened mid-turn shows the time left at once.
  const left = snapshotDeadline(snap);
  if (left != null) rs.deadlineAt = Date.now() + left;
}

/**
 * The milliseconds left that the page's clock shows after a snapshot: the viewer's own turn's,
 * else the soonest of the seats to act; null when no seat's clock runs.
 */
function snapshotDeadline(snap) {
  const d = snap.deadlines_ms || [];
  if (snap.you != null && d[snap.you] != null) return d[snap.you];
  const running = d.filter((ms) => ms != null);
  return running.length ? Math.min(...running) : null;
}

/**
 * A page that has no event log yet (just opened or reloaded) writes it from the snapshot's history:
 * the events this viewer was sent, applied to a scratch copy of the room so only their log lines
 * are kept.
 */
function replayHistory(rs, snap) {
  if (rs.log.length || !snap.history || !snap.history.length) return;
  const scratch = {
    ...rs, view: JSON.parse(JSON.stringify(snap.view)), summary: JSON.parse(JSON.stringify(snap.room)),
    you: snap.you ?? null, junqi: undefined, deploy: { planes: [], facing: 'up', hover: null, sent: false },
  };
  for (const { event } of snap.history) applyEvent(scratch, event);
}

function viewSnapshot(rs, snap) {
  if (snap.view.game === 'gomoku') { turnSnapshot(rs, snap, G.turnKey); return; }
  if (snap.view.game === 'junqi') { turnSnapshot(rs, snap, J.turnKey); return; }
  const before = phaseKey(rs.view);
  rs.summary = snap.room;
  rs.you = snap.you ?? null;
  if (snap.seq >= rs.seq || !rs.view) {
    if (rs.view && rs.view.round !== snap.view.round) rs.revealed = null;
    rs.view = snap.view;
    rs.seq = snap.seq;
  }
  if (phaseKey(rs.view) !== before) rs.deadlineAt = null;
  if (rs.you != null && rs.view.boards[rs.you] && rs.view.boards[rs.you].planes) rs.deploy.sent = true;
}

function onEvent(msg) {
  const rs = roomState(msg.room);
  if (msg.seq <= rs.seq || !rs.view) return;
  rs.seq = msg.seq;
  applyEvent(rs, msg.event);
}

/** Applies one event to the room state `rs` (its view, clock and log). */
function applyEvent(rs, ev) {
  const v = rs.view;
  const clock = rs.summary ? rs.summary.config.clock || {} : {};
  if (ev.game === 'gomoku') {
    if (isGomoku(rs)) G.applyEvent(rs, ev, clock.move_ms || 0, gameUi(rs));
    return;
  }
  if (ev.game === 'junqi') {
    if (isJunqi(rs)) J.applyEvent(rs, ev, clock, gameUi(rs));
    return;
  }
  switch (ev.kind) {
    case 'round_started': {
      v.round = ev.round;
      v.extra = ev.extra;
      v.phase = { phase: 'deploy', ready: [] };
      v.boards.forEach((b) => {
        b.playing = ev.players.includes(b.seat);
        b.knocked_out = false; b.shots = []; b.downed = []; b.planes = null; b.points = 0;
      });
      rs.revealed = null;
      rs.lastShot = null;
      rs.deploy = { planes: [], facing: rs.deploy.facing, hover: null, sent: false };
      rs.deadlineAt = clock.deploy_ms ? Date.now() + clock.deploy_ms : null;
      const label = ev.extra ? 'Extra round (tie-break)' : `Round ${ev.round + 1}`;
      logLine(rs, `${label} starts; ${who(rs, ev.first_attacker)} will fire first. Deploy!`);
      break;
    }
    case 'ready':
      if (v.phase.phase === 'deploy' && !v.phase.ready.includes(ev.seat)) v.phase.ready.push(ev.seat);
      logLine(rs, ev.by_default
        ? `${who(rs, ev.seat)} ran out of time: planes placed at random.`
        : `${who(rs, ev.seat)} ${rs.you === ev.seat ? 'are' : 'is'} ready.`);
      break;
    case 'deployment':
      v.boards[ev.seat].planes = ev.planes;
      rs.deploy.sent = true;
      break;
    case 'turn':
      v.phase = { phase: 'attack', attacker: ev.attacker };
      rs.deadlineAt = clock.move_ms ? Date.now() + clock.move_ms : null;
      rs.firing = false;
      break;
    case 'shot': {
      const b = v.boards[ev.target];
      b.shots.push({ by: ev.attacker, cell: ev.cell, result: ev.result });
      if (ev.plane) b.downed.push(ev.plane);
      if (ev.knocked_out) b.knocked_out = true;
      v.boards[ev.attacker].points += ev.points;
      v.totals[ev.attacker] += ev.points;
      rs.lastShot = { target: ev.target, cell: ev.cell };
      rs.firing = false;
      let text = `${who(rs, ev.attacker)} fired at ${rs.you === ev.target ? 'you' : seatName(rs, ev.target)} ${ev.cell}: ${ev.result}`;
      if (ev.result === 'down') text += ev.knocked_out ? ' — last plane down, knocked out' : ' — plane shot down';
      if (ev.points) text += ` (+${ev.points})`;
      if (ev.by_default) text += ' [time ran out: random shot]';
      logLine(rs, text);
      break;
    }
    case 'round_ended': {
      const r = ev.result;
      v.history.push(r);
      v.totals = ev.totals;
      v.round_wins[r.survivor] += 1;
      rs.revealed = r.deployments;
      rs.deadlineAt = null;
      const pts = r.points.map((p, s) => `${seatName(rs, s)} ${p}`).join(', ');
      logLine(rs, `${r.extra ? 'Extra round' : `Round ${r.round + 1}`} over: ${who(rs, r.survivor)} survived. Points: ${pts}.`);
      break;
    }
    case 'match_ended': {
      const o = ev.outcome;
      v.outcome = o;
      v.phase = { phase: 'over' };
      v.totals = o.totals;
      v.round_wins = o.round_wins;
      rs.deadlineAt = null;
      if (rs.summary) rs.summary.status = 'finished';
      logLine(rs, `Match over: ${who(rs, o.winner)} won with ${plural(o.totals[o.winner], 'point')}.`);
      break;
    }
    default:
      break;
  }
}

function onCommitment(msg) {
  const rs = roomState(msg.room);
  rs.commitments = rs.commitments || [];
  if (rs.commitments.some((c) => c.seat === msg.seat && c.round === msg.round)) return;
  rs.commitments.push({ seat: msg.seat, round: msg.round, sha256: msg.sha256 });
  const entry = roundAudit(rs, msg.round, auditLabel(rs, msg.round));
  entry.committed += 1;
  entry.details.push(`The referee committed to ${seatName(rs, msg.seat)}'s deployment (SHA-256 ${msg.sha256.slice(0, 12)}…).`);
}

/** What a round's audit line is about: a plane battle round, or junqi's two layouts. */
function auditLabel(rs, round) {
  return isJunqi(rs) ? 'Layouts' : `Round ${round + 1}`;
}

/** The deployment the game itself revealed for `seat` in `round`, if it has. */
function gameRevealed(rs, seat, round) {
  const v = rs.view;
  if (!v) return undefined;
  if (v.game === 'junqi') return v.outcome ? v.outcome.layouts[seat] ?? undefined : undefined;
  const r = (v.history || []).find((h) => h.round === round);
  return r ? r.deployments[seat] : undefined;
}

/** Checks a reveal against its commitment and the game's own reveal, and says so in the log. */
async function onReveal(msg) {
  const rs = roomState(msg.room);
  const check = await checkReveal(rs.commitments || [], msg, gameRevealed(rs, msg.seat, msg.round));
  rs.audit = rs.audit || { verified: 0, failed: 0 };
  const whose = `${seatName(rs, msg.seat)}'s deployment`;
  const entry = roundAudit(rs, msg.round, auditLabel(rs, msg.round));
  if (check.ok) {
    rs.audit.verified += 1;
    entry.verified += 1;
    entry.details.push(`✓ ${whose} matches the referee's commitment.`);
  } else if (check.ok === null) {
    entry.details.push(`${whose} was revealed, but ${check.why}.`);
  } else {
    rs.audit.failed += 1;
    logLine(rs, `✗ ${whose}: ${check.why}. The referee cannot be trusted here.`);
  }
  if (S.page === 'room') renderRoom();
}

function onYourTurn(msg) {
  const rs = roomState(msg.room);
  if (msg.view) rs.view = msg.view;
  rs.you = rs.you ?? msg.seat;
  rs.deadlineAt = msg.deadline_ms != null ? Date.now() + msg.deadline_ms : null;
  rs.firing = false;
  rs.placing = null;
}

// ---------------------------------------------------------------- messages

function onMessage(msg) {
  switch (msg.type) {
    case 'welcome':
      S.player = msg.player;
      S.mySeats = msg.seats || [];
      afterWelcome();
      return;
    case 'rooms':
      S.rooms = msg.rooms;
      if (S.page === 'lobby') renderRooms();
      return;
    case 'bots':
      S.bots = msg.bots;
      break;
    case 'room':
      onSnapshot(msg);
      break;
    case 'event':
      onEvent(msg);
      break;
    case 'your_turn':
      onYourTurn(msg);
      break;
    case 'commitment':
      onCommitment(msg);
      break;
    case 'chat':
      C.onChat(roomState(msg.room), msg);
      break;
    case 'reveal':
      onReveal(msg);
      return;
    case 'error':
      if (msg.code !== 'bad_resume') toast(`Refused: ${msg.message} (${msg.code})`);
      for (const rs of S.roomStates.values()) { rs.firing = false; rs.placing = null; }
      break;
    default:
      return;
  }
  if (S.page === 'room') renderRoom();
}

function afterWelcome() {
  S.conn.request({ type: 'list_bots' }).catch(() => {});
  if (S.page === 'room') {
    const seated = S.mySeats.some((s) => s.room === S.roomId);
    if (!seated) spectate(S.roomId);
  } else {
    refreshRooms();
  }
}

function spectate(id) {
  S.watching.add(id);
  S.conn.request({ type: 'spectate', room: id }).catch((e) => {
    S.watching.delete(id);
    const rs = roomState(id);
    rs.missing = errorText(e);
    if (S.page === 'room' && S.roomId === id) renderRoom();
  });
}

function refreshRooms() {
  if (S.connState === 'open') S.conn.request({ type: 'list_rooms' }).catch(() => {});
}

// ---------------------------------------------------------------- navigation

function go(path) {
  if (location.pathname !== path) history.pushState({}, '', path);
  route();
}

function route() {
  const m = location.pathname.match(/^\/room\/([0-9a-fA-F-]{36})\/?$/);
  const main = document.getElementById('main');
  if (!S.name) {
    S.page = 'name';
    // A room's link (a tournament's Watch link, a shared link) says what is there, and lets a
    // visitor watch at once under a guest name.
    main.replaceChildren(h('section', { class: 'card', id: 'welcome', 'data-room-link': m ? m[1].toLowerCase() : null },
      h('h1', {}, 'Skirmish: plane battle, gomoku and junqi'),
      m ? h('p', {}, 'A match is played in this room, and you can watch it now. To play, choose a display name above (it is kept in this browser).')
        : h('p', {}, 'Choose a display name above to play. It is kept in this browser.'),
      m ? h('p', {}, h('button', { id: 'watch-guest', class: 'primary', onclick: watchAsGuest }, 'Watch as a guest')) : null),
    tournamentsCard());
    renderTournaments();
    refreshTournaments();
    document.getElementById('name-input').focus();
    return;
  }
  if (m) {
    const id = m[1].toLowerCase();
    for (const w of S.watching) if (w !== id) leaveWatch(w);
    S.page = 'room';
    S.roomId = id;
    const rs = roomState(id);
    if (!rs.view && S.connState === 'open' && !S.mySeats.some((s) => s.room === id)) spectate(id);
    if (S.connState === 'open') S.conn.request({ type: 'list_bots' }).catch(() => {});
    main.replaceChildren();
    renderRoom();
  } else {
    for (const w of S.watching) leaveWatch(w);
    A.turnAlert(false);
    S.page = 'lobby';
    S.roomId = null;
    renderLobby();
    refreshRooms();
  }
}

/** Picks a guest display name (kept like a chosen one) and opens the room the page points at. */
function watchAsGuest() {
  const name = `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
  document.getElementById('name-input').value = name;
  document.getElementById('name-form').requestSubmit();
}

function leaveWatch(id) {
  S.watching.delete(id);
  const rs = S.roomStates.get(id);
  if (rs && rs.you == null) {
    S.roomStates.delete(id);
    if (S.connState === 'open') S.conn.request({ type: 'leave_room', room: id }).catch(() => {});
  }
}

// ---------------------------------------------------------------- lobby

function renderLobby() {
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
function tournamentsCard() {
  return h('div', { class: 'card tournaments-card' },
    h('h2', {}, 'Tournaments'),
    h('div', { id: 'tournaments' }));
}

/** Reads the tournaments (`GET /api/tournaments`, newest first) for the lobby's list. */
function refreshTournaments() {
  fetch('/api/tournaments', { cache: 'no-store' })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
    .then((list) => {
      S.tournaments = Array.isArray(list) ? list : [];
      if (S.page === 'lobby' || S.page === 'name') renderTournaments();
    })
    .catch(() => {});
}

const TOURNAMENT_GAMES = { plane: 'plane battle', gomoku: 'gomoku', junqi: 'junqi' };

function renderTournaments() {
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

function roomCounts(summary) {
  let humans = 0; let bots = 0;
  for (const s of summary.seats) {
    if (!s.occupant) continue;
    if (s.occupant.bot != null) bots += 1; else humans += 1;
  }
  return { humans, bots, taken: humans + bots, total: summary.seats.length };
}

function renderRooms() {
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

async function createWith(config, bots = []) {
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

async function joinRoom(id, seat) {
  try {
    const seated = await S.conn.request({ type: 'join_room', room: id, seat });
    S.watching.delete(id);
    S.mySeats.push({ room: id, seat: seated.seat });
    go(`/room/${id}`);
  } catch (err) {
    toast(`Could not join: ${errorText(err)}`);
  }
}

// ---------------------------------------------------------------- room page

function renderRoom() {
  const main = document.getElementById('main');
  const rs = roomState(S.roomId);
  const focused = document.activeElement && document.activeElement.id;
  const scrollLog = document.getElementById('log');
  const stick = !scrollLog || scrollLog.scrollTop + scrollLog.clientHeight >= scrollLog.scrollHeight - 8;
  if (!rs.view || !rs.summary) {
    main.replaceChildren(h('section', { id: 'room', class: 'card', 'data-room-id': S.roomId, 'data-phase': 'loading' },
      h('h1', {}, 'Room'),
      h('p', {}, rs.missing ? `This room cannot be opened: ${rs.missing}` : 'Connecting to the room…'),
      h('p', {}, h('a', { href: '/', 'data-nav': true }, 'Back to the lobby'))));
    return;
  }
  main.replaceChildren(isGomoku(rs) ? gomokuSection(rs) : isJunqi(rs) ? junqiSection(rs) : planeSection(rs));
  if (focused) {
    const el = document.getElementById(focused);
    if (el) el.focus({ preventScroll: true });
  }
  const log = document.getElementById('log');
  if (log && stick) log.scrollTop = log.scrollHeight;
  const moves = document.getElementById('moves');
  if (moves) moves.scrollTop = moves.scrollHeight;
  const chat = document.getElementById('chat-lines');
  if (chat) chat.scrollTop = chat.scrollHeight;
  tick();
  A.turnAlert(Boolean(document.querySelector('#status.mine, #deploy[data-deploy-state="placing"]')));
}

function planeSection(rs) {
  const v = rs.view;
  const status = rs.summary.status;
  const phase = status === 'waiting' ? 'waiting' : v.phase.phase;
  return h('section', {
    id: 'room', class: `room phase-${phase}`, 'data-room-id': rs.id, 'data-status': status,
    'data-phase': phase, 'data-you': rs.you ?? '', 'data-round': v.round, 'data-revealed': rs.revealed ? 'true' : null,
  },
  roomHeader(rs),
  statusBar(rs, phase),
  phase === 'over' ? finalPanel(rs) : null,
  phase !== 'waiting' ? h('div', { class: 'boards', id: 'boards' }, v.boards.map((b) => boardEl(rs, b, boardOrder(rs, phase, b)))) : null,
  phase === 'deploy' && rs.you != null ? deployPanel(rs) : null,
  phase !== 'waiting' ? legend() : null,
  seatsPanel(rs),
  h('div', { class: 'side' }, phase !== 'waiting' ? scoreboard(rs) : null, logPanel(rs)),
  chatPanel(rs));
}

/** The room's chat card (chat.js), sending through the connection. */
function chatPanel(rs) {
  return C.chatPanel(rs, h, (text) => S.conn.request({ type: 'chat', room: rs.id, text })
    .catch((e) => { toast(`Not sent: ${errorText(e)}`); throw e; }));
}

/**
 * Where a board shows among the boards (its CSS `order`; the document keeps seat order): while
 * deploying, the player's own board first (it is the one to work on); otherwise the opponents'
 * first (the ones to fire at), the own last.
 */
function boardOrder(rs, phase, b) {
  if (rs.you == null || b.seat !== rs.you) return 0;
  return phase === 'deploy' ? -1 : 1;
}

// ---------------------------------------------------------------- gomoku room

/** The helpers gomoku.js and junqi.js draw and act with, bound to one room. */
function gameUi(rs) {
  return {
    h,
    you: rs.you,
    who: (seat) => who(rs, seat),
    seatName: (seat) => seatName(rs, seat),
    log: (text, opts) => logLine(rs, text, opts),
    act: (action) => S.conn.send({ type: 'act', room: rs.id, action }),
    render: renderRoom,
    showNumbers: S.showNumbers,
    setNumbers: (on) => { S.showNumbers = on; localStorage.setItem(NUMBERS_KEY, String(on)); renderRoom(); },
    focus: S.gomokuFocus,
    setFocus: (point) => { S.gomokuFocus = point; },
    rematch: () => rematch(rs),
    toLobby: () => go('/'),
  };
}

function gomokuSection(rs) {
  const v = rs.view;
  const ui = gameUi(rs);
  const status = rs.summary.status;
  const phase = G.phaseOf(v, status);
  const { text, turn } = G.statusText(rs, phase, ui);
  return h('section', {
    id: 'room', class: `room gomoku phase-${phase}`, 'data-room-id': rs.id, 'data-game': 'gomoku',
    'data-status': status, 'data-phase': phase, 'data-you': rs.you ?? '', 'data-moves': v.moves.length,
    'data-to-move': v.to_move ?? '', 'data-winner': v.outcome ? v.outcome.winner ?? 'draw' : null,
  },
  roomHeader(rs),
  h('div', { class: `status ${turn !== '' && turn === String(rs.you) ? 'mine' : ''}`, id: 'status', role: 'status', 'data-turn': turn },
    h('span', { id: 'status-text' }, phase === 'waiting' ? waitingText(rs) : text),
    phase === 'play'
      ? h('span', { class: 'clock' }, 'Time left ', h('span', { id: 'clock', 'data-clock': true }, fmtClock(rs.deadlineAt && rs.deadlineAt - Date.now())))
      : null),
  phase !== 'waiting'
    ? h('div', { class: 'gomoku-play' }, G.boardEl(rs, ui),
      h('div', { class: 'gomoku-aside' }, phase === 'over' ? G.resultPanel(rs, ui) : null, G.sidePanel(rs, ui), G.moveList(rs, ui)))
    : null,
  seatsPanel(rs),
  logPanel(rs),
  chatPanel(rs));
}

// ---------------------------------------------------------------- junqi room

function junqiSection(rs) {
  const v = rs.view;
  const ui = gameUi(rs);
  const status = rs.summary.status;
  const phase = J.phaseOf(v, status);
  const { text, turn } = J.statusText(rs, phase, ui);
  const deploying = phase === 'deploying' && J.mustDeploy(rs);
  return h('section', {
    id: 'room', class: `room junqi phase-${phase}`, 'data-room-id': rs.id, 'data-game': 'junqi',
    'data-status': status, 'data-phase': phase, 'data-you': rs.you ?? '', 'data-moves': v.moves.length,
    'data-to-move': v.to_move ?? '', 'data-winner': v.outcome ? v.outcome.winner ?? 'draw' : null,
  },
  roomHeader(rs),
  h('div', { class: `status ${turn !== '' && (turn === String(rs.you) || deploying) ? 'mine' : ''}`, id: 'status', role: 'status', 'data-turn': turn },
    h('span', { id: 'status-text' }, phase === 'waiting' ? waitingText(rs) : text),
    phase === 'deploying' || phase === 'battle'
      ? h('span', { class: 'clock' }, 'Time left ', h('span', { id: 'clock', 'data-clock': true }, fmtClock(rs.deadlineAt && rs.deadlineAt - Date.now())))
      : null),
  phase !== 'waiting'
    ? h('div', { class: 'junqi-play' },
      deploying ? J.deployEditor(rs, ui) : J.boardEl(rs, ui),
      h('div', { class: 'junqi-aside' }, phase === 'over' ? J.resultPanel(rs, ui) : null, J.sidePanel(rs, ui), J.moveList(rs, ui)))
    : null,
  phase === 'over' ? J.layoutsPanel(rs, ui) : null,
  seatsPanel(rs),
  logPanel(rs),
  chatPanel(rs));
}

function waitingText(rs) {
  const c = roomCounts(rs.summary);
  return `Waiting for players: ${c.taken} of ${c.total} seats taken. The match starts when every seat is taken.`;
}

function roomHeader(rs) {
  const url = `${location.origin}/room/${rs.id}`;
  return h('div', { class: 'room-head' },
    h('div', {},
      h('h1', { id: 'room-name' }, rs.summary.config.name || 'Room'),
      h('p', { class: 'muted' }, configText(rs.summary.config),
        rs.you == null ? h('strong', { 'data-spectator': true }, ' · watching') : null,
        rs.summary.spectators ? ` · ${rs.summary.spectators} watching` : null,
        ' · ', rulesLink(rs.summary.config))),
    h('div', { class: 'share' },
      h('label', { for: 'share-link' }, 'Share'),
      h('input', { id: 'share-link', readonly: true, value: url, onfocus: (e) => e.target.select() }),
      h('button', { id: 'share-copy', type: 'button', onclick: () => copyLink(url) }, 'Copy link'),
      rs.you != null ? h('label', { class: 'sound' },
        h('input', { type: 'checkbox', id: 'sound-toggle', checked: A.soundOn(), onchange: (e) => A.setSound(e.target.checked) }),
        ' Sound on my turn') : null,
      h('button', { id: 'room-leave', type: 'button', onclick: () => leaveRoom(rs) },
        rs.you != null && rs.summary.status === 'waiting' ? 'Leave seat' : 'Lobby')));
}

async function copyLink(url) {
  try { await navigator.clipboard.writeText(url); toast('Link copied.'); } catch {
    const input = document.getElementById('share-link');
    input.focus(); input.select();
    toast('Press Ctrl+C to copy the selected link.');
  }
}

async function leaveRoom(rs) {
  if (rs.you != null && rs.summary.status === 'waiting') {
    await S.conn.request({ type: 'leave_room', room: rs.id }).catch((e) => toast(errorText(e)));
    S.mySeats = S.mySeats.filter((s) => s.room !== rs.id);
    S.roomStates.delete(rs.id);
  }
  go('/');
}

function roundLabel(v) {
  const f = v.config.format;
  if (v.extra) return 'Extra round (tie-break)';
  return f.rounds != null ? `Round ${v.round + 1} of ${f.rounds}` : `Round ${v.round + 1} (first to ${f.first_to})`;
}

function statusBar(rs, phase) {
  const v = rs.view;
  let text;
  let turn = '';
  if (phase === 'waiting') {
    text = waitingText(rs);
  } else if (phase === 'deploy') {
    const waiting = v.boards.filter((b) => b.playing && !v.phase.ready.includes(b.seat)).map((b) => who(rs, b.seat));
    text = `${roundLabel(v)} · deploying. Still placing: ${waiting.join(', ') || 'nobody'}.`;
    turn = 'deploy';
  } else if (phase === 'attack') {
    const a = v.phase.attacker;
    text = a === rs.you ? `${roundLabel(v)} · Your turn: pick an opponent's cell.` : `${roundLabel(v)} · ${seatName(rs, a)} is attacking.`;
    turn = String(a);
  } else {
    const o = v.outcome;
    text = o ? `Match over: ${who(rs, o.winner)} won.` : 'Match over.';
  }
  return h('div', { class: `status ${turn === String(rs.you) ? 'mine' : ''}`, id: 'status', role: 'status', 'data-turn': turn },
    h('span', { id: 'status-text' }, text),
    phase === 'deploy' || phase === 'attack'
      ? h('span', { class: 'clock' }, 'Time left ', h('span', { id: 'clock', 'data-clock': true }, fmtClock(rs.deadlineAt && rs.deadlineAt - Date.now())))
      : null);
}

function seatsPanel(rs) {
  const isOwner = rs.summary.owner === S.player || owned().has(rs.id);
  const seated = rs.you != null;
  const waiting = rs.summary.status === 'waiting';
  const game = rs.summary.config.game.game;
  const items = rs.summary.seats.map((s) => {
    const occ = s.occupant;
    const label = game === 'gomoku' ? `${s.seat === 0 ? 'Black' : 'White'} (seat ${s.seat + 1})`
      : game === 'junqi' ? `${s.seat === 0 ? 'Red' : 'Blue'} (seat ${s.seat + 1})` : `Seat ${s.seat + 1}`;
    let body;
    if (occ) {
      body = h('span', {},
        h('strong', {}, occ.name), occ.player === S.player ? ' (you)' : '',
        occ.bot != null ? h('span', { class: 'badge bot' }, `bot: ${occ.bot}`) : null,
        occ.took_over_from != null ? h('span', { class: 'badge', 'data-took-over-from': true }, `took over from ${occ.took_over_from}`) : null,
        !occ.connected ? h('span', { class: 'badge off' }, 'disconnected') : null);
    } else {
      const strategies = botStrategies(game);
      const choice = botChoice(game, s.seat);
      body = h('span', { class: 'seat-actions' },
        h('em', {}, 'empty'),
        !seated ? h('button', { id: `sit-${s.seat}`, class: 'primary', 'data-action': 'sit', onclick: () => joinRoom(rs.id, s.seat) }, 'Sit here') : null,
        isOwner && waiting ? h('span', { class: 'addbot' },
          h('label', { for: `bot-${s.seat}`, class: 'sr-only' }, `Bot strategy for seat ${s.seat + 1}`),
          h('select', { id: `bot-${s.seat}`, 'data-bot-strategy': s.seat, onchange: (e) => { S.botChoice[s.seat] = e.target.value; } },
            strategies.map((st) => h('option', { value: st, selected: st === choice }, st))),
          h('button', { id: `addbot-${s.seat}`, 'data-action': 'add-bot', onclick: () => addBot(rs, s.seat) }, 'Add bot')) : null);
    }
    return h('li', { 'data-seat-row': s.seat, 'data-occupied': occ ? 'true' : 'false' }, h('span', { class: 'seat-no' }, label), body);
  });
  return h('div', { class: 'card seats' },
    h('h2', {}, 'Seats'),
    h('ul', { class: 'seat-list' }, items),
    waiting && isOwner ? h('p', {}, h('button', { id: 'start-now', onclick: () => startNow(rs) }, 'Start now (bots fill empty seats)')) : null,
    waiting && !isOwner ? h('p', { class: 'muted', id: 'bots-note' }, 'The room\'s creator can add bots to empty seats.') : null);
}

/** The strategies the connected bots offer for `game`, strongest first (each bot's offer lists them per game). */
function botStrategies(game) {
  const list = [...new Set(S.bots.flatMap((b) => b.offer.games[game] || []))];
  return list.length ? list : [game === 'plane' ? 'bayes' : 'random'];
}

/** The strategy picked for a seat's bot: the page's choice if the game has it, else the strongest. */
function botChoice(game, seat) {
  const list = botStrategies(game);
  return list.includes(S.botChoice[seat]) ? S.botChoice[seat] : list[0];
}

async function addBot(rs, seat) {
  const strategy = botChoice(rs.summary.config.game.game, seat);
  await S.conn.request({ type: 'add_bot', room: rs.id, seat, strategy }).catch((e) => toast(`No bot: ${errorText(e)}`));
}

async function startNow(rs) {
  await S.conn.request({ type: 'start', room: rs.id }).catch((e) => toast(`Cannot start: ${errorText(e)}`));
}

// ---------------------------------------------------------------- boards

function legend() {
  return h('p', { class: 'legend', 'aria-hidden': 'true' },
    h('span', { class: 'cell mini shot-miss' }, '○'), ' miss ',
    h('span', { class: 'cell mini shot-hit' }, '✕'), ' hit ',
    h('span', { class: 'cell mini shot-down' }, '✹'), ' head: plane down ',
    h('span', { class: 'cell mini plane' }), ' plane ',
    h('span', { class: 'cell mini plane head' }, '▲'), ' head');
}

function canFire(rs, b) {
  const v = rs.view;
  return v.phase.phase === 'attack' && v.phase.attacker === rs.you && rs.you != null
    && b.seat !== rs.you && b.playing && !b.knocked_out && !rs.firing;
}

function boardEl(rs, b, order = 0) {
  const v = rs.view;
  const side = P.sideOf(v.config.variant);
  const name = who(rs, b.seat);
  const owner = rs.you === b.seat ? 'Your' : `${seatName(rs, b.seat)}'s`;
  const shots = new Map(b.shots.map((s) => [s.cell, s.result]));
  const downed = P.cellMap(b.downed);
  const own = P.cellMap(b.planes);
  const revealed = P.cellMap(rs.revealed && rs.revealed[b.seat]);
  const deploying = v.phase.phase === 'deploy' && rs.you === b.seat && !rs.deploy.sent && b.playing;
  const pending = deploying ? P.cellMap(rs.deploy.planes) : new Map();
  const fireable = canFire(rs, b);
  const attacker = v.phase.phase === 'attack' && v.phase.attacker === b.seat;
  const cells = [];
  cells.push(h('span', { class: 'corner', 'aria-hidden': 'true' }));
  for (let c = 0; c < side; c++) cells.push(h('span', { class: 'colh', 'aria-hidden': 'true' }, String.fromCharCode(65 + c)));
  for (let r = 0; r < side; r++) {
    cells.push(h('span', { class: 'rowh', 'aria-hidden': 'true' }, String(r + 1)));
    for (let c = 0; c < side; c++) {
      const cell = P.cellName(r, c);
      const key = `${r},${c}`;
      const shot = shots.get(cell);
      let plane = null;
      let head = false;
      let facing = null;
      for (const [kind, map] of [['downed', downed], ['own', own], ['revealed', revealed], ['pending', pending]]) {
        const m = map.get(key);
        if (m) { plane = kind; head = m.head; facing = m.facing; break; }
      }
      const words = [];
      if (shot === 'miss') words.push('miss');
      if (shot === 'hit') words.push('hit');
      if (shot === 'down') words.push('head hit, plane down');
      if (plane === 'own' || plane === 'pending') words.push(head ? 'your plane\'s head' : 'your plane');
      if (plane === 'downed' && shot !== 'down') words.push(head ? 'downed plane\'s head' : 'downed plane');
      if (plane === 'revealed') words.push(head ? 'revealed plane\'s head' : 'revealed plane');
      if (!words.length) words.push(rs.you === b.seat ? 'empty' : 'unknown');
      const last = rs.lastShot && rs.lastShot.target === b.seat && rs.lastShot.cell === cell;
      const open = fireable && !shot && !(plane === 'downed');
      const symbol = shot === 'miss' ? '○' : shot === 'hit' ? '✕' : shot === 'down' ? '✹' : head && plane ? P.HEAD_ARROWS[facing] || '▲' : '';
      const cls = ['cell', shot ? `shot-${shot}` : '', plane ? `plane plane-${plane}` : '', head && plane ? 'head' : '', last ? 'last' : '', open ? 'open' : ''].filter(Boolean).join(' ');
      cells.push(h('button', {
        type: 'button', class: cls, id: `c-${b.seat}-${cell}`,
        'data-cell': cell, 'data-row': r, 'data-col': c,
        'data-shot': shot || null, 'data-plane': plane, 'data-head': plane && head ? 'true' : null,
        'data-facing': plane && head ? facing : null,
        'data-last': last ? 'true' : null, 'data-fireable': open ? 'true' : null,
        'aria-label': `${owner} board, ${cell}, ${words.join(', ')}${last ? ', last shot' : ''}`,
        'aria-disabled': !(open || deploying) ? 'true' : null,
        tabindex: -1,
      }, symbol));
    }
  }
  const grid = h('div', {
    class: `grid side-${side}`, style: `--side:${side}`, role: 'group',
    'aria-label': `${owner} board`, 'data-grid': b.seat,
    onkeydown: (e) => gridKey(e, rs, b, side),
    onclick: (e) => {
      const cell = e.target.closest('[data-cell]');
      if (!cell) return;
      if (deploying) deployClick(rs, cell.dataset.cell);
      else if (fireable && cell.dataset.fireable) fire(rs, b.seat, cell.dataset.cell);
    },
    onmouseover: deploying ? (e) => { const cell = e.target.closest('[data-cell]'); if (cell) deployHover(rs, cell.dataset.cell); } : null,
    onfocusin: deploying ? (e) => { const cell = e.target.closest('[data-cell]'); if (cell) deployHover(rs, cell.dataset.cell); } : null,
    onmouseleave: deploying ? () => deployHover(rs, null) : null,
  }, cells);
  // One tab stop per board: the focused cell, or the first open one, or A1.
  const focusable = fireable || deploying;
  if (focusable) {
    const prev = S.gridFocus && S.gridFocus[b.seat];
    const target = (prev && grid.querySelector(`[data-cell="${prev}"]`)) || grid.querySelector('[data-fireable]') || grid.querySelector('[data-cell]');
    if (target) target.tabIndex = 0;
  }
  const playing = b.playing ? (b.knocked_out ? 'knocked out' : '') : 'not in this round';
  const ready = v.phase.phase === 'deploy' && b.playing ? (v.phase.ready.includes(b.seat) ? 'ready' : 'deploying…') : '';
  return h('figure', {
    class: `board ${b.knocked_out ? 'out' : ''} ${attacker ? 'attacking' : ''} ${fireable ? 'target' : ''} ${rs.you === b.seat ? 'mine' : ''}`,
    'data-board': b.seat, 'data-knocked-out': b.knocked_out ? 'true' : 'false', 'data-target': fireable ? 'true' : null,
    style: order ? `order: ${order}` : null,
  },
  h('figcaption', {},
    h('strong', {}, name), rs.you === b.seat ? ' (your board)' : '',
    attacker ? h('span', { class: 'badge turn' }, '▶ attacking') : null,
    playing ? h('span', { class: 'badge out' }, playing) : null,
    ready ? h('span', { class: `badge ${ready === 'ready' ? 'ok' : ''}`, 'data-ready': ready }, ready) : null,
    h('span', { class: 'pts' }, `${b.points} pt${b.points === 1 ? '' : 's'} this round`)),
  grid);
}

function gridKey(e, rs, b, side) {
  const cell = e.target.closest('[data-cell]');
  if (!cell) return;
  let r = Number(cell.dataset.row);
  let c = Number(cell.dataset.col);
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[e.key]) {
    e.preventDefault();
    r = Math.min(side - 1, Math.max(0, r + moves[e.key][0]));
    c = Math.min(side - 1, Math.max(0, c + moves[e.key][1]));
    const next = e.currentTarget.querySelector(`[data-cell="${P.cellName(r, c)}"]`);
    if (next) {
      cell.tabIndex = -1; next.tabIndex = 0; next.focus();
      S.gridFocus = { ...(S.gridFocus || {}), [b.seat]: next.dataset.cell };
    }
  }
}

function fire(rs, target, cell) {
  rs.firing = true;
  S.gridFocus = { ...(S.gridFocus || {}), [target]: cell };
  S.conn.send({ type: 'act', room: rs.id, action: { game: 'plane', kind: 'fire', target, cell } });
  renderRoom();
}

// ---------------------------------------------------------------- deployment

function deployPanel(rs) {
  const v = rs.view;
  const me = v.boards[rs.you];
  if (!me || !me.playing) return h('div', { class: 'card deploy' }, h('p', {}, 'You do not play this round.'));
  const need = P.planesOf(v.config.variant);
  const ready = v.phase.ready.includes(rs.you) || rs.deploy.sent;
  if (ready) {
    return h('div', { class: 'card deploy', id: 'deploy', 'data-deploy-state': 'ready' },
      h('p', {}, h('strong', {}, 'Ready.'), ' Your planes are placed; waiting for the others.'));
  }
  const d = rs.deploy;
  const facingArrow = { up: '↑', right: '→', down: '↓', left: '←' }[d.facing];
  return h('div', { class: 'card deploy', id: 'deploy', 'data-deploy-state': 'placing' },
    h('p', {}, `Place ${plural(need, 'plane')} on your board: tap a cell to put a plane's head there, tap the head again to turn it, tap its body to pick it up; `,
      h('strong', {}, 'Ready'), ' confirms. With a keyboard: arrow keys, Enter, and ', h('kbd', {}, 'R'), ' rotates.'),
    h('div', { class: 'row' },
      h('button', { id: 'deploy-rotate', type: 'button', onclick: () => rotate(rs), 'aria-keyshortcuts': 'R', 'data-facing': d.facing },
        `Rotate (R) · facing ${d.facing} ${facingArrow}`),
      h('button', { id: 'deploy-random', type: 'button', onclick: () => { d.planes = P.randomDeployment(P.sideOf(v.config.variant), need); renderRoom(); } }, 'Random'),
      h('button', { id: 'deploy-clear', type: 'button', onclick: () => { d.planes = []; renderRoom(); }, disabled: !d.planes.length }, 'Clear'),
      h('button', { id: 'deploy-ready', type: 'button', class: 'primary', disabled: d.planes.length !== need, onclick: () => submitDeploy(rs) },
        `Ready: confirm (${d.planes.length}/${need})`)),
    h('p', { id: 'deploy-hint', class: 'muted hint', 'aria-live': 'polite' }, d.hint || '\u00a0'));
}

function rotate(rs) {
  rs.deploy.facing = P.nextFacing(rs.deploy.facing);
  const btn = document.getElementById('deploy-rotate');
  if (btn) {
    const arrow = { up: '↑', right: '→', down: '↓', left: '←' }[rs.deploy.facing];
    btn.textContent = `Rotate (R) · facing ${rs.deploy.facing} ${arrow}`;
    btn.dataset.facing = rs.deploy.facing;
  }
  deployHover(rs, rs.deploy.hover, true);
}

function deployHover(rs, cell, force = false) {
  if (!force && rs.deploy.hover === cell) return;
  rs.deploy.hover = cell;
  const grid = document.querySelector(`[data-grid="${rs.you}"]`);
  if (!grid) return;
  grid.querySelectorAll('[data-preview]').forEach((el) => { delete el.dataset.preview; el.classList.remove('preview-ok', 'preview-bad'); });
  const hint = document.getElementById('deploy-hint');
  if (!cell) { if (hint) hint.textContent = '\u00a0'; return; }
  const side = P.sideOf(rs.view.config.variant);
  const inside = pickedPlane(rs, cell);
  const onHead = inside != null && rs.deploy.planes[inside].head === cell;
  const full = rs.deploy.planes.length >= P.planesOf(rs.view.config.variant);
  const placement = { head: cell, facing: rs.deploy.facing };
  const problem = inside != null ? null : full ? 'all planes placed' : P.placementProblem(placement, rs.deploy.planes, side);
  if (inside == null) {
    for (const [r, c] of P.planeCells(placement)) {
      const el = grid.querySelector(`[data-cell="${P.cellName(r, c)}"]`);
      if (el) { el.dataset.preview = problem ? 'bad' : 'ok'; el.classList.add(problem ? 'preview-bad' : 'preview-ok'); }
    }
  }
  if (hint) {
    hint.textContent = onHead ? `${cell}: tap to turn this plane.` : inside != null ? `${cell}: tap to pick this plane up.`
      : problem ? `${cell}: not allowed (${problem}).` : `${cell} facing ${placement.facing}: tap to place.`;
  }
  const el = grid.querySelector(`[data-cell="${cell}"]`);
  if (el) el.setAttribute('aria-description', problem ? `cannot place here: ${problem}` : onHead ? 'tap to turn' : inside != null ? 'tap to pick up' : 'can place here');
}

function pickedPlane(rs, cell) {
  const [r, c] = P.parseCell(cell);
  const m = P.cellMap(rs.deploy.planes).get(`${r},${c}`);
  return m ? m.plane : null;
}

function deployClick(rs, cell) {
  const d = rs.deploy;
  const side = P.sideOf(rs.view.config.variant);
  const need = P.planesOf(rs.view.config.variant);
  S.gridFocus = { ...(S.gridFocus || {}), [rs.you]: cell };
  const inside = pickedPlane(rs, cell);
  if (inside != null && d.planes[inside].head === cell) {
    // A tap on a head turns the plane a quarter (or more, to the next way it fits).
    const plane = d.planes[inside];
    const others = d.planes.filter((_, i) => i !== inside);
    const facing = P.fittingFacing(cell, P.nextFacing(plane.facing), others, side);
    if (facing && facing !== plane.facing) {
      d.planes[inside] = { head: cell, facing };
      d.hint = `Plane at ${cell} turned to face ${facing}.`;
    } else {
      d.hint = `The plane at ${cell} cannot turn there: no other way fits.`;
    }
  } else if (inside != null) {
    d.planes.splice(inside, 1);
    d.hint = `Picked up a plane at ${cell}.`;
  } else if (d.planes.length >= need) {
    d.hint = 'Cannot place there: all planes placed; tap one to pick it up.';
  } else {
    const placement = { head: cell, facing: d.facing };
    const problem = P.placementProblem(placement, d.planes, side);
    const other = problem && P.fittingFacing(cell, d.facing, d.planes, side);
    if (problem) d.hint = `Cannot place there facing ${d.facing}: ${problem}.${other ? ` It fits facing ${other}: press Rotate.` : ''}`;
    else {
      d.planes.push(placement);
      d.hint = `Plane placed at ${cell} facing ${d.facing}. Tap its head to turn it.`;
    }
  }
  renderRoom();
  deployHover(rs, cell, true);
  // The hover text would hide what the tap just did.
  const hint = document.getElementById('deploy-hint');
  if (hint && d.hint) hint.textContent = d.hint;
}

function submitDeploy(rs) {
  const planes = rs.deploy.planes.slice();
  rs.deploy.sent = true;
  S.conn.request({ type: 'act', room: rs.id, action: { game: 'plane', kind: 'deploy', planes } }).catch((e) => {
    if (e.code === 'disconnected') return;
    rs.deploy.sent = false;
    renderRoom();
  });
  renderRoom();
}

// ---------------------------------------------------------------- score, log, final

function scoreboard(rs) {
  const v = rs.view;
  const seats = v.boards.map((b) => b.seat);
  const heads = v.history.map((r) => (r.extra ? `X${r.round + 1}` : `R${r.round + 1}`));
  // The current round, until its result joins the history.
  const showLive = v.phase.phase !== 'over' && v.history.length <= v.round;
  return h('div', { class: 'card score' },
    h('h2', {}, 'Scoreboard'),
    h('div', { class: 'scroll' },
      h('table', { class: 'scoreboard', id: 'scoreboard' },
        h('caption', { class: 'sr-only' }, 'Points per round and totals'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'),
          // Totals first: they stay in view however many rounds scroll sideways.
          h('th', { scope: 'col' }, 'Total'), h('th', { scope: 'col' }, 'Wins'),
          heads.map((t) => h('th', { scope: 'col' }, t)),
          showLive ? h('th', { scope: 'col', title: 'current round' }, `R${v.round + 1}*`) : null)),
        h('tbody', {}, seats.map((s) => h('tr', { 'data-score-row': s, class: v.outcome && v.outcome.winner === s ? 'winner' : '' },
          h('th', { scope: 'row' }, who(rs, s), v.boards[s].knocked_out && !v.outcome ? h('span', { class: 'badge out' }, 'out') : null),
          h('td', { class: 'total', 'data-total': s }, String(v.totals[s])),
          h('td', { 'data-wins': s }, String(v.round_wins[s])),
          v.history.map((r) => h('td', { title: r.survivor === s ? 'survived the round' : null },
            String(r.points[s]), r.survivor === s ? h('span', { 'aria-label': ', survived' }, ' ★') : null)),
          showLive ? h('td', { class: 'live' }, String(v.boards[s].points)) : null))))),
    h('p', { class: 'muted small' }, '★ survived the round (last player left). Downing a plane: 1 point; knocking a player out: 3.'));
}

function logPanel(rs) {
  return h('div', { class: 'card logcard' },
    h('h2', { id: 'log-title' }, 'Events'),
    h('ol', { id: 'log', class: 'log', role: 'log', 'aria-labelledby': 'log-title' },
      rs.log.map((t) => (typeof t === 'string' ? h('li', {}, t)
        : t.audit != null ? h('li', { 'data-audit': t.audit, 'data-verified': t.verified, 'data-committed': t.committed },
          h('details', {}, h('summary', {}, auditText(t)), t.details.map((d) => h('div', { class: 'small' }, d))))
          : h('li', { 'data-public': t.public ? true : null, 'data-mine': t.mine ? true : null }, t.text)))));
}

function finalPanel(rs) {
  const o = rs.view.outcome;
  if (!o) return null;
  const order = o.placings.map((p, s) => ({ p, s })).sort((a, b) => a.p - b.p || a.s - b.s);
  return h('div', { class: 'card final', id: 'final', 'data-winner': o.winner },
    h('h2', {}, o.winner === rs.you ? 'You won!' : `${seatName(rs, o.winner)} won`),
    h('ol', { class: 'placings' }, order.map(({ p, s }) => h('li', { 'data-placing': s, 'data-place': p },
      h('strong', {}, ordinal(p)), ` ${who(rs, s)} — ${plural(o.totals[s], 'point')}, ${plural(o.round_wins[s], 'round')} won`))),
    h('p', { class: 'row' },
      rs.you != null ? h('button', { id: 'rematch', class: 'primary', onclick: () => rematch(rs) }, 'Rematch') : null,
      h('button', { id: 'to-lobby', onclick: () => go('/') }, 'Back to the lobby')),
    rs.you != null ? h('p', { class: 'muted small' }, 'Rematch opens a new room with the same settings and seats you; the first to click creates it (with the same bots), the others join it.') : null);
}

function rematchName(name) {
  const m = (name || 'Room').match(/^(.*) \(rematch (\d+)\)$/);
  return m ? `${m[1]} (rematch ${Number(m[2]) + 1})` : `${name || 'Room'} (rematch 2)`;
}

async function rematch(rs) {
  const config = JSON.parse(JSON.stringify(rs.summary.config));
  config.name = rematchName(config.name);
  const list = await S.conn.request({ type: 'list_rooms' }).catch(() => null);
  const same = list && list.rooms.find((r) => r.status === 'waiting' && r.config.name === config.name
    && JSON.stringify(r.config.game) === JSON.stringify(config.game) && r.seats.some((s) => !s.occupant));
  if (same) { await joinRoom(same.id, null); return; }
  const bots = rs.summary.seats.filter((s) => s.occupant && s.occupant.bot != null).map((s) => s.occupant.bot);
  await createWith(config, bots);
}

// ---------------------------------------------------------------- clock and keys

function tick() {
  if (S.page !== 'room') return;
  const rs = S.roomStates.get(S.roomId);
  const el = document.getElementById('clock');
  if (!rs || !el) return;
  const left = rs.deadlineAt == null ? null : rs.deadlineAt - Date.now();
  el.textContent = fmtClock(left);
  el.parentElement.classList.toggle('low', left != null && left < 10000);
}
setInterval(tick, 250);
setInterval(() => {
  if (document.hidden) return;
  if (S.page === 'lobby') refreshRooms();
  if (S.page === 'lobby' || S.page === 'name') refreshTournaments();
}, 2000);

document.addEventListener('keydown', (e) => {
  if (S.page !== 'room' || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.matches && e.target.matches('input, select, textarea')) return;
  const rs = S.roomStates.get(S.roomId);
  if (!rs || !rs.view || !rs.view.phase || rs.view.phase.phase !== 'deploy' || rs.you == null || rs.deploy.sent) return;
  if (e.key === 'r' || e.key === 'R') { e.preventDefault(); rotate(rs); }
});

document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-nav]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  go(new URL(a.href).pathname);
});

window.addEventListener('popstate', route);

// ---------------------------------------------------------------- start

function setConn(state) {
  S.connState = state;
  const el = document.getElementById('conn');
  el.dataset.conn = state;
  el.textContent = state === 'open' ? `online as ${S.name}` : state === 'connecting' ? 'connecting…' : 'offline: reconnecting…';
}

function start() {
  const form = document.getElementById('name-form');
  const input = document.getElementById('name-input');
  input.value = S.name;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const name = input.value.trim().slice(0, 32);
    if (!name) return;
    const first = !S.name;
    S.name = name;
    localStorage.setItem(NAME_KEY, name);
    if (first) { S.conn = new Connection(name, onMessage, setConn); S.conn.open(); route(); }
    else if (S.conn) { S.conn.restart(name); toast(`Your name is now ${name}.`); }
  });
  if (S.name) {
    S.conn = new Connection(S.name, onMessage, setConn);
    S.conn.open();
  }
  route();
}

start();
