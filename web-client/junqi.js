// Junqi (docs/rules.md, junqi) in the browser: the deployment editor, the view kept up to date from
// events, the board from the viewer's side, the move log and the final reveal; the rules (board
// graph, layouts, legal destinations) are junqi_rules.js's, re-exported here whole. The room page
// (room_page.js, gameUi) hands each function a `ui` with its helpers: h (builds elements; text goes
// in as text nodes, never as HTML), who(seat), seatName(seat), log(text), act(action) and render().
import { EXAMPLE_LAYOUT, LAYOUT_POSTS, LINKS, POSTS, ROW_LETTERS, boardOf, destinations, inFrame,
  kindOf, layoutPieces, layoutProblems, mountain, movable, postIndex, postName, randomLayout,
  rankNames, rankOf, swapSlots } from './junqi_rules.js';

import { t } from './i18n.js';

export * from './junqi_rules.js';

// ---------------------------------------------------------------- texts

export const COLOURS = ['red', 'blue'];

/** Red sits in seat 0 and moves first, blue in seat 1: the side's name in words (红方, 蓝方). */
export function colourOf(seat) {
  return COLOURS[seat] ? t(`colour.${COLOURS[seat]}`) : t('seat.n', { n: seat + 1 });
}

/**
 * A rank's names as the page shows them: [Chinese, the page's language's] (司令 and Marshal in
 * English; the second is empty in Chinese, where 司令 says it all).
 */
export function rankLabels(rank) {
  const [cn] = rankNames(rank);
  const local = t(`rank.${rank}`);
  return [cn, local === cn ? '' : local];
}

/** A rank in words: "Marshal 司令" in English, 司令 in Chinese. */
function rankWords(rank) {
  const [cn, local] = rankLabels(rank);
  return local ? `${local} ${cn}` : cn;
}

export function limitText(limit) {
  return limit ? t('junqi.limit', { n: limit }) : t('junqi.limit_off');
}

/** One line describing a junqi config, for the room's header. */
export function configText(g, clock) {
  const deploy = clock && clock.deploy_ms ? t('clock.deploy', { s: clock.deploy_ms / 1000 }) : t('clock.no_deploy_clock');
  const move = clock && clock.move_ms ? t('clock.per_move', { s: clock.move_ms / 1000 }) : t('clock.no_move_clock');
  return [t('game.junqi'), limitText(g.no_attack_limit), deploy, move].join(' · ');
}

/** What the lobby's room list says about a junqi room: [headline, detail]. */
export function lobbyText(g) {
  return [`${t('game.junqi')} · ${t('plane.players', { count: 2 })}`, limitText(g.no_attack_limit)];
}

/** "You (red)" or "Ann (blue)". */
function mover(seat, ui) {
  return t('mover', { who: ui.who(seat), colour: colourOf(seat) });
}

/** "the Captain at F0" when the rank is known, else "the piece at F0". */
function pieceAt(rank, post) {
  return rank ? t('junqi.piece_known', { rank: rankLabels(rank)[1] || rankLabels(rank)[0], post }) : t('junqi.piece_at', { post });
}

/**
 * A move's result in words. `m.rank` and `m.met` (see `movesWithRanks`), when known, name the
 * piece that moved and the piece it attacked; otherwise only posts are named.
 */
export function moveText(m, ui) {
  const values = { side: mover(m.seat, ui), piece: pieceAt(m.rank, m.from), other: pieceAt(m.met, m.to), to: m.to };
  switch (m.result) {
    case 'won': return t('junqi.move.won', values);
    case 'lost': return t('junqi.move.lost', values);
    case 'traded': return t('junqi.move.traded', values);
    default: return t('junqi.move.moved', values);
  }
}

/**
 * Every move of the view with the ranks this page may know (`rank`: the piece that moved, `met`:
 * the piece it attacked, null when unknown): the engine's view gives a seat its own layout, and
 * the outcome reveals both, so the page's own pieces are named always and every piece once the
 * game is over. The moves are replayed from the starting layouts.
 */
export function movesWithRanks(v, you) {
  const layouts = v.outcome && v.outcome.layouts ? v.outcome.layouts : [0, 1].map((s) => (s === you ? v.layout : null));
  let pieces = [0, 1].flatMap((s) => (layouts[s] ? layoutPieces(layouts[s], s) : layoutPieces('', s, false)));
  return v.moves.map((m) => {
    const a = pieces.find((p) => p.post === m.from);
    const d = pieces.find((p) => p.post === m.to);
    pieces = piecesAfter(pieces, m);
    return { ...m, rank: (a && a.rank) || null, met: (m.result !== 'moved' && d && d.rank) || null };
  });
}

