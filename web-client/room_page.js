// The room page: each game's room (plane battle's, gomoku's, junqi's) with its header, status bar,
// seats and chat; the helpers gomoku.js and junqi.js draw with; the room's clock.
import * as G from './gomoku.js';
import * as J from './junqi.js';
import { h } from './dom.js';
import * as A from './alert.js';
import * as C from './chat.js';
import { NUMBERS_KEY, hooks, S, owned, toast, errorText, fmtClock, rulesLink, configText } from './state.js';
import { roomState, seatName, who, logLine, isGomoku, isJunqi } from './room_state.js';
import { LEVELS, DEFAULT_LEVEL, levelName, levelDetail } from './bot_levels.js';
import { roomCounts, joinRoom } from './lobby.js';
import { legend, boardEl, deployPanel, scoreboard, finalPanel, rematch, rematchOffer, replayLink, resignRow, recapPanel } from './plane_boards.js';
import { logPanel } from './log_panel.js';
import { t } from './i18n.js';
import { pageModule } from './games.js';

// Navigation is app.js's, the entry, which this module must not import: app.js sets hooks.go.
const go = (path) => hooks.go(path);

// ---------------------------------------------------------------- room page

export function renderRoom() {
  const main = document.getElementById('main');
  const rs = roomState(S.roomId);
  const focused = document.activeElement && document.activeElement.id;
  const scrollLog = document.getElementById('log');
  const stick = !scrollLog || scrollLog.scrollTop + scrollLog.clientHeight >= scrollLog.scrollHeight - 8;
  const chatStick = C.stuckToEnd();
  if (!rs.view || !rs.summary) {
    main.replaceChildren(h('section', { id: 'room', class: 'card', 'data-room-id': S.roomId, 'data-phase': 'loading' },
      h('h1', {}, t('room.default_name')),
      h('p', {}, rs.missing ? t('room.cannot_open', { reason: rs.missing }) : t('room.connecting')),
      h('p', {}, h('a', { href: '/', 'data-nav': true }, t('room.back_to_lobby')))));
    return;
  }
  const mod = pageModule(rs.view.game);
  main.replaceChildren(mod ? moduleSection(rs, mod) : isGomoku(rs) ? gomokuSection(rs) : isJunqi(rs) ? junqiSection(rs) : planeSection(rs));
  if (focused) {
    const el = document.getElementById(focused);
    if (el) el.focus({ preventScroll: true });
  }
  const log = document.getElementById('log');
  if (log && stick) log.scrollTop = log.scrollHeight;
  const moves = document.getElementById('moves');
  if (moves) moves.scrollTop = moves.scrollHeight;
  C.afterRender(rs, chatStick);
  tick();
  A.turnAlert(Boolean(document.querySelector('#status.mine, #deploy[data-deploy-state="placing"]')));
}

function planeSection(rs) {
  const v = rs.view;
  const status = rs.summary.status;
  const phase = status === 'waiting' ? 'waiting' : v.phase.phase;
  const shown = phase === 'waiting' ? null : shownBoard(rs, phase);
  return h('section', {
    id: 'room', class: `room phase-${phase}`, 'data-room-id': rs.id, 'data-status': status,
    'data-phase': phase, 'data-you': rs.you ?? '', 'data-round': v.round, 'data-revealed': rs.revealed ? 'true' : null,
  },
  roomHeader(rs),
  statusBar(rs, phase),
  phase === 'waiting'
    ? [seatsPanel(rs), h('div', { class: 'side' }, logPanel(rs)), chatPanel(rs)]
    : h('div', { class: 'plane-play' },
      h('div', { class: 'plane-main' },
        phase === 'over' ? finalPanel(rs) : null,
        recapPanel(rs),
        boardTabs(rs, shown),
        h('div', { class: 'boards', id: 'boards', 'data-shown': shown, 'data-count': v.boards.length }, v.boards.map((b) => boardEl(rs, b, b.seat === shown))),
        h('p', { id: 'plane-notice', class: 'notice', role: 'status' }, rs.notice || ''),
        phase === 'deploy' && rs.you != null ? deployPanel(rs) : null,
        legend(),
        resignRow(rs)),
      // Beside the boards on a wide screen, under them on a narrow one: what the others said and
      // did, then the score and the seats.
      h('div', { class: 'plane-aside' }, chatPanel(rs), scoreboard(rs), logPanel(rs), seatsPanel(rs))));
}

