// Gomoku (docs/rules.md, gomoku) in the browser: points, the view kept up to date from events, the
// board (with its confirming tap), the move list, draw offers and takebacks (悔棋), and the result.
// The room page (room_page.js, gameUi) hands each function a `ui` with its helpers: h (builds
// elements; text goes in as text nodes, never as HTML), who(seat), seatName(seat), log(text),
// act(action), send(message) and render().
import { t } from './i18n.js';

/** Where the confirming tap's setting is remembered ('1' on, '0' off; unset: the device's default). */
export const CONFIRM_KEY = 'skirmish.gomoku.confirm';

/** The owner of a tournament's match rooms (the server's `MATCH_OWNER`): no offers there. */
const MATCH_OWNER = '00000000-0000-0000-0000-000000000000';

/** The most takebacks a seat is granted in a game (games/src/gomoku/offers.rs, MAX_TAKEBACKS). */
export const MAX_TAKEBACKS = 3;

/**
 * Whether a stone waits for a second tap on its point: the remembered setting, else on for touch
 * screens (a coarse pointer) and off for a mouse.
 */
export function confirmTap() {
  const kept = localStorage.getItem(CONFIRM_KEY);
  if (kept === '1' || kept === '0') return kept === '1';
  return window.matchMedia('(pointer: coarse)').matches;
}

function setConfirmTap(on, rs, ui) {
  localStorage.setItem(CONFIRM_KEY, on ? '1' : '0');
  rs.ghost = null;
  rs.notice = null;
  ui.render();
}

/** The sentences of each offer, by offer: the other's (asked, accept) and one's own waiting. */
const OFFER_TEXT = {
  draw: { asked: 'gomoku.offer.draw_asked', accept: 'gomoku.offer.draw_accept', waiting: 'gomoku.offer.draw_waiting' },
  takeback: { asked: 'gomoku.offer.takeback_asked', accept: 'gomoku.offer.takeback_accept', waiting: 'gomoku.offer.takeback_waiting' },
};

/** Forgets a stone waiting for its confirming tap, and the hint that said so. */
function dropGhost(rs) {
  if (rs.ghost) rs.notice = null;
  rs.ghost = null;
}

/** The offers in a view (older views and snapshots may have none). */
function offersOf(v) {
  return v.offers || { draw: null, takeback: null, taken_back: [0, 0] };
}

/** Rule sets, as the create-room form offers them. */
export const RULES = [
  ['freestyle', t('gomoku.rule_help.freestyle')],
  ['standard', t('gomoku.rule_help.standard')],
  ['renju', t('gomoku.rule_help.renju')],
];

/**
 * The named openings of games/src/gomoku/openings.rs: the 26 standard renju openings (black's third
 * stone placed; white moves next) and the seed paper's three formations.
 */
export const OPENINGS = [
  ['kansei', '寒星', 'direct 1'], ['keigetsu', '渓月', 'direct 2'], ['sosei', '疎星', 'direct 3'],
  ['kagetsu', '花月', 'direct 4'], ['zangetsu', '残月', 'direct 5'], ['ugetsu', '雨月', 'direct 6'],
  ['kinsei', '金星', 'direct 7'], ['shogetsu', '松月', 'direct 8'], ['kyugetsu', '丘月', 'direct 9'],
  ['shingetsu', '新月', 'direct 10'], ['zuisei', '瑞星', 'direct 11'], ['sangetsu', '山月', 'direct 12'],
  ['yusei', '遊星', 'direct 13'],
  ['chosei', '長星', 'indirect 1'], ['kyogetsu', '峡月', 'indirect 2'], ['kosei', '恒星', 'indirect 3'],
  ['suigetsu', '水月', 'indirect 4'], ['ryusei', '流星', 'indirect 5'], ['ungetsu', '雲月', 'indirect 6'],
  ['hogetsu', '浦月', 'indirect 7'], ['rangetsu', '嵐月', 'indirect 8'], ['gingetsu', '銀月', 'indirect 9'],
  ['myojo', '明星', 'indirect 10'], ['shagetsu', '斜月', 'indirect 11'], ['meigetsu', '名月', 'indirect 12'],
  ['suisei', '彗星', 'indirect 13'],
  ['slanted-three', '斜三阵', 'seed formation'], ['square', '四角阵', 'seed formation'],
  ['plum-blossom', '梅花阵', 'seed formation'],
];