/** How the game ended, as [headline, detail]. */
export function resultText(o, ui) {
  const e = o.end;
  const won = o.winner == null ? t('result.draw') : ui.you === o.winner ? t('result.you_won') : t('result.won', { who: mover(o.winner, ui) });
  const ended = t('junqi.end.ended', { n: o.moves });
  const who = e.seat != null ? mover(e.seat, ui) : '';
  switch (e.kind) {
    case 'neither_can_move': return [t('result.draw'), t('junqi.end.neither', { n: o.moves })];
    case 'no_legal_move': return [t('junqi.end.no_legal_move', { won, who }), ended];
    case 'flag_captured': return [t('junqi.end.flag', { won, who }), ended];
    case 'timed_out': return [t('result.timed_out', { won, who }), ended];
    case 'no_attack_limit':
      return [t('junqi.end.no_attack', { won, who, limit: e.limit }), t('junqi.end.no_attack_detail', { n: o.moves })];
    case 'resigned':
      return [t('result.resigned', { won, who }), e.reason ? t('result.reason', { reason: e.reason }) : t('junqi.end.no_reason', { n: o.moves })];
    default: return [t('result.plain', { won }), ''];
  }
}

// ---------------------------------------------------------------- keeping the view current

/** The page's own junqi state for a room: the editor's layout, the selection. */
export function localOf(rs) {
  if (!rs.junqi) {
    rs.junqi = { layout: lastLayout(), picked: null, sent: null, selected: null, saveName: '', note: '' };
  }
  return rs.junqi;
}

/** A key that changes whenever the turn or the phase does (a stale deadline is dropped on change). */
export function turnKey(view) {
  return view ? `${view.phase}/${view.moves.length}/${view.to_move ?? '-'}` : '';
}

/** The room page's phase: 'waiting' (seats open), 'deploying', 'battle' or 'over'. */
export function phaseOf(view, status) {
  if (status === 'waiting') return 'waiting';
  return view.outcome ? 'over' : view.phase;
}

/**
 * Applies one event to the room state `rs` (`rs.view` is a junqi view) and logs it. `clock` is
 * the room's clock, to estimate the deadline of a turn that is not ours.
 */
export function applyEvent(rs, ev, clock, ui) {
  const v = rs.view;
  const handler = HANDLERS[ev.kind];
  if (handler) handler(rs, v, ev, clock, ui);
}

const HANDLERS = {
  started(rs, v, ev, clock, ui) {
    Object.assign(v, { phase: 'deploying', no_attack_limit: ev.no_attack_limit, quiet_moves: 0, deployed: [false, false],
      pieces: [], moves: [], revealed_flags: [null, null], to_move: null, outcome: null });
    rs.deadlineAt = clock.deploy_ms ? Date.now() + clock.deploy_ms : null;
    ui.log(t('junqi.log.started', { limit: limitText(ev.no_attack_limit) }));
  },
  deployed(rs, v, ev, clock, ui) {
    if (v.deployed[ev.seat]) return;
    v.deployed[ev.seat] = true;
    const own = ev.seat === rs.you ? v.layout || localOf(rs).sent : null;
    if (own) v.layout = own;
    v.pieces = v.pieces.filter((p) => p.owner !== ev.seat).concat(own ? layoutPieces(own, ev.seat) : layoutPieces('', ev.seat, false));
    ui.log(t(ev.seat === rs.you ? 'junqi.log.you_deployed' : 'junqi.log.deployed', { who: mover(ev.seat, ui) }));
  },
  deployment(rs, v, ev) {
    // The seat's own layout, also when the referee deployed it because time ran out.
    if (ev.seat !== rs.you) return;
    v.layout = ev.layout;
    v.pieces = v.pieces.filter((p) => p.owner !== ev.seat).concat(layoutPieces(ev.layout, ev.seat));
  },
  battle_started(rs, v, ev, clock, ui) {
    v.phase = 'battle';
    v.to_move = ev.to_move;
    rs.deadlineAt = clock.move_ms ? Date.now() + clock.move_ms : null;
    ui.log(t('junqi.log.battle', { who: mover(ev.to_move, ui) }));
  },
  moved(rs, v, ev, clock, ui) {
    // A `your_turn` view that came first already holds this move.
    if (ev.number > v.moves.length) {
      v.pieces = piecesAfter(v.pieces, ev);
      v.moves.push({ number: ev.number, seat: ev.seat, from: ev.from, to: ev.to, result: ev.result });
      v.quiet_moves = ev.result === 'moved' ? v.quiet_moves + 1 : 0;
      v.to_move = 1 - ev.seat;
      rs.deadlineAt = clock.move_ms ? Date.now() + clock.move_ms : null;
    }
    rs.placing = null;
    localOf(rs).selected = null;
    const named = movesWithRanks(v, rs.you).find((m) => m.number === ev.number) || ev;
    // Before the end a named rank is the player's own (`data-mine`); after it, all are public.
    ui.log(t('junqi.log.move', { n: ev.number, text: moveText(named, ui) }), { mine: Boolean(named.rank || named.met) });
  },
  flag_revealed(rs, v, ev, clock, ui) {
    v.revealed_flags[ev.seat] = ev.post;
    v.pieces = v.pieces.map((p) => (p.post === ev.post ? { ...p, rank: 'flag' } : p));
    ui.log(t(ev.seat === rs.you ? 'junqi.log.flag_yours' : 'junqi.log.flag_theirs', { who: mover(ev.seat, ui), post: ev.post }), { public: true });
  },
  ended(rs, v, ev, clock, ui) {
    Object.assign(v, { phase: 'over', outcome: ev.outcome, pieces: ev.outcome.pieces, to_move: null });
    rs.placing = null;
    rs.confirmResign = false;
    rs.deadlineAt = null;
    localOf(rs).selected = null;
    if (rs.summary) rs.summary.status = 'finished';
    ui.log(t('log.game_over', { result: resultText(ev.outcome, { ...ui, you: rs.you }).join(' ') }));
  },
};

