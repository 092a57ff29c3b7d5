// Tic-tac-toe (docs/rules.md, tic-tac-toe) in the browser: the nine cells kept current from
// events, the board, the players with Resign, and the result. A page module (games.js): the room
// page hands `section` a `ui` with its helpers (h, who, seatName, log, act, render, rematch,
// toLobby) and `parts`, the room's common pieces (header, status bar, seats, log, chat).
import { t } from './i18n.js';

export const GAME = 'tic_tac_toe';

/** The create-room form's move clock: seconds by default, and its help. */
export const MOVE_FIELD = { value: 30, help: 'create.move_help' };

/** X for seat 0 (moves first), O for seat 1. */
export function mark(seat) {
  return seat === 0 ? 'X' : seat === 1 ? 'O' : '';
}

export function seatLabel(seat) {
  return t('ttt.seat', { mark: mark(seat) });
}

export function createFields() {
  return [];
}

export function configFromForm() {
  return { game: GAME };
}

export function configText(g, clock) {
  const move = clock && clock.move_ms ? t('clock.per_move', { s: clock.move_ms / 1000 }) : t('clock.no_move_clock');
  return [t('game.tic_tac_toe'), '3×3', move].join(' · ');
}

export function lobbyText() {
  return [t('game.tic_tac_toe'), '3×3'];
}

export function turnKey(view) {
  return view ? `${view.cells.filter((c) => c != null).length}/${view.to_move ?? '-'}` : '';
}

function phaseOf(view, status) {
  if (status === 'waiting') return 'waiting';
  return view.outcome ? 'over' : 'play';
}

/** "You (X)" or "Ann (O)". */
function mover(seat, ui) {
  return t('mover', { who: ui.who(seat), colour: mark(seat) });
}

/** Cell n's name for people: row and column, from 1. */
function cellName(cell) {
  return t('ttt.cell', { row: Math.floor(cell / 3) + 1, col: (cell % 3) + 1 });
}

/** A line of three cells for people: "row 2", "column 3" or a diagonal. */
function lineName([a, b]) {
  if (b - a === 1) return t('ttt.line.row', { n: a / 3 + 1 });
  if (b - a === 3) return t('ttt.line.column', { n: a + 1 });
  return b - a === 4 ? t('ttt.line.diagonal') : t('ttt.line.anti_diagonal');
}

export function applyEvent(rs, ev, clock, ui) {
  const v = rs.view;
  const moveMs = (clock && clock.move_ms) || 0;
  switch (ev.kind) {
    case 'started':
      v.cells = Array(9).fill(null);
      v.to_move = 0;
      v.outcome = null;
      rs.placing = null;
      rs.deadlineAt = moveMs ? Date.now() + moveMs : null;
      ui.log(t('ttt.log.started', { mover: mover(0, ui) }));
      break;
    case 'placed':
      v.cells[ev.cell] = ev.seat;
      v.to_move = 1 - ev.seat;
      rs.placing = null;
      rs.notice = null;
      rs.deadlineAt = moveMs ? Date.now() + moveMs : null;
      rs.last = ev.cell;
      ui.log(t('ttt.log.placed', { mover: mover(ev.seat, ui), cell: cellName(ev.cell) }));
      break;
    case 'ended':
      v.outcome = ev.outcome;
      v.to_move = null;
      rs.placing = null;
      rs.confirmResign = false;
      rs.deadlineAt = null;
      if (rs.summary) rs.summary.status = 'finished';
      ui.log(t('log.game_over', { result: resultText(ev.outcome, ui).join(' ') }));
      break;
    default:
      break;
  }
}

/** The result as [headline, detail]. */
function resultText(o, ui) {
  const e = o.end;
  if (o.winner == null) return [t('result.draw'), t('ttt.end.board_full')];
  const won = ui.you === o.winner ? t('result.you_won') : t('result.won', { who: mover(o.winner, ui) });
  switch (e.kind) {
    case 'line':
      return [t('ttt.end.won_line', { won }), t('ttt.end.line', { line: lineName(e.cells) })];
    case 'resigned':
      return [t('result.resigned', { won, who: mover(e.seat, ui) }), e.reason ? t('result.reason', { reason: e.reason }) : t('result.no_reason')];
    case 'timed_out':
      return [t('result.timed_out', { won, who: mover(e.seat, ui) }), ''];
    default:
      return [t('result.plain', { won }), ''];
  }
}

function canPlace(rs) {
  const v = rs.view;
  return rs.you != null && v.to_move === rs.you && !v.outcome && rs.placing == null
    && (!rs.summary || rs.summary.status === 'playing');
}

function statusText(rs, phase, ui) {
  const v = rs.view;
  if (phase === 'over') return { text: resultText(v.outcome, { ...ui, you: rs.you })[0], turn: '' };
  if (v.to_move == null) return { text: '', turn: '' };
  const text = rs.you === v.to_move ? t('ttt.your_turn', { mark: mark(rs.you) })
    : t('ttt.waiting_for', { mover: mover(v.to_move, ui) });
  return { text, turn: String(v.to_move) };
}

function place(rs, cell, ui) {
  rs.notice = null;
  rs.placing = cell;
  ui.act({ game: GAME, kind: 'place', cell });
  ui.render();
}