export const STONES = ['black', 'white'];

/**
 * An opening's name as the page shows it: `kansei 寒星 (direct 1)` in English, 寒星（直指1号） in
 * Chinese (`opening.<name>` in the catalogs: the Chinese names of the renju openings, which
 * openings.rs gives in their Japanese forms).
 */
export function openingLabel(name, note) {
  const title = t(`opening.${name}`);
  const m = note && note.match(/^(direct|indirect) (\d+)$/);
  return m ? t('opening.label_numbered', { title, kind: t(`opening.${m[1]}`), n: m[2] }) : title;
}

/** Black sits in seat 0, white in seat 1: the CSS class of its stones. */
export function colourOf(seat) {
  return STONES[seat] ?? `seat${seat + 1}`;
}

/** The colour of seat `seat` in words: black, white (黑棋, 白棋). */
export function colourName(seat) {
  return STONES[seat] ? t(`colour.${STONES[seat]}`) : t('seat.n', { n: seat + 1 });
}

/** (x from the left, y from the bottom), 0-based -> "h8". */
export function pointName(x, y) {
  return String.fromCharCode(97 + x) + String(y + 1);
}

/** The star points (hoshi) drawn on a board of `size` lines, as a set of names. */
export function starPoints(size) {
  const stars = new Set();
  if (size < 9) return stars;
  const lo = size >= 13 ? 3 : 2;
  const hi = size - 1 - lo;
  const mid = (size - 1) / 2;
  [[lo, lo], [lo, hi], [hi, lo], [hi, hi]].forEach(([x, y]) => stars.add(pointName(x, y)));
  if (size % 2 === 1) stars.add(pointName(mid, mid));
  if (size >= 19) [[lo, mid], [mid, lo], [hi, mid], [mid, hi]].forEach(([x, y]) => stars.add(pointName(x, y)));
  return stars;
}

function openingText(opening) {
  if (!opening) return '';
  if (typeof opening === 'string') return t('gomoku.opening_named', { name: openingLabel(opening) });
  return t('gomoku.opening_stones', { count: opening.length });
}

/** One line describing a gomoku config, for the lobby and the room's header. */
export function configText(g, clock) {
  const move = clock && clock.move_ms ? t('clock.per_move', { s: clock.move_ms / 1000 }) : t('clock.no_move_clock');
  return [t('game.gomoku'), `${g.size}×${g.size}`, t(`gomoku.rule.${g.rule}`), openingText(g.opening), move].filter(Boolean).join(' · ');
}

/** What the lobby's room list says about a gomoku room: [headline, detail]. */
export function lobbyText(g) {
  return [`${t('game.gomoku')} · ${g.size}×${g.size}`, [t(`gomoku.rule.${g.rule}`), openingText(g.opening)].filter(Boolean).join(' · ')];
}

// ---------------------------------------------------------------- keeping the view current

/** A key that changes whenever the turn does (a stale deadline is dropped on change). */
export function turnKey(view) {
  return view ? `${view.moves.length}/${view.to_move ?? '-'}` : '';
}

/** The room page's phase: 'waiting' (seats open), 'play' or 'over'. */
export function phaseOf(view, status) {
  if (status === 'waiting') return 'waiting';
  return view.outcome ? 'over' : 'play';
}

/**
 * Applies one event to the room state `rs` (`rs.view` is a gomoku view) and logs it.
 * `moveMs` is the room's move clock (0: none), to estimate the deadline of a turn that is not ours.
 */