/** The pieces after a move and its result (the attacker's rank moves with it). */
export function piecesAfter(pieces, m) {
  const attacker = pieces.find((p) => p.post === m.from);
  const rest = pieces.filter((p) => p.post !== m.from && (m.result === 'lost' || p.post !== m.to));
  if (attacker && (m.result === 'moved' || m.result === 'won')) rest.push({ ...attacker, post: m.to });
  return rest;
}

// ---------------------------------------------------------------- saved layouts

const SAVED_KEY = 'skirmish.junqi.layouts';
const LAST_KEY = 'skirmish.junqi.last';

/** The layouts saved in this browser, by name. */
export function savedLayouts() {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED_KEY) || '{}');
    return saved && typeof saved === 'object' ? saved : {};
  } catch { return {}; }
}

function saveLayout(name, layout) {
  localStorage.setItem(SAVED_KEY, JSON.stringify({ ...savedLayouts(), [name]: layout }));
}

function deleteLayout(name) {
  const saved = savedLayouts();
  delete saved[name];
  localStorage.setItem(SAVED_KEY, JSON.stringify(saved));
}

/** The layout last deployed from this browser, else the CAAI example. */
function lastLayout() {
  const last = localStorage.getItem(LAST_KEY);
  return last && !layoutProblems(last).length ? last : EXAMPLE_LAYOUT;
}

// ---------------------------------------------------------------- the deployment editor

/** Whether the viewer still has to deploy. */
export function mustDeploy(rs) {
  const v = rs.view;
  return rs.you != null && v.phase === 'deploying' && !v.outcome && !v.deployed[rs.you] && !localOf(rs).sent;
}

/** The editor: the viewer's half from their own side, click (or drag) two pieces to swap them. */
export function deployEditor(rs, ui) {
  const { h } = ui;
  const local = localOf(rs);
  const problems = layoutProblems(local.layout);
  const broken = new Set(problems.flatMap((p) => p.slots));
  const cells = [];
  for (let row = 6; row < 12; row++) {
    for (let col = 0; col < 5; col++) cells.push(editorCell(rs, row * 5 + col, broken, ui));
  }
  return h('div', { class: 'card jq-editor', id: 'deploy', 'data-mine': true, 'data-deploy-state': 'editing',
    'data-layout': local.layout, 'data-problems': problems.map((p) => p.code).join(' ') },
  h('h2', {}, t('junqi.editor.title')),
  h('p', { class: 'muted small' }, t('junqi.editor.help')),
  h('div', { class: 'jq-editor-grid', id: 'editor-grid', role: 'group', 'aria-label': t('junqi.editor.half'),
    onclick: (e) => { const el = e.target.closest('[data-slot]'); if (el) pickSlot(rs, Number(el.dataset.slot), ui); } }, cells),
  h('p', { id: 'deploy-problem', class: problems.length ? 'jq-problem bad' : 'jq-problem ok', role: 'status', 'aria-live': 'polite' },
    problems.length ? problems.map((p) => h('span', { 'data-rule': p.code }, p.message)) : t('junqi.editor.ok')),
  h('p', { class: 'row' },
    h('button', { id: 'deploy-random', type: 'button', onclick: () => setLayout(rs, randomLayout(), ui) }, t('deploy.random')),
    h('button', { id: 'deploy-example', type: 'button', onclick: () => setLayout(rs, EXAMPLE_LAYOUT, ui) }, t('junqi.editor.example')),
    h('button', { id: 'deploy-send', type: 'button', class: 'primary', disabled: problems.length > 0, onclick: () => sendLayout(rs, ui) }, t('junqi.editor.deploy'))),
  savedControls(rs, ui));
}