/** The room's chat card (chat.js), sending through the connection. */
function chatPanel(rs) {
  return C.chatPanel(rs, h, (text) => S.conn.request({ type: 'chat', room: rs.id, text })
    .catch((e) => { toast(t('toast.not_sent', { reason: errorText(e) })); throw e; }), renderRoom);
}

/**
 * The board a narrow screen shows (the others wait behind the tabs, boardTabs): the page picks
 * for the person at the moments that call for one board (their own while they deploy, a board to
 * fire at when their turn comes), and leaves their own choice alone in between. Wide screens show
 * every board, in seat order, whatever is picked.
 */
function shownBoard(rs, phase) {
  const v = rs.view;
  const mine = rs.you != null && v.boards[rs.you] ? rs.you : null;
  const shots = v.boards.reduce((n, b) => n + b.shots.length, 0);
  let moment = null;
  let pick = null;
  if (phase === 'deploy' && mine != null && v.boards[mine].playing) {
    moment = `deploy ${v.round}`;
    pick = mine;
  } else if (phase === 'attack' && mine != null && v.phase.attacker === mine) {
    moment = `fire ${v.round} ${shots}`;
    const targets = v.boards.filter((b) => b.seat !== mine && b.playing && !b.knocked_out).map((b) => b.seat);
    pick = targets.includes(rs.boardTab) ? rs.boardTab : targets[0] ?? null;
  }
  if (moment != null && rs.boardMoment !== moment) {
    rs.boardMoment = moment;
    if (pick != null) rs.boardTab = pick;
  }
  if (rs.boardTab == null || !v.boards[rs.boardTab]) rs.boardTab = mine ?? v.boards[0].seat;
  return rs.boardTab;
}

/** The switcher between boards on a narrow screen (hidden on a wide one, which shows them all). */
function boardTabs(rs, shown) {
  const v = rs.view;
  const myTurn = v.phase.phase === 'attack' && v.phase.attacker === rs.you && rs.you != null;
  return h('div', { class: 'board-tabs', id: 'board-tabs', role: 'tablist', 'aria-label': t('plane.tabs.label') },
    v.boards.map((b) => {
      const target = myTurn && b.seat !== rs.you && b.playing && !b.knocked_out;
      return h('button', {
        type: 'button', role: 'tab', id: `board-tab-${b.seat}`, class: `board-tab ${target ? 'target' : ''}`,
        'aria-selected': b.seat === shown ? 'true' : 'false', 'aria-controls': 'boards', 'data-board-tab': b.seat,
        onclick: () => { rs.boardTab = b.seat; renderRoom(); },
      },
      b.seat === rs.you ? t('plane.tabs.yours') : who(rs, b.seat),
      target ? h('span', { class: 'tab-mark', 'aria-label': t('plane.tabs.fire_here') }, ' ◎') : null,
      b.knocked_out ? h('span', { class: 'tab-mark out' }, ` ${t('plane.knocked_out')}`) : null);
    }));
}

// ---------------------------------------------------------------- gomoku room