export function applyEvent(rs, ev, moveMs, ui) {
  const v = rs.view;
  switch (ev.kind) {
    case 'started': {
      v.size = ev.size;
      v.rule = ev.rule;
      v.moves = ev.opening.slice();
      v.opening = ev.opening.length;
      v.to_move = ev.to_move;
      v.forbidden = [];
      v.outcome = null;
      v.offers = { draw: null, takeback: null, taken_back: [0, 0] };
      rs.placing = null;
      dropGhost(rs);
      rs.deadlineAt = moveMs ? Date.now() + moveMs : null;
      const from = ev.opening.length ? t('gomoku.log.from_opening', { count: ev.opening.length }) : '';
      ui.log(t('gomoku.log.started', { size: `${ev.size}×${ev.size}`, rule: t(`gomoku.rule.${ev.rule}`), from, mover: mover(ev.to_move, ui) }));
      break;
    }
    case 'placed': {
      // A `your_turn` view that came first already holds this stone (and the forbidden points
      // and deadline that follow it).
      if (ev.number > v.moves.length) {
        v.moves.push({ stone: ev.stone, point: ev.point });
        v.to_move = 1 - ev.seat;
        v.forbidden = [];
        rs.deadlineAt = moveMs ? Date.now() + moveMs : null;
        // The other's draw offer lapses with this stone, and any takeback (offers.rs).
        const o = offersOf(v);
        v.offers = { ...o, draw: o.draw === 1 - ev.seat ? null : o.draw, takeback: null };
      }
      if (ev.seat === rs.you) rs.asked = {};
      rs.placing = null;
      dropGhost(rs);
      ui.log(t('gomoku.log.placed', { n: ev.number, mover: mover(ev.seat, ui), point: ev.point }));
      break;
    }
    case 'draw_offered':
      v.offers = { ...offersOf(v), draw: ev.seat };
      if (ev.seat === rs.you) rs.asked = { ...rs.asked, draw: true };
      ui.log(t('gomoku.log.draw_offered', { mover: mover(ev.seat, ui) }));
      break;
    case 'draw_declined':
      v.offers = { ...offersOf(v), draw: null };
      ui.log(t('gomoku.log.draw_declined', { mover: mover(ev.seat, ui) }));
      break;
    case 'takeback_asked':
      v.offers = { ...offersOf(v), takeback: ev.seat };
      if (ev.seat === rs.you) rs.asked = { ...rs.asked, takeback: true };
      ui.log(t('gomoku.log.takeback_asked', { mover: mover(ev.seat, ui) }));
      break;
    case 'takeback_declined':
      v.offers = { ...offersOf(v), takeback: null };
      ui.log(t('gomoku.log.takeback_declined', { mover: mover(ev.seat, ui) }));
      break;
    case 'taken_back': {
      // A `your_turn` view that came first already shows the position taken back to.
      const n = ev.moves.length;
      const tail = v.moves.slice(-n).map((m) => m.point).join(' ');
      if (v.moves.length >= n && tail === ev.moves.map((m) => m.point).join(' ')) {
        v.moves.splice(v.moves.length - n, n);
        v.to_move = ev.seat;
        v.forbidden = [];
        rs.deadlineAt = moveMs ? Date.now() + moveMs : null;
        const used = offersOf(v).taken_back.slice();
        used[ev.seat] = (used[ev.seat] || 0) + 1;
        v.offers = { draw: null, takeback: null, taken_back: used };
      }
      rs.placing = null;
      dropGhost(rs);
      ui.log(t('gomoku.log.taken_back', { mover: mover(ev.seat, ui), points: ev.moves.map((m) => m.point).join(t('list.sep')) }));
      break;
    }
    case 'ended': {
      v.outcome = ev.outcome;
      v.offers = { ...offersOf(v), draw: null, takeback: null };
      dropGhost(rs);
      v.to_move = null;
      v.forbidden = [];
      rs.placing = null;
      rs.confirmResign = false;
      rs.deadlineAt = null;
      if (rs.summary) rs.summary.status = 'finished';
      ui.log(t('log.game_over', { result: resultText(ev.outcome, ui).join(' ') }));
      break;
    }
    default:
      break;
  }
}

/** "You (black)" or "Ann (white)". */
function mover(seat, ui) {
  return t('mover', { who: ui.who(seat), colour: colourName(seat) });
}