function editorCell(rs, own, broken, ui) {
  const { h } = ui;
  const local = localOf(rs);
  const name = postName(own);
  const slot = LAYOUT_POSTS.indexOf(name);
  if (slot < 0) return h('span', { class: 'jq-slot camp', 'aria-hidden': 'true' }, h('span', {}, '行营'));
  const rank = rankOf(local.layout[slot]);
  const [cn, en] = rankLabels(rank);
  const cls = ['jq-slot', kindOf(own) === 'H' ? 'hq' : '', local.picked === slot ? 'picked' : '', broken.has(slot) ? 'broken' : ''];
  return h('button', {
    type: 'button', class: cls.filter(Boolean).join(' '), id: `slot-${slot}`, 'data-slot': slot, 'data-rank': rank,
    'data-own-post': name, draggable: 'true', 'aria-pressed': local.picked === slot ? 'true' : 'false',
    'aria-label': t(kindOf(own) === 'H' ? 'junqi.slot_hq' : 'junqi.slot', { post: name, rank: rankWords(rank) }) + (broken.has(slot) ? t('junqi.slot_broken') : ''),
    ondragstart: (e) => { e.dataTransfer.setData('text/plain', String(slot)); },
    ondragover: (e) => e.preventDefault(),
    ondrop: (e) => { e.preventDefault(); dropOn(rs, Number(e.dataTransfer.getData('text/plain')), slot, ui); },
  }, h('span', { class: 'cn' }, cn), h('span', { class: 'en' }, en));
}

function pickSlot(rs, slot, ui) {
  const local = localOf(rs);
  if (local.picked == null) local.picked = slot;
  else if (local.picked === slot) local.picked = null;
  else { local.layout = swapSlots(local.layout, local.picked, slot); local.picked = null; }
  ui.render();
}

function dropOn(rs, from, to, ui) {
  if (Number.isInteger(from) && from !== to && from >= 0 && from < 25) {
    const local = localOf(rs);
    local.layout = swapSlots(local.layout, from, to);
    local.picked = null;
    ui.render();
  }
}

function setLayout(rs, layout, ui) {
  const local = localOf(rs);
  local.layout = layout;
  local.picked = null;
  ui.render();
}

function sendLayout(rs, ui) {
  const local = localOf(rs);
  if (layoutProblems(local.layout).length) return;
  local.sent = local.layout;
  localStorage.setItem(LAST_KEY, local.layout);
  ui.act({ game: 'junqi', kind: 'deploy', layout: local.layout });
  ui.render();
}

function savedControls(rs, ui) {
  const { h } = ui;
  const local = localOf(rs);
  const saved = savedLayouts();
  const names = Object.keys(saved).sort();
  return h('div', { class: 'jq-saved' },
    h('p', { class: 'row' },
      h('label', { for: 'layout-name' }, t('junqi.saved.save_as')),
      h('input', { id: 'layout-name', maxlength: 40, value: local.saveName, placeholder: t('junqi.saved.placeholder'), oninput: (e) => { local.saveName = e.target.value; } }),
      h('button', { id: 'layout-save', type: 'button', onclick: () => saveNamed(rs, ui) }, t('header.save'))),
    names.length ? h('p', { class: 'row' },
      h('label', { for: 'layout-saved' }, t('junqi.saved.saved')),
      h('select', { id: 'layout-saved' }, names.map((n) => h('option', { value: n, selected: n === local.saveName }, n))),
      h('button', { id: 'layout-load', type: 'button', onclick: () => loadNamed(rs, ui) }, t('junqi.saved.load')),
      h('button', { id: 'layout-delete', type: 'button', onclick: () => { deleteLayout(document.getElementById('layout-saved').value); ui.render(); } }, t('junqi.saved.delete')))
      : null,
    local.note ? h('p', { class: 'muted small', id: 'layout-note' }, local.note) : null);
}

function saveNamed(rs, ui) {
  const local = localOf(rs);
  const name = local.saveName.trim();
  if (!name) { local.note = t('junqi.saved.name_first'); ui.render(); return; }
  saveLayout(name, local.layout);
  local.note = t('junqi.saved.saved_as', { name });
  ui.render();
}

