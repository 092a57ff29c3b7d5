// Plane battle's room: the boards (firing at them), deployment, the scoreboard, the final panel and
// rematch. The room's event log, which every game's room shows, is log_panel.js's.
import * as P from './plane.js';
import { h } from './dom.js';
import { hooks, S, ordinal } from './state.js';
import { t } from './i18n.js';
import { seatName, who } from './room_state.js';
import { createWith, joinRoom } from './lobby.js';

// room_page.js draws the room and imports this module, so the call goes up through state.js's hooks.
const renderRoom = () => hooks.renderRoom();
// Navigation is app.js's, the entry, which this module must not import: app.js sets hooks.go.
const go = (path) => hooks.go(path);

// ---------------------------------------------------------------- boards

export function legend() {
  return h('p', { class: 'legend', 'aria-hidden': 'true' },
    h('span', { class: 'cell mini shot-miss' }, '○'), t('legend.miss'),
    h('span', { class: 'cell mini shot-hit' }, '✕'), t('legend.hit'),
    h('span', { class: 'cell mini shot-down' }, '✹'), t('legend.down'),
    h('span', { class: 'cell mini plane' }), t('legend.plane'),
    h('span', { class: 'cell mini plane head' }, '▲'), t('legend.head'));
}

function canFire(rs, b) {
  const v = rs.view;
  return v.phase.phase === 'attack' && v.phase.attacker === rs.you && rs.you != null
    && b.seat !== rs.you && b.playing && !b.knocked_out && !rs.firing;
}

/**
 * One seat's board: a `side` x `side` grid of cells (plane.js) with its caption. `shown` marks
 * the board a narrow screen shows (room_page.js, shownBoard); a wide screen shows every board.
 */