/** The helpers gomoku.js and junqi.js draw and act with, bound to one room. */
export function gameUi(rs) {
  return {
    h,
    you: rs.you,
    who: (seat) => who(rs, seat),
    seatName: (seat) => seatName(rs, seat),
    log: (text, opts) => logLine(rs, text, opts),
    act: (action) => S.conn.send({ type: 'act', room: rs.id, action }),
    send: (msg) => S.conn.send({ ...msg, room: rs.id }),
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
      ? h('span', { class: 'clock' }, t('room.time_left'), h('span', { id: 'clock', 'data-clock': true }, fmtClock(rs.deadlineAt && rs.deadlineAt - Date.now())))
      : null),
  phase !== 'waiting'
    ? h('div', { class: 'gomoku-play' }, G.boardEl(rs, ui),
      h('div', { class: 'gomoku-aside' }, phase === 'over' ? [G.resultPanel(rs, ui), rematchOffer(rs), rs.you != null ? h('p', { class: 'row' }, replayLink(rs)) : null] : null, G.sidePanel(rs, ui), chatPanel(rs),
        G.moveList(rs, ui), logPanel(rs), seatsPanel(rs)))
    : [seatsPanel(rs), logPanel(rs), chatPanel(rs)]);
}

// ---------------------------------------------------------------- a page module's room (games.js)

/** A game's room drawn by its page module, with the room page's common pieces. */
function moduleSection(rs, mod) {
  const waiting = rs.summary.status === 'waiting';
  const status = (text, turn, clock) => h('div', { class: `status ${turn !== '' && turn === String(rs.you) ? 'mine' : ''}`, id: 'status', role: 'status', 'data-turn': turn },
    h('span', { id: 'status-text' }, waiting || text == null ? waitingText(rs) : text),
    clock ? h('span', { class: 'clock' }, t('room.time_left'), h('span', { id: 'clock', 'data-clock': true }, fmtClock(rs.deadlineAt && rs.deadlineAt - Date.now()))) : null);
  return mod.section(rs, gameUi(rs), { header: roomHeader(rs), status, seats: seatsPanel(rs), log: logPanel(rs), chat: chatPanel(rs) });
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
      ? h('span', { class: 'clock' }, t('room.time_left'), h('span', { id: 'clock', 'data-clock': true }, fmtClock(rs.deadlineAt && rs.deadlineAt - Date.now())))
      : null),
  phase !== 'waiting'
    ? h('div', { class: 'junqi-play' },
      deploying ? J.deployEditor(rs, ui) : J.boardEl(rs, ui),
      h('div', { class: 'junqi-aside' }, phase === 'over' ? [J.resultPanel(rs, ui), rematchOffer(rs), rs.you != null ? h('p', { class: 'row' }, replayLink(rs)) : null] : null, J.sidePanel(rs, ui), chatPanel(rs),
        J.moveList(rs, ui), logPanel(rs), seatsPanel(rs)))
    : [seatsPanel(rs), logPanel(rs), chatPanel(rs)],
  phase === 'over' ? J.layoutsPanel(rs, ui) : null);
}

function waitingText(rs) {
  const c = roomCounts(rs.summary);
  return t('room.waiting_players', { taken: c.taken, total: c.total });
}

function roomHeader(rs) {
  const url = `${location.origin}/room/${rs.id}`;
  return h('div', { class: 'room-head' },
    h('div', {},
      h('h1', { id: 'room-name' }, rs.summary.config.name || t('room.default_name')),
      h('p', { class: 'muted' }, configText(rs.summary.config),
        rs.you == null ? h('strong', { 'data-spectator': true }, t('room.you_watch')) : null,
        rs.summary.spectators ? t('lobby.watching', { n: rs.summary.spectators }) : null,
        ' · ', rulesLink(rs.summary.config))),
    h('div', { class: 'share' },
      h('label', { for: 'share-link' }, t('room.share')),
      h('input', { id: 'share-link', readonly: true, value: url, onfocus: (e) => e.target.select() }),
      h('button', { id: 'share-copy', type: 'button', onclick: () => copyLink(url) }, t('room.copy_link')),
      rs.you != null ? h('label', { class: 'sound' },
        h('input', { type: 'checkbox', id: 'sound-toggle', checked: A.soundOn(), onchange: (e) => A.setSound(e.target.checked) }),
        t('room.sound')) : null,
      h('button', { id: 'room-leave', type: 'button', onclick: () => leaveRoom(rs) },
        rs.you != null && rs.summary.status === 'waiting' ? t('room.leave_seat') : t('header.lobby'))));
}