function loadNamed(rs, ui) {
  const local = localOf(rs);
  const name = document.getElementById('layout-saved').value;
  const layout = savedLayouts()[name];
  if (typeof layout !== 'string') return;
  local.layout = layout;
  local.saveName = name;
  local.picked = null;
  local.note = t('junqi.saved.loaded', { name });
  ui.render();
}

// ---------------------------------------------------------------- the board

/** Board geometry in pixels: column and row spacing, the front-line gap, the margin. */
const GEO = { col: 84, row: 45, river: 36, margin: 24 };
const BOARD_W = GEO.margin * 2 + GEO.col * 5;
const BOARD_H = GEO.margin * 2 + GEO.row * 12 + GEO.river;

/**
 * The board's zoom, 1 where it fits, less on a narrow screen (a phone's 360 to 390 CSS pixels,
 * less the page's margins) or a short wide one, at least 0.6: the posts keep their places and the
 * whole board stays in view.
 * style.css applies it to `.jq-board` as `--jq-zoom`.
 */
function fitBoard() {
  const width = document.documentElement.clientWidth;
  let fit = (width - 20) / BOARD_W;
  // A wide screen shows the board beside the panels: whole below the page's head and status bar
  // (about 230 pixels at 1280x800).
  if (width >= 1024) fit = Math.min(fit, (window.innerHeight - 230) / BOARD_H);
  document.documentElement.style.setProperty('--jq-zoom', String(Math.max(0.6, Math.min(1, fit))));
}
if (typeof window !== 'undefined') {
  window.addEventListener('resize', fitBoard);
  fitBoard();
}

/** The centre of the post shown at display row `r`, column `c`. */
function centre(r, c) {
  return [GEO.margin + GEO.col * (c + 0.5), GEO.margin + GEO.row * (r + 0.5) + (r >= 6 ? GEO.river : 0)];
}

/** Where an absolute post is drawn for a viewer sitting in `seat`: [x, y]. */
function placeOf(i, seat) {
  const d = inFrame(i, seat);
  return centre(Math.floor(d / 5), d % 5);
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  children.forEach((c) => el.append(c));
  return el;
}

/** The lines and station marks under the pieces: roads, railways, camps, headquarters, the front. */
function boardLines(seat) {
  const lines = LINKS.map(({ a, b, railway, diagonal }) => {
    const [[x1, y1], [x2, y2]] = [placeOf(a, seat), placeOf(b, seat)];
    const cls = railway ? 'jq-rail' : diagonal ? 'jq-road diag' : 'jq-road';
    const g = svg('g', { class: cls }, svg('line', { x1, y1, x2, y2 }));
    if (railway) g.append(svg('line', { x1, y1, x2, y2, class: 'ties' }));
    return g;
  });
  const marks = [];
  for (let i = 0; i < POSTS; i++) {
    const [x, y] = placeOf(i, seat);
    const kind = kindOf(i);
    if (kind === 'C') marks.push(svg('ellipse', { cx: x, cy: y, rx: 34, ry: 20, class: 'jq-camp' }));
    else if (kind === 'H') marks.push(svg('rect', { x: x - 34, y: y - 19, width: 68, height: 38, rx: 17, class: 'jq-hq' }));
    else marks.push(svg('rect', { x: x - 29, y: y - 15, width: 58, height: 30, rx: 3, class: 'jq-station' }));
  }
  const riverY = GEO.margin + GEO.row * 6 + GEO.river / 2;
  const front = svg('text', { x: BOARD_W / 2, y: riverY + 5, class: 'jq-front', 'text-anchor': 'middle' });
  front.textContent = t('junqi.front');
  // Mountains cut columns 1 and 3 at the front (no link F1-G1, F3-G3).
  const mountains = [1, 3].map((c) => {
    const t = svg('text', { x: centre(0, c)[0], y: riverY + 6, class: 'jq-mountain', 'text-anchor': 'middle' });
    t.textContent = '▲ 山 ▲';
    return t;
  });
  return svg('svg', { class: 'jq-lines', width: BOARD_W, height: BOARD_H, viewBox: `0 0 ${BOARD_W} ${BOARD_H}`, 'aria-hidden': 'true' },
    ...lines, ...marks, front, ...mountains);
}

/** The posts' names along the edges, as the viewer sees the board. */
function edgeLabels(seat, h) {
  const labels = [];
  for (let r = 0; r < 12; r++) {
    const [, y] = centre(r, 0);
    const row = Math.floor(inFrame(r * 5, seat) / 5);
    labels.push(h('span', { class: 'jq-edge', style: `left:2px;top:${y - 8}px` }, ROW_LETTERS[row]));
  }
  for (let c = 0; c < 5; c++) {
    const [x] = centre(0, c);
    labels.push(h('span', { class: 'jq-edge', style: `left:${x - 4}px;top:${BOARD_H - 20}px` }, String(inFrame(c, seat) % 5)));
  }
  return labels;
}