export function boardEl(rs, b, shown = true) {
  const v = rs.view;
  const side = P.sideOf(v.config.variant);
  const name = who(rs, b.seat);
  const owner = rs.you === b.seat ? t('plane.board_yours') : t('plane.board_of', { who: seatName(rs, b.seat) });
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
      if (shot) words.push(t(`plane.cell.${shot}`));
      if (plane === 'own' || plane === 'pending') words.push(head ? t('plane.cell.own_head') : t('plane.cell.own'));
      if (plane === 'downed' && shot !== 'down') words.push(head ? t('plane.cell.downed_head') : t('plane.cell.downed'));
      if (plane === 'revealed') words.push(head ? t('plane.cell.revealed_head') : t('plane.cell.revealed'));
      if (!words.length) words.push(rs.you === b.seat ? t('plane.cell.empty') : t('plane.cell.unknown'));
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
        'aria-label': [owner, cell, ...words, ...(last ? [t('plane.cell.last')] : [])].join(t('list.sep')),
        'aria-disabled': !(open || deploying) ? 'true' : null,
        tabindex: -1,
      }, symbol));
    }
  }
  const grid = h('div', {
    class: `grid side-${side}`, style: `--side:${side}`, role: 'group',
    'aria-label': owner, 'data-grid': b.seat,
    onkeydown: (e) => gridKey(e, rs, b, side),
    onclick: (e) => {
      const cell = e.target.closest('[data-cell]');
      if (!cell) return;
      if (deploying) deployClick(rs, cell.dataset.cell);
      else if (fireable && cell.dataset.fireable) fire(rs, b.seat, cell.dataset.cell);
      else {
        // Say why nothing happens, under the boards, rather than nothing.
        rs.notice = whyNot(rs, b, cell);
        renderRoom();
      }
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
  const playing = b.playing ? (b.knocked_out ? t('plane.knocked_out') : '') : t('plane.not_in_round');
  const ready = v.phase.phase === 'deploy' && b.playing ? (v.phase.ready.includes(b.seat) ? 'ready' : 'deploying') : '';
  return h('figure', {
    class: `board ${b.knocked_out ? 'out' : ''} ${attacker ? 'attacking' : ''} ${fireable ? 'target' : ''} ${rs.you === b.seat ? 'mine' : ''} ${shown ? 'shown' : ''}`,
    'data-board': b.seat, 'data-knocked-out': b.knocked_out ? 'true' : 'false', 'data-target': fireable ? 'true' : null,
    'data-shown': shown ? 'true' : 'false',
  },
  h('figcaption', {},
    h('strong', {}, name), rs.you === b.seat ? t('plane.your_board_mark') : '',
    attacker ? h('span', { class: 'badge turn' }, t('plane.attacking_badge')) : null,
    playing ? h('span', { class: 'badge out' }, playing) : null,
    ready ? h('span', { class: `badge ${ready === 'ready' ? 'ok' : ''}`, 'data-ready': ready === 'ready' ? 'ready' : 'deploying…' }, t(`plane.badge_${ready}`)) : null,
    h('span', { class: 'pts' }, t('plane.points_this_round', { count: b.points }))),
  grid);
}

/**
 * The round that just ended, every board revealed with its shots, shown while the next round is
 * deployed (until its first shot, or until hidden): the boards themselves start afresh at once.
 * A picture only: no ids, and its data attributes are `data-recap-*`, so nothing of the live
 * boards is found in it.
 */
export function recapPanel(rs) {
  const r = rs.recap;
  if (!r) return null;
  const label = r.extra ? t('plane.extra_round_short') : t('plane.round', { n: r.round + 1 });
  const then = {
    ...rs,
    view: { ...rs.view, phase: { phase: 'recap' } },
    revealed: r.deployments,
    lastShot: r.lastShot,
    deploy: { planes: [], sent: true },
  };
  const boards = h('div', { class: 'boards recap-boards' }, r.boards.filter((b) => b.playing).map((b) => boardEl(then, b)));
  for (const el of [boards, ...boards.querySelectorAll('*')]) {
    el.removeAttribute('id');
    for (const name of el.getAttributeNames().filter((n) => n.startsWith('data-'))) {
      el.setAttribute(`data-recap-${name.slice(5)}`, el.getAttribute(name));
      el.removeAttribute(name);
    }
    if (el.tagName === 'BUTTON') el.tabIndex = -1;
  }
  return h('section', { class: 'card recap', id: 'recap', 'data-recap-round': r.round },
    h('div', { class: 'recap-head' },
      h('h3', {}, t('plane.recap.title', { label })),
      h('span', { class: 'muted' }, t('plane.recap.survivor', { who: who(rs, r.survivor) })),
      h('button', { type: 'button', id: 'recap-hide', onclick: () => { rs.recap = null; renderRoom(); } }, t('plane.recap.hide'))),
    boards);
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

/** Why a click on `cell` of board `b` fires nothing, in words. */
function whyNot(rs, b, cell) {
  const v = rs.view;
  if (rs.you == null) return t('plane.notice.spectator');
  if (v.phase.phase === 'over') return t('plane.notice.over');
  if (v.phase.phase === 'deploy') return t('plane.notice.deploying');
  if (v.phase.attacker !== rs.you) return t('plane.notice.not_your_turn', { who: seatName(rs, v.phase.attacker) });
  if (b.seat === rs.you) return t('plane.notice.own_board');
  if (!b.playing || b.knocked_out) return t('plane.notice.out', { who: seatName(rs, b.seat) });
  if (rs.firing) return t('plane.notice.firing');
  if (cell.dataset.shot) return t('error.cell_public');
  return t('plane.notice.downed');
}

/** The Resign button of a seated player while the match runs, with its confirmation. */
export function resignRow(rs) {
  if (rs.you == null || rs.view.phase.phase === 'over' || !rs.summary || rs.summary.status !== 'playing') return null;
  const resign = () => {
    rs.confirmResign = false;
    S.conn.send({ type: 'act', room: rs.id, action: { game: 'plane', kind: 'resign' } });
    renderRoom();
  };
  return rs.confirmResign
    ? h('p', { class: 'row', id: 'resign-box' },
      h('span', {}, t('plane.resign_ask')),
      h('button', { id: 'resign-confirm', type: 'button', class: 'danger', onclick: resign }, t('resign.yes')),
      h('button', { id: 'resign-cancel', type: 'button', onclick: () => { rs.confirmResign = false; renderRoom(); } }, t('resign.no')))
    : h('p', { class: 'row' }, h('button', { id: 'resign', type: 'button', onclick: () => { rs.confirmResign = true; renderRoom(); } }, t('resign.button')));
}

function fire(rs, target, cell) {
  rs.notice = null;
  rs.firing = true;
  S.gridFocus = { ...(S.gridFocus || {}), [target]: cell };
  S.conn.send({ type: 'act', room: rs.id, action: { game: 'plane', kind: 'fire', target, cell } });
  renderRoom();
}

// ---------------------------------------------------------------- deployment

export function deployPanel(rs) {
  const v = rs.view;
  const me = v.boards[rs.you];
  if (!me || !me.playing) return h('div', { class: 'card deploy' }, h('p', {}, t('deploy.not_playing')));
  const need = P.planesOf(v.config.variant);
  const ready = v.phase.ready.includes(rs.you) || rs.deploy.sent;
  if (ready) {
    return h('div', { class: 'card deploy', id: 'deploy', 'data-deploy-state': 'ready' },
      h('p', {}, h('strong', {}, t('deploy.ready_strong')), t('deploy.ready_rest')));
  }
  const d = rs.deploy;
  const facingArrow = { up: '↑', right: '→', down: '↓', left: '←' }[d.facing];
  return h('div', { class: 'card deploy', id: 'deploy', 'data-deploy-state': 'placing' },
    h('p', { class: 'deploy-how' }, t('deploy.how', { count: need }), h('strong', {}, t('deploy.ready_word')), t('deploy.how_keys'), h('kbd', {}, 'R'), t('deploy.how_rotates')),
    h('div', { class: 'row' },
      h('button', { id: 'deploy-rotate', type: 'button', onclick: () => rotate(rs), 'aria-keyshortcuts': 'R', 'data-facing': d.facing },
        t('deploy.rotate', { facing: t(`facing.${d.facing}`), arrow: facingArrow })),
      h('button', { id: 'deploy-random', type: 'button', onclick: () => { d.planes = P.randomDeployment(P.sideOf(v.config.variant), need); renderRoom(); } }, t('deploy.random')),
      h('button', { id: 'deploy-clear', type: 'button', onclick: () => { d.planes = []; renderRoom(); }, disabled: !d.planes.length }, t('deploy.clear')),
      h('button', { id: 'deploy-ready', type: 'button', class: 'primary', disabled: d.planes.length !== need, onclick: () => submitDeploy(rs) },
        t('deploy.confirm', { n: d.planes.length, need }))),
    h('p', { id: 'deploy-hint', class: 'muted hint', 'aria-live': 'polite' }, d.hint || '\u00a0'));
}

export function rotate(rs) {
  rs.deploy.facing = P.nextFacing(rs.deploy.facing);
  const btn = document.getElementById('deploy-rotate');
  if (btn) {
    const arrow = { up: '↑', right: '→', down: '↓', left: '←' }[rs.deploy.facing];
    btn.textContent = t('deploy.rotate', { facing: t(`facing.${rs.deploy.facing}`), arrow });
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
  const problem = inside != null ? null : full ? t('deploy.problem.all_placed') : problemText(P.placementProblem(placement, rs.deploy.planes, side));
  if (inside == null) {
    for (const [r, c] of P.planeCells(placement)) {
      const el = grid.querySelector(`[data-cell="${P.cellName(r, c)}"]`);
      if (el) { el.dataset.preview = problem ? 'bad' : 'ok'; el.classList.add(problem ? 'preview-bad' : 'preview-ok'); }
    }
  }
  if (hint) {
    hint.textContent = onHead ? t('deploy.hint.turn', { cell }) : inside != null ? t('deploy.hint.pick', { cell })
      : problem ? t('deploy.hint.not_allowed', { cell, problem }) : t('deploy.hint.place', { cell, facing: t(`facing.${placement.facing}`) });
  }
  const el = grid.querySelector(`[data-cell="${cell}"]`);
  if (el) el.setAttribute('aria-description', problem ? t('deploy.aria.cannot', { problem }) : onHead ? t('deploy.aria.turn') : inside != null ? t('deploy.aria.pick') : t('deploy.aria.can'));
}

/** plane.js's placement problem ('off the board', 'overlaps a plane') in the page's language. */
function problemText(problem) {
  if (!problem) return null;
  return problem === 'off the board' ? t('deploy.problem.off_board') : t('deploy.problem.overlap');
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
      d.hint = t('deploy.hint.turned', { cell, facing: t(`facing.${facing}`) });
    } else {
      d.hint = t('deploy.hint.cannot_turn', { cell });
    }
  } else if (inside != null) {
    d.planes.splice(inside, 1);
    d.hint = t('deploy.hint.picked', { cell });
  } else if (d.planes.length >= need) {
    d.hint = t('deploy.hint.all_placed');
  } else {
    const placement = { head: cell, facing: d.facing };
    const problem = problemText(P.placementProblem(placement, d.planes, side));
    const other = problem && P.fittingFacing(cell, d.facing, d.planes, side);
    if (problem) d.hint = t('deploy.hint.cannot_place', { facing: t(`facing.${d.facing}`), problem }) + (other ? t('deploy.hint.fits', { facing: t(`facing.${other}`) }) : '');
    else {
      d.planes.push(placement);
      d.hint = t('deploy.hint.placed', { cell, facing: t(`facing.${d.facing}`) });
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

export function scoreboard(rs) {
  const v = rs.view;
  const seats = v.boards.map((b) => b.seat);
  const heads = v.history.map((r) => t(r.extra ? 'score.extra_head' : 'score.round_head', { n: r.round + 1 }));
  // The current round, until its result joins the history.
  const showLive = v.phase.phase !== 'over' && v.history.length <= v.round;
  return h('div', { class: 'card score' },
    h('h2', {}, t('score.title')),
    h('div', { class: 'scroll' },
      h('table', { class: 'scoreboard', id: 'scoreboard' },
        h('caption', { class: 'sr-only' }, t('score.caption')),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('score.player')),
          // Totals first: they stay in view however many rounds scroll sideways.
          h('th', { scope: 'col' }, t('score.total')), h('th', { scope: 'col' }, t('score.wins')),
          heads.map((t) => h('th', { scope: 'col' }, t)),
          showLive ? h('th', { scope: 'col' }, t('score.current_round')) : null)),
        h('tbody', {}, seats.map((s) => h('tr', { 'data-score-row': s, class: v.outcome && v.outcome.winner === s ? 'winner' : '' },
          h('th', { scope: 'row' }, who(rs, s), v.boards[s].knocked_out && !v.outcome ? h('span', { class: 'badge out' }, t('score.out')) : null),
          h('td', { class: 'total', 'data-total': s }, String(v.totals[s])),
          h('td', { 'data-wins': s }, String(v.round_wins[s])),
          v.history.map((r) => h('td', { title: r.survivor === s ? t('score.survived_title') : null },
            String(r.points[s]), r.survivor === s ? h('span', { 'aria-label': t('score.survived_aria') }, ' ★') : null)),
          showLive ? h('td', { class: 'live' }, String(v.boards[s].points)) : null))))),
    h('p', { class: 'muted small' }, t('score.note')));
}

export function finalPanel(rs) {
  const o = rs.view.outcome;
  if (!o) return null;
  const order = o.placings.map((p, s) => ({ p, s })).sort((a, b) => a.p - b.p || a.s - b.s);
  return h('div', { class: 'card final', id: 'final', 'data-winner': o.winner },
    h('h2', {}, o.winner === rs.you ? t('final.you_won') : t('final.won', { who: seatName(rs, o.winner) })),
    h('ol', { class: 'placings' }, order.map(({ p, s }) => h('li', { 'data-placing': s, 'data-place': p },
      h('strong', {}, ordinal(p)), t('final.placing', { who: who(rs, s), points: t('final.points', { count: o.totals[s] }), rounds: t('final.rounds_won', { count: o.round_wins[s] }) })))),
    rematchOffer(rs),
    h('p', { class: 'row' },
      rs.you != null ? h('button', { id: 'rematch', class: 'primary', onclick: () => rematch(rs) }, t('final.rematch')) : null,
      h('button', { id: 'to-lobby', onclick: () => go('/') }, t('room.back_to_lobby')),
      replayLink(rs)),
    rs.you != null ? h('p', { class: 'muted small' }, t('final.rematch_note')) : null);
}

function rematchName(name) {
  // Numbered, not worded: players who read different languages compute the same name, and so
  // find each other's rematch room.
  const base = name || t('room.default_name');
  const m = base.match(/^(.*) #(\d+)$/);
  return m ? `${m[1]} #${Number(m[2]) + 1}` : `${base} #2`;
}

/** Seconds between two looks for a rematch room while a finished room is open. */
const REMATCH_POLL_MS = 3000;

/**
 * The rematch another player of this room asked for: the waiting room `rematch` made (the same
 * game, the numbered name) with one of this room's people in it, found by asking the server's room
 * list every few seconds while this finished room is open. Null until one is found; then a line
 * with a Join button for the others.
 */
export function rematchOffer(rs) {
  if (!rs.summary || rs.summary.status === 'playing' || rs.summary.status === 'waiting') return null;
  if (!rs.rematchTimer) {
    const look = async () => {
      if (S.page !== 'room' || S.roomId !== rs.id) { clearInterval(rs.rematchTimer); rs.rematchTimer = null; return; }
      const list = await S.conn.request({ type: 'list_rooms' }).catch(() => null);
      if (!list) return;
      const found = rematchRoomIn(rs, list.rooms);
      if ((found && found.id) !== (rs.rematchRoom && rs.rematchRoom.id)) { rs.rematchRoom = found; renderRoom(); }
    };
    rs.rematchTimer = setInterval(look, REMATCH_POLL_MS);
    look();
  }
  const offer = rs.rematchRoom;
  if (!offer || offer.seated.includes(S.player)) return null;
  return h('p', { class: 'row rematch-offer', id: 'rematch-offer', 'data-rematch-room': offer.id, role: 'status' },
    h('span', {}, t('final.rematch_offer', { who: offer.names.join(t('list.sep')) })),
    h('button', { type: 'button', class: 'primary', id: 'rematch-join', onclick: () => joinRoom(offer.id, null) }, t('final.rematch_join')));
}

/**
 * A link to the finished game's replay (replay.html, `/replay/<room>`), for the people who
 * played it: a casual room's record is kept when its match ends. Tournament matches are
 * replayed from the tournament's page, by match, so spectators get no link here.
 */
export function replayLink(rs) {
  if (rs.you == null || !rs.summary || rs.summary.status === 'playing' || rs.summary.status === 'waiting') return null;
  return h('a', { href: `/replay/${rs.id}`, id: 'replay-link', class: 'replay-link' }, t('final.replay'));
}

/** The waiting rematch room among `rooms`, with a free seat and someone of this room seated. */
function rematchRoomIn(rs, rooms) {
  const config = rs.summary.config;
  const name = rematchName(config.name);
  const people = new Set(rs.summary.seats.filter((s) => s.occupant && s.occupant.bot == null).map((s) => s.occupant.player));
  const room = rooms.find((r) => r.status === 'waiting' && r.config.name === name
    && JSON.stringify(r.config.game) === JSON.stringify(config.game) && r.seats.some((s) => !s.occupant)
    && r.seats.some((s) => s.occupant && people.has(s.occupant.player)));
  if (!room) return null;
  const seated = room.seats.filter((s) => s.occupant).map((s) => s.occupant.player);
  const names = room.seats.filter((s) => s.occupant && people.has(s.occupant.player)).map((s) => s.occupant.name);
  return { id: room.id, seated, names };
}

export async function rematch(rs) {
  const config = JSON.parse(JSON.stringify(rs.summary.config));
  config.name = rematchName(config.name);
  const list = await S.conn.request({ type: 'list_rooms' }).catch(() => null);
  const same = list && list.rooms.find((r) => r.status === 'waiting' && r.config.name === config.name
    && JSON.stringify(r.config.game) === JSON.stringify(config.game) && r.seats.some((s) => !s.occupant));
  if (same) { await joinRoom(same.id, null); return; }
  const bots = rs.summary.seats.filter((s) => s.occupant && s.occupant.bot != null).map((s) => s.occupant.bot);
  await createWith(config, bots);
}