/** The result as [headline, detail], such as ["Bot (white) won.", "You resigned: ..."]. */
export function resultText(o, ui) {
  const e = o.end;
  if (o.winner == null && e.kind === 'draw_agreed') {
    return [t('gomoku.end.draw_agreed'), t('gomoku.end.draw_agreed_detail', { who: mover(e.offered_by, ui), stones: o.stones })];
  }
  if (o.winner == null) {
    const why = e.kind === 'board_full' ? t('gomoku.end.board_full') : e.kind === 'no_legal_point'
      ? t('gomoku.end.no_legal_point') : e.kind;
    return [t('result.draw'), t('gomoku.end.no_winner', { why, stones: o.stones })];
  }
  const won = ui.you === o.winner ? t('result.you_won') : t('result.won', { who: mover(o.winner, ui) });
  switch (e.kind) {
    case 'five': {
      const n = e.line.length;
      const row = n === 5 ? t('gomoku.end.five') : t('gomoku.end.n_in_row', { n });
      return [t('gomoku.end.won_with', { won, row }), t('gomoku.end.line', { line: e.line.join(' '), stones: o.stones })];
    }
    case 'resigned':
      return [t('result.resigned', { won, who: mover(e.seat, ui) }), e.reason ? t('result.reason', { reason: e.reason }) : t('result.no_reason')];
    case 'timed_out':
      return [t('result.timed_out', { won, who: mover(e.seat, ui) }), t('gomoku.end.after', { stones: o.stones })];
    default:
      return [t('result.plain', { won }), ''];
  }
}

// ---------------------------------------------------------------- drawing

/** Whether the viewer may place a stone now. */
export function canPlace(rs) {
  const v = rs.view;
  return rs.you != null && v.to_move === rs.you && !v.outcome && !rs.placing
    && (!rs.summary || rs.summary.status === 'playing');
}

/** The board, with coordinates on the left and bottom edges. */
export function boardEl(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  const size = v.size;
  const stones = new Map();
  v.moves.forEach((m, i) => stones.set(m.point, { stone: m.stone, number: i + 1, opening: i < v.opening }));
  const last = v.moves.length ? v.moves[v.moves.length - 1].point : null;
  const win = new Set(v.outcome && v.outcome.end.kind === 'five' ? v.outcome.end.line : []);
  const showForbidden = v.rule === 'renju' && v.to_move === 0 && !v.outcome;
  const forbidden = new Set(showForbidden ? v.forbidden || [] : []);
  const stars = starPoints(size);
  const playable = canPlace(rs);
  const numbers = ui.showNumbers;
  const cells = [];
  for (let y = size - 1; y >= 0; y--) {
    cells.push(h('span', { class: 'gy', 'aria-hidden': 'true' }, String(y + 1)));
    for (let x = 0; x < size; x++) {
      const p = pointName(x, y);
      const s = stones.get(p);
      const isForbidden = !s && forbidden.has(p);
      const open = playable && !s && !isForbidden;
      const pending = rs.placing === p;
      const ghost = open && rs.ghost === p;
      const edges = [x === 0 ? 'el' : '', x === size - 1 ? 'er' : '', y === size - 1 ? 'et' : '', y === 0 ? 'eb' : ''];
      const cls = ['pt', ...edges, s ? 'has-stone' : '', p === last ? 'last' : '', win.has(p) ? 'win' : '',
        isForbidden ? 'forbidden' : '', open ? 'open' : '', pending ? 'pending' : '', ghost ? 'ghost-pick' : ''].filter(Boolean).join(' ');
      const words = [p];
      if (s) words.push(t(s.opening ? 'gomoku.point.stone_opening' : 'gomoku.point.stone', { colour: t(`colour.${s.stone}`), n: s.number }));
      else if (isForbidden) words.push(t('gomoku.point.forbidden'));
      else words.push(t('gomoku.point.empty'));
      if (p === last) words.push(t('gomoku.point.last'));
      if (win.has(p)) words.push(t('gomoku.point.win'));
      if (ghost) words.push(t('gomoku.point.ghost'));
      cells.push(h('button', {
        type: 'button', class: cls, id: `p-${p}`, 'data-point': p, 'data-x': x, 'data-y': y,
        'data-stone': s ? s.stone : null, 'data-number': s ? s.number : null,
        'data-last': p === last ? 'true' : null, 'data-win': win.has(p) ? 'true' : null,
        'data-forbidden': isForbidden ? 'true' : null, 'data-playable': open ? 'true' : null,
        'data-ghost': ghost ? 'true' : null,
        'aria-label': words.join(t('list.sep')), 'aria-disabled': open ? null : 'true', tabindex: -1,
        title: isForbidden ? t('gomoku.point.forbidden_title', { point: p }) : null,
      },
      stars.has(p) && !s ? h('span', { class: 'star', 'aria-hidden': 'true' }) : null,
      s ? h('span', { class: `stone ${s.stone}`, 'aria-hidden': 'true' }, numbers ? String(s.number) : '') : null,
      pending || ghost ? h('span', { class: `stone ghost ${colourOf(rs.you)}`, 'aria-hidden': 'true' }) : null,
      isForbidden ? h('span', { class: 'ban', 'aria-hidden': 'true' }, '×') : null));
    }
  }
  cells.push(h('span', { class: 'gcorner', 'aria-hidden': 'true' }));
  for (let x = 0; x < size; x++) cells.push(h('span', { class: 'gx', 'aria-hidden': 'true' }, String.fromCharCode(97 + x)));
  const grid = h('div', {
    class: `goban size-${size}${playable ? ' playable' : ''}`, style: `--size:${size}`, id: 'goban',
    role: 'group', 'aria-label': t('gomoku.board_label', { size }),
    'data-size': size, 'data-playable': playable ? 'true' : 'false',
    onclick: (e) => {
      const el = e.target.closest('[data-point]');
      if (el && el.dataset.playable) tap(rs, el.dataset.point, ui);
      else if (el) {
        // Say why nothing happens, rather than nothing.
        rs.notice = whyNot(rs, el, playable, ui);
        ui.render();
      }
    },
    onkeydown: (e) => boardKey(e, size, ui),
  }, cells);
  // One tab stop: the last focused point, or the last move, or the centre.
  const centre = pointName(Math.floor(size / 2), Math.floor(size / 2));
  const focus = grid.querySelector(`[data-point="${ui.focus || last || centre}"]`) || grid.querySelector('[data-point]');
  if (focus) focus.tabIndex = 0;
  return h('figure', { class: 'goban-wrap', 'data-gomoku-board': true },
    h('figcaption', { class: 'sr-only' }, t('gomoku.the_board')),
    offerBox(rs, ui), grid,
    h('p', { id: 'gomoku-notice', class: rs.ghost ? 'notice hint' : 'notice', role: 'status' }, rs.notice || ''));
}