/** Whether the viewer may move now. */
export function canMove(rs) {
  const v = rs.view;
  return rs.you != null && v.phase === 'battle' && v.to_move === rs.you && !v.outcome && !rs.placing
    && (!rs.summary || rs.summary.status === 'playing');
}

/**
 * The board from the viewer's side (seat 1 sees it turned; spectators see it as seat 0 does),
 * every post a button: own pieces by name, the opponent's blank until the end.
 */
export function boardEl(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  const seat = rs.you ?? 0;
  const board = boardOf(v.pieces);
  const local = localOf(rs);
  const playable = canMove(rs);
  const selected = playable && local.selected != null && board[postIndex(local.selected)] ? local.selected : null;
  const targets = new Set(selected ? destinations(board, selected) : []);
  const last = v.moves.length ? v.moves[v.moves.length - 1] : null;
  const flags = new Set((v.revealed_flags || []).filter(Boolean));
  const posts = [];
  for (let i = 0; i < POSTS; i++) {
    const name = postName(i);
    const state = { name, piece: board[i], mine: board[i] && board[i].owner === rs.you, target: targets.has(name),
      selected: name === selected, lastFrom: last && last.from === name, lastTo: last && last.to === name, flag: flags.has(name),
      movable: playable && board[i] && board[i].owner === rs.you && destinations(board, i).length > 0 };
    posts.push(postButton(state, placeOf(i, seat), v, h));
  }
  return h('figure', { class: 'jq-board-wrap', 'data-junqi-board': true },
    h('figcaption', { class: 'sr-only' }, t(rs.you == null ? 'junqi.board_from_red' : 'junqi.board_from_you')),
    h('div', {
      class: `jq-board${playable ? ' playable' : ''}`, id: 'jq-board', role: 'group', style: `width:${BOARD_W}px;height:${BOARD_H}px`,
      'aria-label': t('junqi.board_label'), 'data-seat-view': seat, 'data-selected': selected,
      onclick: (e) => { const el = e.target.closest('[data-post]'); if (el) clickPost(rs, el.dataset, ui); },
    }, boardLines(seat), edgeLabels(seat, h), posts),
    // Why the last tap did nothing, until the next move.
    typeof ui.act === 'function' ? h('p', { id: 'junqi-notice', class: 'notice', role: 'status' },
      rs.junqiNotice && rs.junqiNotice.moves === v.moves.length ? rs.junqiNotice.text : '') : null);
}

function postButton(s, [x, y], v, h) {
  const p = s.piece;
  const rank = p ? p.rank : null;
  const cls = ['jq-post', `kind-${kindOf(postIndex(s.name))}`, p ? `jq-piece owner-${p.owner}` : 'empty', rank ? 'known' : '',
    s.mine ? 'mine' : '', s.selected ? 'selected' : '', s.target ? 'target' : '', s.movable ? 'movable' : '',
    s.lastFrom ? 'last-from' : '', s.lastTo ? 'last-to' : '', s.flag ? 'revealed-flag' : ''].filter(Boolean).join(' ');
  const [cn, en] = rank ? rankLabels(rank) : ['', ''];
  return h('button', {
    type: 'button', class: cls, id: `post-${s.name}`, style: `left:${x - 31}px;top:${y - 16}px`,
    'data-post': s.name, 'data-owner': p ? p.owner : null, 'data-rank': rank, 'data-mine': s.mine ? true : null,
    'data-movable': s.movable ? 'true' : null, 'data-target': s.target ? 'true' : null, 'data-selected': s.selected ? 'true' : null,
    'data-last': s.lastTo ? 'to' : s.lastFrom ? 'from' : null, 'data-revealed-flag': s.flag ? 'true' : null,
    'data-public': s.flag && !s.mine ? true : null,
    'aria-label': postLabel(s, v), tabindex: s.movable || s.target ? 0 : -1,
    'aria-disabled': s.movable || s.target ? null : 'true',
  }, rank ? [h('span', { class: 'cn' }, cn), h('span', { class: 'en' }, en)] : null);
}

function postLabel(s, v) {
  const words = [s.name, t(`junqi.post.${kindOf(postIndex(s.name))}`)];
  if (!s.piece) words.push(t('junqi.post.empty'));
  else if (s.piece.rank) words.push(t('junqi.post.piece', { side: s.mine ? t('junqi.post.your') : colourOf(s.piece.owner), rank: rankWords(s.piece.rank) }));
  else words.push(t('junqi.post.hidden', { side: colourOf(s.piece.owner) }));
  if (s.flag && !v.outcome) words.push(t('junqi.post.revealed'));
  if (s.target) words.push(s.piece ? t('junqi.post.attack_here') : t('junqi.post.move_here'));
  if (s.lastTo) words.push(t('gomoku.point.last'));
  return words.join(t('list.sep'));
}

