// Skirmish's browser client, its entry module: the server's messages, navigation and start-up. The
// pages: lobby.js, room_page.js (plane battle's boards in plane_boards.js; gomoku in gomoku.js;
// junqi in junqi.js; every room's event log in log_panel.js). Plain ES modules, no build.
import { Connection } from './net.js';
import { h, getJson } from './dom.js';
import { t, refusal, translateStatic, mountSwitch, rulesHref } from './i18n.js';
import * as A from './alert.js';
import * as C from './chat.js';
import { NAME_KEY, hooks, S, toast, errorText, configText } from './state.js';
import { roomState, onSnapshot, onEvent, onCommitment, onReveal, onYourTurn } from './room_state.js';
import { renderLobby, tournamentsCard, refreshTournaments, renderTournaments, renderRooms, roomCounts } from './lobby.js';
import { rotate } from './plane_boards.js';
import { renderRoom, gameUi, tick } from './room_page.js';

// Lower modules call these up through state.js's hooks: they must not import the modules above them.
hooks.renderRoom = renderRoom;
hooks.go = go;
hooks.gameUi = gameUi;

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
      C.onSnapshot(roomState(msg.room.id), msg);
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
      if (msg.code !== 'bad_resume') toast(t('toast.refused', { reason: refusal(msg) }));
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
  // style.css fits the header to the page: a room on a phone keeps the name form out of the way.
  document.body.dataset.page = !S.name ? 'name' : m ? 'room' : 'lobby';
  if (!S.name) {
    S.page = 'name';
    // A room's link (a tournament's Watch link, a shared link) says what is there, and lets a
    // visitor watch at once under a guest name.
    main.replaceChildren(h('section', { class: 'card', id: 'welcome', 'data-room-link': m ? m[1].toLowerCase() : null },
      h('h1', {}, t('welcome.title')),
      m ? h('p', { id: 'invite', 'aria-live': 'polite' }, t('welcome.room_link'))
        : h('p', {}, t('welcome.choose_name')),
      m ? h('p', {}, h('button', { id: 'watch-guest', class: 'primary', onclick: watchAsGuest }, t('welcome.watch_guest'))) : null),
    tournamentsCard());
    renderTournaments();
    refreshTournaments();
    if (m) describeInvite(m[1].toLowerCase());
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
  const name = t('welcome.guest_name', { n: Math.floor(1000 + Math.random() * 9000) });
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

// ---------------------------------------------------------------- clock and keys

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

/**
 * What a room's link leads to, for a visitor without a name yet: the game, who made the room,
 * and the free seats (from the lobby's list), or that the room is gone.
 */
async function describeInvite(id) {
  let rooms;
  try { [rooms] = await getJson('/api/rooms'); } catch { return; }
  const el = document.getElementById('invite');
  if (!el) return;
  const r = rooms.find((x) => x.id === id);
  if (!r) { el.textContent = t('welcome.room_gone'); el.dataset.invite = 'gone'; return; }
  const host = r.seats.map((s) => s.occupant).find((o) => o && o.player === r.owner);
  const c = roomCounts(r);
  const free = c.total - c.taken;
  const where = t('welcome.invite', { host: host ? host.name : r.config.name || t('room.default_name'), game: configText(r.config) });
  const what = r.status === 'waiting' && free > 0 ? t('welcome.invite_seats', { count: free, total: c.total })
    : t('welcome.invite_watch');
  el.textContent = `${where} ${what}`;
  el.dataset.invite = r.status === 'waiting' && free > 0 ? 'seats' : 'watch';
}

function setConn(state) {
  S.connState = state;
  const el = document.getElementById('conn');
  el.dataset.conn = state;
  el.textContent = state === 'open' ? t('conn.online', { name: S.name }) : state === 'connecting' ? t('conn.connecting') : t('conn.reconnecting');
}

function start() {
  translateStatic();
  mountSwitch();
  document.getElementById('rules-link').href = rulesHref();
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
    else if (S.conn) { S.conn.restart(name); toast(t('toast.renamed', { name })); }
  });
  if (S.name) {
    S.conn = new Connection(S.name, onMessage, setConn);
    S.conn.open();
  }
  route();
}

start();