/**
 * The offer waiting for the viewer's answer, right above the board (in view on a phone and a desktop):
 * the other's draw offer or takeback, with Accept and Decline; or the viewer's own, waiting.
 */
function offerBox(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  if (rs.you == null || v.outcome) return null;
  const o = offersOf(v);
  const theirs = (seat) => seat != null && seat !== rs.you;
  const ask = theirs(o.takeback) ? 'takeback' : theirs(o.draw) ? 'draw' : null;
  if (ask) {
    const other = ask === 'takeback' ? o.takeback : o.draw;
    return h('div', { class: 'card offer-box', id: 'offer-box', role: 'alert', 'data-offer': ask },
      h('span', { id: 'offer-text' }, t(OFFER_TEXT[ask].asked, { who: ui.seatName(other) })),
      h('button', { id: 'offer-accept', type: 'button', class: 'primary', onclick: () => answer(rs, ask, true, ui) }, t(OFFER_TEXT[ask].accept)),
      h('button', { id: 'offer-decline', type: 'button', onclick: () => answer(rs, ask, false, ui) }, t('gomoku.offer.decline')));
  }
  const mine = o.takeback === rs.you ? 'takeback' : o.draw === rs.you ? 'draw' : null;
  if (!mine) return null;
  return h('p', { class: 'muted', id: 'offer-box', 'data-offer': mine, 'data-mine': 'true' },
    t(OFFER_TEXT[mine].waiting, { who: ui.seatName(1 - rs.you) }));
}

function answer(rs, offer, accept, ui) {
  ui.send({ type: 'answer', offer, accept });
  ui.render();
}

/**
 * A tap on a point the viewer may play: with the confirming tap on, the first tap shows a ghost
 * stone there and a second tap on the same point plays it (a tap elsewhere moves the ghost).
 */
function tap(rs, point, ui) {
  if (confirmTap() && rs.ghost !== point) {
    rs.ghost = point;
    rs.notice = t('gomoku.confirm.again', { point });
    ui.setFocus(point);
    ui.render();
    return;
  }
  place(rs, point, ui);
}