function clickPost(rs, data, ui) {
  const local = localOf(rs);
  const say = (text) => { rs.junqiNotice = { text, moves: rs.view.moves.length }; };
  rs.junqiNotice = null;
  if (!canMove(rs)) {
    say(whyNot(rs, ui));
  } else if (data.target && local.selected) {
    rs.placing = `${local.selected}${data.post}`;
    ui.act({ game: 'junqi', kind: 'move', from: local.selected, to: data.post });
    local.selected = null;
  } else if (data.movable) {
    local.selected = local.selected === data.post ? null : data.post;
  } else {
    say(whyNotThere(rs, data, local.selected));
    local.selected = null;
  }
  ui.render();
}

/** Why nothing can be moved now, in words (the person tapped the board anyway). */
function whyNot(rs, ui) {
  const v = rs.view;
  if (rs.you == null) return t('junqi.notice.spectator');
  if (v.outcome || v.phase === 'over') return t('junqi.notice.over');
  if (rs.placing) return t('junqi.notice.sending');
  return t('junqi.notice.not_your_turn', { who: ui.seatName(v.to_move) });
}

/** Why a tap on post `data` neither picks a piece nor moves the picked one there, in words. */
function whyNotThere(rs, data, selected) {
  const board = boardOf(rs.view.pieces);
  const piece = board[postIndex(data.post)];
  if (piece && piece.owner === rs.you) {
    if (piece.rank === 'landmine' || piece.rank === 'flag') return t('junqi.notice.never_moves', { rank: rankWords(piece.rank) });
    if (kindOf(postIndex(data.post)) === 'H') return t('junqi.notice.headquarters');
    return t('junqi.notice.no_way', { post: data.post });
  }
  if (selected) return t('junqi.notice.unreachable', { from: selected, post: data.post });
  return t('junqi.notice.pick_first');
}

// ---------------------------------------------------------------- panels

/** The players, the deployment or the turn, the no-attack counter and the Resign button. */
export function sidePanel(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  const players = [0, 1].map((seat) => h('li', { 'data-player': seat, class: v.to_move === seat ? 'to-move' : '' },
    h('span', { class: `jq-dot owner-${seat}`, 'aria-hidden': 'true' }),
    h('strong', {}, ui.seatName(seat)), rs.you === seat ? t('seat.you_mark') : '', ` · ${colourOf(seat)}`,
    v.phase === 'deploying' ? h('span', { class: `badge ${v.deployed[seat] ? 'ok' : ''}` }, v.deployed[seat] ? t('junqi.badge_deployed') : t('plane.badge_deploying')) : null,
    v.to_move === seat ? h('span', { class: 'badge turn' }, t('badge.to_move')) : null,
    v.outcome && v.outcome.winner === seat ? h('span', { class: 'badge ok' }, t('badge.winner')) : null));
  const limit = v.no_attack_limit;
  return h('div', { class: 'card jq-side' },
    h('h2', {}, t('players.title')),
    h('ul', { class: 'players' }, players),
    h('p', { id: 'quiet', 'data-quiet': v.quiet_moves, 'data-limit': limit, class: limit && v.quiet_moves >= limit - 4 ? 'jq-quiet low' : 'jq-quiet' },
      quietText(v.quiet_moves, limit)),
    h('p', { class: 'muted small' }, limit ? t('junqi.quiet_help', { n: limit }) : ''),
    resignControls(rs, ui));
}

/** The no-attack counter: "Quiet moves 3/31". */
export function quietText(quiet, limit) {
  return limit ? t('junqi.quiet', { n: quiet, limit }) : t('junqi.quiet_off', { n: quiet });
}

function resignControls(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  if (rs.you == null || v.outcome || !rs.summary || rs.summary.status !== 'playing') return null;
  return rs.confirmResign
    ? h('p', { class: 'row', id: 'resign-box' },
      h('span', {}, t('resign.ask')),
      h('button', { id: 'resign-confirm', type: 'button', class: 'danger', onclick: () => resignNow(rs, ui) }, t('resign.yes')),
      h('button', { id: 'resign-cancel', type: 'button', onclick: () => { rs.confirmResign = false; ui.render(); } }, t('resign.no')))
    : h('p', { class: 'row' }, h('button', { id: 'resign', type: 'button', onclick: () => { rs.confirmResign = true; ui.render(); } }, t('resign.button')));
}