function boardEl(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  const playable = canPlace(rs);
  const line = new Set(v.outcome && v.outcome.end.kind === 'line' ? v.outcome.end.cells : []);
  const cells = v.cells.map((seat, cell) => {
    const taken = seat != null || rs.placing === cell;
    const shown = seat != null ? mark(seat) : rs.placing === cell ? mark(rs.you) : '';
    const words = [cellName(cell), seat != null ? mark(seat) : t('ttt.empty')];
    return h('button', {
      type: 'button', class: ['ttt-cell', taken ? 'taken' : '', line.has(cell) ? 'win' : '', rs.last === cell ? 'last' : '',
        rs.placing === cell ? 'pending' : '', playable && !taken ? 'open' : ''].filter(Boolean).join(' '),
      id: `cell-${cell}`, 'data-cell': cell, 'data-mark': seat != null ? mark(seat) : null,
      'data-playable': playable && !taken ? 'true' : null, 'data-win': line.has(cell) ? 'true' : null,
      'aria-label': words.join(t('list.sep')), 'aria-disabled': playable && !taken ? null : 'true',
    }, h('span', { 'aria-hidden': 'true' }, shown));
  });
  return h('figure', { class: 'ttt-wrap' },
    h('div', {
      class: `ttt-board${playable ? ' playable' : ''}`, id: 'ttt-board', role: 'group', 'aria-label': t('ttt.board_label'),
      'data-playable': playable ? 'true' : 'false',
      onclick: (e) => {
        const el = e.target.closest('[data-cell]');
        if (!el) return;
        if (el.dataset.playable) { place(rs, Number(el.dataset.cell), ui); return; }
        // Say why nothing happens, where the person looked.
        rs.notice = v.outcome ? t('ttt.notice.over') : rs.you == null ? t('ttt.notice.spectator')
          : v.to_move !== rs.you ? t('ttt.notice.not_your_turn') : t('ttt.notice.taken');
        ui.render();
      },
    }, cells),
    h('p', { id: 'ttt-notice', class: 'notice', role: 'status' }, rs.notice || ''));
}

function sidePanel(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  const playing = !v.outcome && rs.summary && rs.summary.status === 'playing';
  const players = [0, 1].map((seat) => h('li', { 'data-player': seat, class: v.to_move === seat ? 'to-move' : '' },
    h('strong', {}, ui.seatName(seat)), rs.you === seat ? t('seat.you_mark') : '', ` · ${mark(seat)}`,
    v.to_move === seat ? h('span', { class: 'badge turn' }, t('badge.to_move')) : null,
    v.outcome && v.outcome.winner === seat ? h('span', { class: 'badge ok' }, t('badge.winner')) : null));
  let resign = null;
  if (rs.you != null && playing) {
    resign = rs.confirmResign
      ? h('p', { class: 'row', id: 'resign-box' },
        h('span', {}, t('resign.ask')),
        h('button', { id: 'resign-confirm', type: 'button', class: 'danger',
          onclick: () => { rs.confirmResign = false; ui.act({ game: GAME, kind: 'resign' }); ui.render(); } }, t('resign.yes')),
        h('button', { id: 'resign-cancel', type: 'button', onclick: () => { rs.confirmResign = false; ui.render(); } }, t('resign.no')))
      : h('p', { class: 'row' }, h('button', { id: 'resign', type: 'button', onclick: () => { rs.confirmResign = true; ui.render(); } }, t('resign.button')));
  }
  return h('div', { class: 'card ttt-side' },
    h('h2', {}, t('players.title')),
    h('ul', { class: 'players' }, players),
    resign,
    h('p', { class: 'muted small' }, t('ttt.rule_note')));
}

function resultPanel(rs, ui) {
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

/** The replay page's state before the first event (replay.js): an empty board, no seat. */
export function replayStart() {
  return { view: { cells: Array(9).fill(null), to_move: null, outcome: null }, you: null, placing: null };
}

/** The replay page's picture of a state: the board and, at the end, the result. */
export function replayView(rs, ui) {
  const { h } = ui;
  const o = rs.view.outcome;
  const [head, detail] = o ? resultText(o, ui) : [null, null];
  return [boardEl(rs, ui),
    h('div', { class: 'replay-aside' },
      head ? h('div', { class: 'card final', id: 'result', 'data-end': o.end.kind }, h('h2', {}, head), detail ? h('p', {}, detail) : null) : null,
      sidePanel(rs, ui))];
}

export function section(rs, ui, parts) {
  const { h } = ui;
  const v = rs.view;
  const status = rs.summary.status;
  const phase = phaseOf(v, status);
  const { text, turn } = statusText(rs, phase, ui);
  return h('section', {
    id: 'room', class: `room tic-tac-toe phase-${phase}`, 'data-room-id': rs.id, 'data-game': GAME,
    'data-status': status, 'data-phase': phase, 'data-you': rs.you ?? '',
    'data-marks': v.cells.filter((c) => c != null).length, 'data-to-move': v.to_move ?? '',
    'data-winner': v.outcome ? v.outcome.winner ?? 'draw' : null,
  },
  parts.header,
  parts.status(phase === 'waiting' ? null : text, turn, phase === 'play'),
  phase !== 'waiting'
    ? h('div', { class: 'ttt-play' }, boardEl(rs, ui),
      h('div', { class: 'ttt-aside' }, phase === 'over' ? resultPanel(rs, ui) : null, sidePanel(rs, ui)))
    : null,
  parts.seats,
  parts.log,
  parts.chat);
}