function boardKey(e, size, ui) {
  const el = e.target.closest('[data-point]');
  if (!el) return;
  const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (!steps[e.key]) return;
  e.preventDefault();
  const x = Math.min(size - 1, Math.max(0, Number(el.dataset.x) + steps[e.key][0]));
  const y = Math.min(size - 1, Math.max(0, Number(el.dataset.y) + steps[e.key][1]));
  const next = e.currentTarget.querySelector(`[data-point="${pointName(x, y)}"]`);
  if (next) {
    el.tabIndex = -1; next.tabIndex = 0; next.focus();
    ui.setFocus(next.dataset.point);
  }
}

function place(rs, point, ui) {
  rs.notice = null;
  rs.ghost = null;
  rs.placing = point;
  ui.setFocus(point);
  ui.act({ game: 'gomoku', kind: 'place', point });
  ui.render();
}

/** The players, whose turn, the move numbers switch and the Resign button. */
export function sidePanel(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  const playing = !v.outcome && rs.summary && rs.summary.status === 'playing';
  const players = [0, 1].map((seat) => h('li', { 'data-player': seat, class: v.to_move === seat ? 'to-move' : '' },
    h('span', { class: `stone mini ${colourOf(seat)}`, 'aria-hidden': 'true' }),
    h('strong', {}, ui.seatName(seat)), rs.you === seat ? t('seat.you_mark') : '',
    ` · ${colourName(seat)}`,
    v.to_move === seat ? h('span', { class: 'badge turn' }, t('badge.to_move')) : null,
    v.outcome && v.outcome.winner === seat ? h('span', { class: 'badge ok' }, t('badge.winner')) : null));
  let resign = null;
  if (rs.you != null && playing) {
    resign = rs.confirmResign
      ? h('p', { class: 'row', id: 'resign-box' },
        h('span', {}, t('resign.ask')),
        h('button', { id: 'resign-confirm', type: 'button', class: 'danger', onclick: () => resignNow(rs, ui) }, t('resign.yes')),
        h('button', { id: 'resign-cancel', type: 'button', onclick: () => { rs.confirmResign = false; ui.render(); } }, t('resign.no')))
      : h('p', { class: 'row offers', id: 'offers' },
        h('button', { id: 'resign', type: 'button', onclick: () => { rs.confirmResign = true; ui.render(); } }, t('resign.button')),
        offerButtons(rs, ui));
  }
  const rule = t(`gomoku.rule_note.${v.rule}`);
  return h('div', { class: 'card gomoku-side' },
    h('h2', {}, t('players.title')),
    h('ul', { class: 'players' }, players),
    resign,
    h('p', { class: 'row small' },
      h('label', {},
        h('input', { type: 'checkbox', id: 'show-numbers', checked: ui.showNumbers, onchange: (e) => ui.setNumbers(e.target.checked) }),
        t('gomoku.show_numbers'))),
    rs.you != null ? h('p', { class: 'row small' },
      h('label', {},
        h('input', { type: 'checkbox', id: 'confirm-tap', checked: confirmTap(), onchange: (e) => setConfirmTap(e.target.checked, rs, ui) }),
        t('gomoku.confirm.setting'))) : null,
    h('p', { class: 'muted small' }, rule));
}

/**
 * The buttons Offer a draw (求和) and Take back (悔棋), for a seated player in a casual room (a tournament's
 * match has neither). Each is disabled while the server would refuse it: one waits already, it was
 * asked since the player's last stone, no stone of the player's to take back, none left.
 */
function offerButtons(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  if (rs.you == null || !rs.summary || rs.summary.owner === MATCH_OWNER) return null;
  const o = offersOf(v);
  const asked = rs.asked || {};
  const left = Math.max(0, MAX_TAKEBACKS - (o.taken_back[rs.you] || 0));
  // The last stone after the opening is the player's, or the one before it (offers.rs, takeback_size).
  const lastTwo = v.moves.slice(Math.max(v.opening, v.moves.length - 2));
  const canTakeBack = o.takeback == null && !asked.takeback && left > 0
    && lastTwo.some((m) => m.stone === colourOf(rs.you));
  const canDraw = o.draw == null && !asked.draw;
  return [
    h('button', { id: 'offer-draw', type: 'button', disabled: !canDraw, onclick: () => { ui.send({ type: 'offer', offer: 'draw' }); ui.render(); } }, t('gomoku.offer.draw_button')),
    h('button', { id: 'offer-takeback', type: 'button', disabled: !canTakeBack, 'data-left': left, onclick: () => { ui.send({ type: 'offer', offer: 'takeback' }); ui.render(); } },
      t('gomoku.offer.takeback_button', { count: left }))];
}

