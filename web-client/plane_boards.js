// Plane battle's room: the boards (firing at them), deployment, the scoreboard, the final panel and
// rematch. The room's event log, which every game's room shows, is log_panel.js's.
import * as P from './plane.js';
import { h } from './dom.js';
import { hooks, S, ordinal, plural } from './state.js';
import { seatName, who } from './room_state.js';
import { createWith, joinRoom } from './lobby.js';

// room_page.js draws the room and imports this module, so the call goes up through state.js's hooks.
const renderRoom = () => hooks.renderRoom();
// Navigation is app.js's, the entry, which this module must not import: app.js sets hooks.go.
const go = (path) => hooks.go(path);

// ---------------------------------------------------------------- boards

export function legend() {
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

export function boardEl(rs, b, order = 0) {
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

export function deployPanel(rs) {
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

export function rotate(rs) {
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

export function scoreboard(rs) {
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

export function finalPanel(rs) {
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