function resignNow(rs, ui) {
  rs.confirmResign = false;
  ui.act({ game: 'junqi', kind: 'resign' });
  ui.render();
}

/** Every move in order with its result in words. */
export function moveList(rs, ui) {
  const { h } = ui;
  const v = rs.view;
  return h('div', { class: 'card movecard' },
    h('h2', { id: 'moves-title' }, t('moves.title', { n: v.moves.length })),
    v.moves.length
      ? h('ol', { id: 'moves', class: 'moves jq-moves', 'aria-labelledby': 'moves-title' },
        movesWithRanks(v, rs.you).map((m) => h('li', { 'data-move': m.number, 'data-seat': m.seat, 'data-from': m.from, 'data-to': m.to, 'data-result': m.result,
          'data-rank': m.rank, 'data-met': m.met, 'data-mine': !v.outcome && (m.rank || m.met) ? 'true' : null, class: `owner-${m.seat}` },
          moveText(m, ui))))
      : h('p', { class: 'empty' }, v.phase === 'deploying' ? t('junqi.battle_after_deploy') : t('junqi.no_moves')));
}

/** The result, once the game is over, and both starting layouts in full. */
export function resultPanel(rs, ui) {
  const { h } = ui;
  const o = rs.view.outcome;
  if (!o) return null;
  const [head, detail] = resultText(o, { ...ui, you: rs.you });
  return h('div', { class: 'card final', id: 'result', 'data-winner': o.winner ?? 'draw', 'data-end': o.end.kind },
    h('h2', { id: 'result-text' }, head),
    detail ? h('p', { id: 'result-detail' }, detail) : null,
    h('p', { class: 'muted small' }, t('junqi.all_revealed')),
    h('p', { class: 'row' },
      rs.you != null ? h('button', { id: 'rematch', class: 'primary', onclick: ui.rematch }, t('final.rematch')) : null,
      h('button', { id: 'to-lobby', onclick: ui.toLobby }, t('room.back_to_lobby'))));
}

/** Both starting layouts, revealed at the end, each as its owner set it up. */
export function layoutsPanel(rs, ui) {
  const { h } = ui;
  const o = rs.view.outcome;
  if (!o) return null;
  return h('div', { class: 'card jq-layouts', id: 'layouts' },
    h('h2', {}, t('junqi.starting_layouts')),
    h('div', { class: 'row' }, [0, 1].map((seat) => layoutGrid(o.layouts[seat], seat, ui))));
}

function layoutGrid(layout, seat, ui) {
  const { h } = ui;
  const cells = [];
  for (let own = 30; own < POSTS && layout; own++) {
    const slot = LAYOUT_POSTS.indexOf(postName(own));
    if (slot < 0) { cells.push(h('span', { class: 'jq-slot camp mini' })); continue; }
    const rank = rankOf(layout[slot]);
    const [cn, en] = rankLabels(rank);
    cells.push(h('span', { class: `jq-slot mini owner-${seat}`, 'data-layout-rank': rank, title: rankWords(rank) },
      h('span', { class: 'cn' }, cn), h('span', { class: 'en' }, en)));
  }
  return h('figure', { class: 'jq-layout', 'data-layout-seat': seat },
    h('figcaption', {}, t(layout ? 'junqi.layout_caption' : 'junqi.layout_never', { who: mover(seat, ui) })),
    h('div', { class: 'jq-editor-grid mini' }, cells));
}

/** The status bar's text and the seat whose turn it is. */
export function statusText(rs, phase, ui) {
  const v = rs.view;
  if (phase === 'over') return { text: v.outcome ? resultText(v.outcome, { ...ui, you: rs.you })[0] : t('status.game_over'), turn: '' };
  if (phase === 'deploying') {
    const text = mustDeploy(rs) ? t('junqi.status.deploy')
      : rs.you != null ? t('junqi.status.deployed') : t('junqi.status.both_deploying');
    return { text, turn: 'deploy' };
  }
  const seat = v.to_move;
  if (seat == null) return { text: t('status.not_started'), turn: '' };
  const last = v.moves.length ? t('junqi.status.last', { text: moveText(v.moves[v.moves.length - 1], ui) }) : '';
  const count = t('junqi.move_number', { n: v.moves.length + 1 });
  if (seat === rs.you) return { text: t('junqi.status.your_turn', { count, colour: colourOf(seat), last }), turn: String(seat) };
  return { text: t('status.to_move', { count, mover: t('mover', { who: ui.seatName(seat), colour: colourOf(seat) }) }) + last, turn: String(seat) };
}