function resignNow(rs, ui) {
  rs.confirmResign = false;
  ui.act({ game: 'gomoku', kind: 'resign' });
  ui.render();
}

/** Every move in order, the opening's marked. */
export function moveList(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  return h('div', { class: 'card movecard' },
    h('h2', { id: 'moves-title' }, t('moves.title', { n: v.moves.length })),
    v.moves.length
      ? h('ol', { id: 'moves', class: 'moves', 'aria-labelledby': 'moves-title' },
        v.moves.map((m, i) => h('li', { 'data-move': i + 1, 'data-point': m.point, 'data-stone': m.stone, class: i < v.opening ? 'opening' : '' },
          h('span', { class: `stone mini ${m.stone}`, 'aria-hidden': 'true' }),
          ` ${t(`colour.${m.stone}`)} ${m.point}`, i < v.opening ? h('small', {}, t('gomoku.opening_mark')) : null)))
      : h('p', { class: 'empty' }, t('gomoku.no_stones')));
}

/** Why a tap on the point `el` places nothing, in words. */
function whyNot(rs, el, playable, ui) {
  const v = rs.view;
  if (v.outcome || (rs.summary && rs.summary.status !== 'playing')) return t('gomoku.notice.over');
  if (rs.you == null) return t('gomoku.notice.spectator');
  if (!playable && v.to_move !== rs.you) return t('gomoku.notice.not_your_turn', { who: ui.seatName(v.to_move) });
  if (el.dataset.forbidden) return t('gomoku.notice_forbidden', { point: el.dataset.point });
  if (el.dataset.stone) return t('gomoku.notice.taken', { point: el.dataset.point });
  return t('gomoku.notice.wait');
}

/** The result, once the game is over. */
export function resultPanel(rs, ui) {
  const { h } = ui;
  const o = rs.view.outcome;
  if (!o) return null;
  const [head, detail] = resultText(o, { ...ui, you: rs.you });
  return h('div', { class: 'card final', id: 'result', 'data-winner': o.winner ?? 'draw', 'data-end': o.end.kind },
    h('h2', { id: 'result-text' }, head),
    detail ? h('p', { id: 'result-detail' }, detail) : null,
    h('p', { class: 'row' },
      rs.you != null ? h('button', { id: 'rematch', class: 'primary', onclick: ui.rematch }, t('final.rematch')) : null,
      h('button', { id: 'to-lobby', onclick: ui.toLobby }, t('room.back_to_lobby'))));
}

/** The status bar's text and the seat whose turn it is. */
export function statusText(rs, phase, ui) {
  const v = rs.view;
  if (phase === 'over') return { text: v.outcome ? resultText(v.outcome, { ...ui, you: rs.you })[0] : t('status.game_over'), turn: '' };
  const seat = v.to_move;
  if (seat == null) return { text: t('status.not_started'), turn: '' };
  const count = t('moves.number', { n: v.moves.length + 1 });
  // The stone before this turn, bots' too: the move list may be out of sight.
  const lastMove = v.moves.length ? v.moves[v.moves.length - 1] : null;
  const last = lastMove ? t('gomoku.status.last', { colour: t(`colour.${lastMove.stone}`), point: lastMove.point }) : '';
  if (seat === rs.you) {
    const extra = v.rule === 'renju' && seat === 0 && (v.forbidden || []).length ? t('gomoku.status.forbidden_marked') : '';
    const key = confirmTap() ? 'gomoku.status.your_turn_confirm' : 'gomoku.status.your_turn';
    return { text: t(key, { count, colour: colourName(seat), extra }) + last, turn: String(seat) };
  }
  return { text: t('status.to_move', { count, mover: t('mover', { who: ui.seatName(seat), colour: colourName(seat) }) }) + last, turn: String(seat) };
}