async function copyLink(url) {
  try { await navigator.clipboard.writeText(url); toast(t('toast.copied')); } catch {
    // No clipboard: show the address, selected, to copy by hand.
    const input = document.getElementById('share-link');
    input.classList.add('shown');
    input.focus(); input.select();
    toast(t('toast.copy_by_hand'));
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
  if (v.extra) return t('plane.extra_round');
  return f.rounds != null ? t('plane.round_of', { n: v.round + 1, total: f.rounds }) : t('plane.round_first_to', { n: v.round + 1, first: f.first_to });
}

function statusBar(rs, phase) {
  const v = rs.view;
  let text;
  let turn = '';
  if (phase === 'waiting') {
    text = waitingText(rs);
  } else if (phase === 'deploy') {
    const waiting = v.boards.filter((b) => b.playing && !v.phase.ready.includes(b.seat)).map((b) => who(rs, b.seat));
    text = t('plane.status.deploying', { round: roundLabel(v), who: waiting.join(t('list.sep')) || t('plane.status.nobody') });
    turn = 'deploy';
  } else if (phase === 'attack') {
    const a = v.phase.attacker;
    text = a === rs.you ? t('plane.status.your_turn', { round: roundLabel(v) }) : t('plane.status.attacking', { round: roundLabel(v), who: seatName(rs, a) });
    // What the shot before this turn did, bots' shots too: the log may be out of sight.
    if (rs.lastShotText) text += t('plane.status.last', { text: rs.lastShotText });
    turn = String(a);
  } else {
    const o = v.outcome;
    text = o ? t('plane.status.won', { who: who(rs, o.winner) }) : t('plane.status.over');
  }
  return h('div', { class: `status ${turn === String(rs.you) ? 'mine' : ''}`, id: 'status', role: 'status', 'data-turn': turn },
    h('span', { id: 'status-text' }, text),
    phase === 'deploy' || phase === 'attack'
      ? h('span', { class: 'clock' }, t('room.time_left'), h('span', { id: 'clock', 'data-clock': true }, fmtClock(rs.deadlineAt && rs.deadlineAt - Date.now())))
      : null);
}

function seatsPanel(rs) {
  const isOwner = rs.summary.owner === S.player || owned().has(rs.id);
  const seated = rs.you != null;
  const waiting = rs.summary.status === 'waiting';
  const game = rs.summary.config.game.game;
  const items = rs.summary.seats.map((s) => {
    const occ = s.occupant;
    const label = pageModule(game) ? `${t('seat.n', { n: s.seat + 1 })} · ${pageModule(game).seatLabel(s.seat)}`
      : game === 'gomoku' ? t(s.seat === 0 ? 'seat.black' : 'seat.white', { n: s.seat + 1 })
      : game === 'junqi' ? t(s.seat === 0 ? 'seat.red' : 'seat.blue', { n: s.seat + 1 }) : t('seat.n', { n: s.seat + 1 });
    let body;
    if (occ) {
      body = h('span', {},
        h('strong', { 'data-seat-name': s.seat }, seatName(rs, s.seat)), occ.player === S.player ? t('seat.you_mark') : '',
        occ.bot != null ? h('small', { class: 'bot-detail', 'data-bot-detail': occ.bot, title: t('bots.strategy_title', { strategy: occ.bot }) }, occ.bot) : null,
        occ.took_over_from != null ? h('span', { class: 'badge', 'data-took-over-from': true }, t('seat.took_over', { name: occ.took_over_from })) : null,
        !occ.connected ? h('span', { class: 'badge off' }, t('seat.disconnected')) : null);
    } else {
      const strategies = botStrategies(game);
      const choice = botChoice(game, s.seat);
      const detail = h('small', { class: 'bot-detail', id: `bot-detail-${s.seat}`, 'aria-live': 'polite' }, choiceDetail(game, choice));
      body = h('span', { class: 'seat-actions' },
        h('em', {}, t('seat.empty')),
        !seated ? h('button', { id: `sit-${s.seat}`, class: 'primary', 'data-action': 'sit', onclick: () => joinRoom(rs.id, s.seat) }, t('seat.sit')) : null,
        isOwner && waiting ? h('span', { class: 'addbot' },
          h('label', { for: `bot-${s.seat}`, class: 'sr-only' }, t('seat.bot_strategy', { n: s.seat + 1 })),
          // A level (what people choose), or, for bot authors, a strategy by name.
          h('select', { id: `bot-${s.seat}`, 'data-bot-strategy': s.seat, 'aria-describedby': `bot-detail-${s.seat}`,
            onchange: (e) => { S.botChoice[s.seat] = e.target.value; detail.textContent = choiceDetail(game, e.target.value); } },
          h('optgroup', { label: t('bots.levels') }, LEVELS.map((level) => h('option', {
            value: `level:${level}`, 'data-bot-level': level, selected: `level:${level}` === choice, title: levelDetail(game, level),
          }, levelName(level)))),
          h('optgroup', { label: t('bots.strategies') },
            strategies.map((st) => h('option', { value: st, selected: st === choice }, st)))),
          h('button', { id: `addbot-${s.seat}`, 'data-action': 'add-bot', onclick: () => addBot(rs, s.seat) }, t('seat.add_bot')),
          detail) : null);
    }
    return h('li', { 'data-seat-row': s.seat, 'data-occupied': occ ? 'true' : 'false' }, h('span', { class: 'seat-no' }, label), body);
  });
  return h('div', { class: 'card seats' },
    h('h2', {}, t('seat.title')),
    h('ul', { class: 'seat-list' }, items),
    waiting && isOwner ? h('p', {}, h('button', { id: 'start-now', onclick: () => startNow(rs) }, t('seat.start_now'))) : null,
    waiting && !isOwner ? h('p', { class: 'muted', id: 'bots-note' }, t('seat.owner_adds_bots')) : null);
}

/** The strategies the connected bots offer for `game`, strongest first (each bot's offer lists them per game). */
function botStrategies(game) {
  const list = [...new Set(S.bots.flatMap((b) => b.offer.games[game] || []))];
  return list.length ? list : [game === 'plane' ? 'bayes' : 'random'];
}

/**
 * What is picked for a seat's bot: the page's choice (`level:<level>`, or a strategy the game's
 * bots offer), else the default level.
 */
function botChoice(game, seat) {
  const choice = S.botChoice[seat];
  const known = choice && (LEVELS.some((l) => choice === `level:${l}`) || botStrategies(game).includes(choice));
  return known ? choice : `level:${DEFAULT_LEVEL}`;
}

/** The detail line under the bot picker: a level's strategy and budget, or nothing for a strategy by name. */
function choiceDetail(game, choice) {
  return choice.startsWith('level:') ? levelDetail(game, choice.slice('level:'.length)) : '';
}

async function addBot(rs, seat) {
  const choice = botChoice(rs.summary.config.game.game, seat);
  const wish = choice.startsWith('level:') ? { level: choice.slice('level:'.length) } : { strategy: choice };
  await S.conn.request({ type: 'add_bot', room: rs.id, seat, ...wish }).catch((e) => toast(t('toast.no_bot', { reason: errorText(e) })));
}

async function startNow(rs) {
  await S.conn.request({ type: 'start', room: rs.id }).catch((e) => toast(t('toast.cannot_start', { reason: errorText(e) })));
}

// ---------------------------------------------------------------- clock

export function tick() {
  if (S.page !== 'room') return;
  const rs = S.roomStates.get(S.roomId);
  const el = document.getElementById('clock');
  if (!rs || !el) return;
  const left = rs.deadlineAt == null ? null : rs.deadlineAt - Date.now();
  el.textContent = fmtClock(left);
  el.parentElement.classList.toggle('low', left != null && left < 10000);
}
