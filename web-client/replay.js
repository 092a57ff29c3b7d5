// The replay of one finished match, a tournament's or a casual room's (/replay/<id>), from
// GET /api/matches/<id>: every event of the match in order, secret deployments included (the match
// is over, so nothing is hidden), or with ?seat=N only what seat N saw at each moment (the server
// decides, by the engines' audiences). A switcher picks the view ("everything" or "as <name>"); the
// address keeps it (/replay/<id>?seat=1). The page folds the events into one position per step and
// draws it: plane battle boards with their deployments and shots, the gomoku board with numbered
// stones, the junqi board (every rank when everything is shown). Controls: first, previous,
// play/pause, next, last, a slider; the arrow keys step, Home and End jump; the address names the
// step shown (#42). What the bots thought (the record's infos) is shown beside each step
// (replay_beliefs.js). Every string through the catalogs (keys under replay.). Plain ES module, no build.
import { t, translateStatic, mountSwitch, rulesHref, refusal } from './i18n.js';
import { h, getJson, idFromPath, entrantName, seatLabel, resultText } from './dom.js';
import { ordinal, configText } from './state.js';
import * as P from './plane.js';
import * as G from './gomoku.js';
import * as J from './junqi.js';
import { GAMES as PAGE_MODULES } from './games.js';
import * as B from './replay_beliefs.js';

/** Milliseconds per step while playing. */
const PLAY_MS = 500;

/** Everything the page knows (also `window.replay`, for the console and tests). */
const R = {
  id: idFromPath(),
  /** The seat whose view is shown, or null for everything (the address's ?seat=). */
  view: seatFromQuery(),
  record: null,
  error: null,
  /** steps[0]: before the first event; steps[i]: after event i - 1, with its text. */
  steps: [],
  at: 0,
  timer: null,
};
window.replay = R;

/** The seat the address names (?seat=N), or null. */
function seatFromQuery() {
  const seat = new URLSearchParams(location.search).get('seat');
  return seat != null && /^\d+$/.test(seat) ? Number(seat) : null;
}

// ---------------------------------------------------------------- names

/** Each seat's name: a tournament's entrant (bot/strategy), a casual seat's player ("pool-1 for 阿强"). */
function names() {
  const rec = R.record;
  if (rec.kind !== 'casual') return rec.entrants.map(entrantName);
  return rec.seats.map((s, seat) => {
    if (!s.name) return t('replay.seat', { n: seat + 1 });
    return s.took_over_from ? t('replay.took_over', { bot: s.name, name: s.took_over_from }) : s.name;
  });
}

function who(seat) {
  return names()[seat] ?? t('replay.seat', { n: seat + 1 });
}

/** The helpers gomoku.js and junqi.js draw with, for a reader who sits in no seat. */
function ui() {
  return {
    h,
    you: null,
    who,
    seatName: who,
    log: () => {},
    act: () => {},
    render: () => {},
    showNumbers: true,
    setNumbers: () => {},
    focus: null,
    setFocus: () => {},
    rematch: () => {},
    toLobby: () => {},
  };
}

// ---------------------------------------------------------------- plane battle

function planeStart(config) {
  const seats = Array.from({ length: config.players }, (_, s) => s);
  return {
    config,
    round: null,
    extra: false,
    attacker: null,
    boards: seats.map((seat) => ({ seat, playing: true, ready: false, planes: null, shots: [], downed: [], knocked_out: false, points: 0 })),
    totals: seats.map(() => 0),
    round_wins: seats.map(() => 0),
    history: [],
    last: null,
    outcome: null,
  };
}

function placementText(planes) {
  return (planes || []).map((p) => t('replay.plane.placement', { head: p.head, facing: t(`facing.${p.facing}`) })).join(t('replay.list_sep'));
}

/** "Round 2" or "Extra round": a round's name. */
function roundLabel(round, extra) {
  return extra ? t('replay.plane.extra_round') : t('replay.plane.round', { n: round + 1 });
}

/** Applies one plane battle event to `v` and returns it in words. */
function planeApply(v, ev) {
  switch (ev.kind) {
    case 'round_started':
      v.round = ev.round;
      v.extra = ev.extra;
      v.attacker = null;
      v.last = null;
      v.boards.forEach((b) => Object.assign(b, {
        playing: ev.players.includes(b.seat), ready: false, planes: null, shots: [], downed: [], knocked_out: false, points: 0,
      }));
      return t('replay.plane.round_started', { label: roundLabel(ev.round, ev.extra), first: who(ev.first_attacker) });
    case 'ready':
      v.boards[ev.seat].ready = true;
      return ev.by_default ? t('replay.plane.ready_by_default', { who: who(ev.seat) }) : t('replay.plane.ready', { who: who(ev.seat) });
    case 'deployment':
      v.boards[ev.seat].planes = ev.planes;
      return t('replay.plane.deployment', { who: who(ev.seat), planes: placementText(ev.planes) });
    case 'turn':
      v.attacker = ev.attacker;
      return t('replay.plane.turn', { who: who(ev.attacker) });
    case 'shot': {
      const b = v.boards[ev.target];
      b.shots.push({ by: ev.attacker, cell: ev.cell, result: ev.result });
      if (ev.plane) b.downed.push(ev.plane);
      if (ev.knocked_out) b.knocked_out = true;
      v.boards[ev.attacker].points += ev.points;
      v.totals[ev.attacker] += ev.points;
      v.last = { target: ev.target, cell: ev.cell };
      let text = t('replay.plane.shot', { by: who(ev.attacker), at: who(ev.target), cell: ev.cell, result: t(`plane.result.${ev.result}`) });
      if (ev.result === 'down') text += ev.knocked_out ? t('replay.plane.knocked_out') : t('replay.plane.shot_down');
      if (ev.points) text += t('replay.plane.points', { n: ev.points });
      if (ev.by_default) text += t('replay.plane.random_shot');
      return text;
    }
    case 'round_ended': {
      const r = ev.result;
      v.history.push(r);
      v.totals = ev.totals;
      v.round_wins[r.survivor] += 1;
      v.attacker = null;
      // Every deployment is public now: a seat's view learns the others' planes here, as it did live.
      r.deployments.forEach((planes, s) => { if (planes && planes.length && !v.boards[s].planes) v.boards[s].planes = planes; });
      const pts = r.points.map((p, s) => t('replay.points_of', { who: who(s), n: p })).join(t('replay.list_sep'));
      return t('replay.plane.round_ended', { label: roundLabel(r.round, r.extra), survivor: who(r.survivor), points: pts });
    }
    case 'match_ended': {
      const o = ev.outcome;
      v.outcome = o;
      v.totals = o.totals;
      v.round_wins = o.round_wins;
      v.attacker = null;
      const resigned = o.resigned != null ? t('replay.plane.resigned', { who: who(o.resigned) }) : '';
      return t('replay.plane.match_ended', { winner: who(o.winner), count: o.totals[o.winner] }) + resigned;
    }
    default:
      return ev.kind;
  }
}

function planeBoard(v, b) {
  const side = P.sideOf(v.config.variant);
  const shots = new Map(b.shots.map((s) => [s.cell, s.result]));
  const downed = P.cellMap(b.downed);
  const deployed = P.cellMap(b.planes);
  const cells = [h('span', { class: 'corner', 'aria-hidden': 'true' })];
  for (let c = 0; c < side; c++) cells.push(h('span', { class: 'colh', 'aria-hidden': 'true' }, String.fromCharCode(65 + c)));
  for (let r = 0; r < side; r++) {
    cells.push(h('span', { class: 'rowh', 'aria-hidden': 'true' }, String(r + 1)));
    for (let c = 0; c < side; c++) {
      const cell = P.cellName(r, c);
      const key = `${r},${c}`;
      const shot = shots.get(cell);
      const d = downed.get(key);
      const p = d || deployed.get(key);
      const plane = d ? 'downed' : p ? 'deployed' : null;
      const head = Boolean(p && p.head);
      const last = v.last && v.last.target === b.seat && v.last.cell === cell;
      const symbol = shot === 'miss' ? '○' : shot === 'hit' ? '✕' : shot === 'down' ? '✹' : head ? '▲' : '';
      const words = [cell];
      if (shot) words.push(t(`plane.cell.${shot}`));
      if (plane) words.push(t(`plane.cell.${plane === 'downed' ? 'downed' : 'revealed'}${head ? '_head' : ''}`));
      if (last) words.push(t('plane.cell.last'));
      const cls = ['cell', shot ? `shot-${shot}` : '', plane ? `plane plane-${plane}` : '', head ? 'head' : '', last ? 'last' : ''].filter(Boolean).join(' ');
      cells.push(h('span', {
        class: cls, 'data-cell': cell, 'data-shot': shot || null, 'data-plane': plane, 'data-head': head ? 'true' : null,
        'data-last': last ? 'true' : null, role: 'img', 'aria-label': words.join(t('replay.list_sep')),
      }, symbol));
    }
  }
  const badges = [];
  if (!b.playing) badges.push(h('span', { class: 'badge out' }, t('replay.plane.not_in_round')));
  else if (b.knocked_out) badges.push(h('span', { class: 'badge out' }, t('replay.plane.knocked_out_badge')));
  if (v.attacker === b.seat) badges.push(h('span', { class: 'badge turn' }, t('replay.plane.to_fire')));
  return h('figure', { class: `board ${b.knocked_out ? 'out' : ''} ${v.attacker === b.seat ? 'attacking' : ''}`, 'data-board': b.seat, 'data-planes': (b.planes || []).length },
    h('figcaption', {}, h('strong', {}, who(b.seat)), ...badges,
      h('span', { class: 'pts' }, t('replay.plane.round_points', { count: b.points }))),
    h('div', { class: `grid side-${side}`, style: `--side:${side}`, role: 'group', 'aria-label': t('replay.plane.board_of', { who: who(b.seat) }), 'data-grid': b.seat }, cells));
}

function planeScoreboard(v) {
  const heads = v.history.map((r) => (r.extra ? t('replay.plane.extra_short', { n: r.round + 1 }) : t('replay.plane.round_short', { n: r.round + 1 })));
  const live = v.round != null && v.history.length <= v.round && !v.outcome;
  const ranked = v.outcome ? v.outcome.placings.map((p, s) => ({ p, s })).sort((a, b) => a.p - b.p || a.s - b.s) : null;
  return h('div', { class: 'card score' },
    h('h2', {}, t('replay.plane.scores')),
    h('div', { class: 'scroll' },
      h('table', { class: 'scoreboard', id: 'scoreboard' },
        h('caption', { class: 'sr-only' }, t('replay.plane.scores_caption')),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('replay.plane.player')), heads.map((x) => h('th', { scope: 'col' }, x)),
          live ? h('th', { scope: 'col', title: t('replay.plane.live_title') }, t('replay.plane.live_short', { n: v.round + 1 })) : null,
          h('th', { scope: 'col' }, t('replay.plane.total')), h('th', { scope: 'col' }, t('replay.plane.wins')))),
        h('tbody', {}, v.boards.map((b) => h('tr', { 'data-score-row': b.seat, class: v.outcome && v.outcome.winner === b.seat ? 'winner' : '' },
          h('th', { scope: 'row' }, who(b.seat)),
          v.history.map((r) => h('td', {}, String(r.points[b.seat]), r.survivor === b.seat ? h('span', { 'aria-label': t('replay.plane.survived_aria') }, ' ★') : null)),
          live ? h('td', { class: 'live' }, String(b.points)) : null,
          h('td', { class: 'total', 'data-total': b.seat }, String(v.totals[b.seat])),
          h('td', {}, String(v.round_wins[b.seat]))))))),
    ranked ? h('p', { id: 'placings' }, ranked.map(({ p, s }) => t('replay.placing_points', { place: ordinal(p), who: who(s), n: v.totals[s] })).join(' · ')) : null,
    live ? h('p', { class: 'muted small' }, t('replay.plane.live_note', { n: v.round + 1 })) : null,
    h('p', { class: 'muted small' }, t('replay.plane.legend')));
}

function planeView(v) {
  const title = v.round == null ? t('replay.plane.before_first') : v.extra ? t('replay.plane.extra_title', { n: v.round + 1 }) : t('replay.plane.round', { n: v.round + 1 });
  return [
    h('div', { class: 'replay-main' },
      h('h2', { id: 'round-title', 'data-round': v.round ?? '' }, title),
      h('div', { class: 'boards', id: 'boards' }, v.boards.map((b) => planeBoard(v, b)))),
    h('div', { class: 'replay-aside' }, planeScoreboard(v)),
  ];
}

// ---------------------------------------------------------------- gomoku

function gomokuStart(config) {
  return {
    view: { game: 'gomoku', size: config.size, rule: config.rule, moves: [], opening: 0, to_move: null, forbidden: [], outcome: null },
    you: null,
    placing: null,
  };
}

function gomokuApply(rs, ev) {
  let text = ev.kind;
  G.applyEvent(rs, ev, 0, { ...ui(), log: (t) => { text = t; } });
  rs.deadlineAt = null;
  // "12. Ann (black) played h8." -> "Move 12: ...": the events list numbers the steps.
  return text.replace(/^(\d+)\. (.*)$/, (_, n, rest) => t('replay.move', { n, text: rest }));
}

function gomokuView(rs) {
  const u = ui();
  const v = rs.view;
  const [head, detail] = v.outcome ? G.resultText(v.outcome, u) : [null, null];
  return [
    G.boardEl(rs, u),
    h('div', { class: 'replay-aside' },
      head ? h('div', { class: 'card final', id: 'result', 'data-end': v.outcome.end.kind },
        h('h2', {}, head), detail ? h('p', {}, detail) : null) : null,
      h('div', { class: 'card' }, h('h2', {}, t('replay.players')),
        h('ul', { class: 'players' }, [0, 1].map((seat) => h('li', { class: v.to_move === seat ? 'to-move' : '' },
          h('span', { class: `stone mini ${G.colourOf(seat)}`, 'aria-hidden': 'true' }), h('strong', {}, who(seat)), ` · ${G.colourName(seat)}`,
          v.to_move === seat ? h('span', { class: 'badge turn' }, t('replay.to_move')) : null)))),
      G.moveList(rs, u)),
  ];
}

// ---------------------------------------------------------------- junqi

function junqiStart(config) {
  return {
    view: { game: 'junqi', phase: 'deploying', no_attack_limit: config.no_attack_limit, quiet_moves: 0, deployed: [false, false],
      pieces: [], moves: [], revealed_flags: [null, null], to_move: null, outcome: null, layouts: [null, null] },
    you: null,
    placing: null,
    junqi: { selected: null },
  };
}

function rankName(piece) {
  if (!piece || !piece.rank) return t('replay.junqi.unknown_piece');
  return t('replay.junqi.piece', { colour: seatLabel('junqi', piece.owner), rank: t(`rank.${piece.rank}`) });
}

function junqiApply(rs, ev) {
  const v = rs.view;
  const mover = (seat) => t('replay.junqi.mover', { who: who(seat), colour: seatLabel('junqi', seat) });
  switch (ev.kind) {
    case 'started':
      v.no_attack_limit = ev.no_attack_limit;
      return ev.no_attack_limit ? t('replay.junqi.started', { limit: ev.no_attack_limit }) : t('replay.junqi.started_off');
    case 'deployed':
      v.deployed[ev.seat] = true;
      return t('replay.junqi.deployed', { who: mover(ev.seat) });
    case 'deployment':
      v.layouts[ev.seat] = ev.layout;
      v.pieces = v.pieces.filter((p) => p.owner !== ev.seat).concat(J.layoutPieces(ev.layout, ev.seat));
      return t('replay.junqi.layout', { who: mover(ev.seat) });
    case 'battle_started':
      v.phase = 'battle';
      v.to_move = ev.to_move;
      // A seat's view: the other side's layout is secret, but its 25 pieces stand on its 25 posts.
      [0, 1].forEach((seat) => {
        if (!v.pieces.some((p) => p.owner === seat)) v.pieces = v.pieces.concat(J.layoutPieces('', seat, false));
      });
      return t('replay.junqi.battle', { who: mover(ev.to_move) });
    case 'moved': {
      const attacker = v.pieces.find((p) => p.post === ev.from);
      const defender = v.pieces.find((p) => p.post === ev.to);
      v.pieces = J.piecesAfter(v.pieces, ev);
      v.moves.push({ number: ev.number, seat: ev.seat, from: ev.from, to: ev.to, result: ev.result });
      v.quiet_moves = ev.result === 'moved' ? v.quiet_moves + 1 : 0;
      v.to_move = 1 - ev.seat;
      const ranks = defender ? t('replay.junqi.against', { a: rankName(attacker), d: rankName(defender) }) : t('replay.junqi.alone', { a: rankName(attacker) });
      return t('replay.move', { n: ev.number, text: `${J.moveText(ev, ui())}${ranks}` });
    }
    case 'flag_revealed':
      v.revealed_flags[ev.seat] = ev.post;
      return t('replay.junqi.flag', { who: mover(ev.seat), post: ev.post });
    case 'ended':
      Object.assign(v, { phase: 'over', outcome: ev.outcome, to_move: null });
      if (ev.outcome.pieces) v.pieces = ev.outcome.pieces;
      return t('replay.game_over', { text: J.resultText(ev.outcome, ui()).join(' ') });
    default:
      return ev.kind;
  }
}

function junqiView(rs) {
  const u = ui();
  const v = rs.view;
  const [head, detail] = v.outcome ? J.resultText(v.outcome, u) : [null, null];
  const limit = v.no_attack_limit;
  return [
    J.boardEl(rs, u),
    h('div', { class: 'replay-aside' },
      head ? h('div', { class: 'card final', id: 'result', 'data-end': v.outcome.end.kind },
        h('h2', {}, head), detail ? h('p', {}, detail) : null) : null,
      h('div', { class: 'card' }, h('h2', {}, t('replay.players')),
        h('ul', { class: 'players' }, [0, 1].map((seat) => h('li', { class: v.to_move === seat ? 'to-move' : '' },
          h('span', { class: `jq-dot owner-${seat}`, 'aria-hidden': 'true' }), h('strong', {}, who(seat)), ` · ${seatLabel('junqi', seat)}`,
          v.to_move === seat ? h('span', { class: 'badge turn' }, t('replay.to_move')) : null))),
        h('p', { class: 'jq-quiet', id: 'quiet', 'data-quiet': v.quiet_moves },
          limit ? t('replay.junqi.quiet', { n: v.quiet_moves, limit }) : t('replay.junqi.quiet_off', { n: v.quiet_moves })),
        h('p', { class: 'muted small' }, R.view == null ? t('replay.junqi.all_ranks') : t('replay.junqi.seat_ranks'))),
      J.moveList(rs, u)),
  ];
}

// ---------------------------------------------------------------- the steps

const GAMES = {
  plane: { start: planeStart, apply: planeApply, view: planeView },
  gomoku: { start: gomokuStart, apply: gomokuApply, view: gomokuView },
  junqi: { start: junqiStart, apply: junqiApply, view: junqiView },
};

// The games of the page-module interface (games.js) replay through their own modules.
for (const mod of Object.values(PAGE_MODULES)) {
  GAMES[mod.GAME] = {
    start: (config) => mod.replayStart(config),
    apply: (rs, ev) => {
      let text = ev.kind;
      mod.applyEvent(rs, ev, null, { ...ui(), log: (line) => { text = line; } });
      return text;
    },
    view: (rs) => mod.replayView(rs, ui()),
  };
}

/** Folds the record's events into one state per step. */
function buildSteps(record) {
  const game = GAMES[record.game.game] || { start: () => ({}), apply: (_, ev) => ev.kind };
  let state = game.start(record.game);
  const steps = [{ state: structuredClone(state), text: t('replay.before_first'), kind: null }];
  for (const ev of record.events) {
    let text;
    try {
      text = game.apply(state, ev);
    } catch (err) {
      text = t('replay.cannot_show', { kind: ev.kind });
    }
    steps.push({ state: structuredClone(state), text, kind: ev.kind });
  }
  return steps;
}

function go(step) {
  const n = R.steps.length - 1;
  R.at = Math.max(0, Math.min(n, step));
  if (R.at === n) stop();
  renderStep();
}

function play() {
  if (R.timer) { stop(); renderStep(); return; }
  if (R.at >= R.steps.length - 1) R.at = 0;
  R.timer = setInterval(() => go(R.at + 1), PLAY_MS);
  renderStep();
}

function stop() {
  clearInterval(R.timer);
  R.timer = null;
}

// ---------------------------------------------------------------- rendering

/** The view switcher: everything, or as each seat saw it. Picking one loads that view. */
function viewSwitch(all) {
  const options = [h('option', { value: 'all', selected: R.view == null }, t('replay.view.all'))];
  all.forEach((name, seat) => options.push(h('option', { value: String(seat), selected: R.view === seat }, t('replay.view.seat', { who: name }))));
  return h('div', { class: 'replay-viewas' },
    h('label', { for: 'view-as' }, t('replay.view.label')),
    h('select', { id: 'view-as', onchange: (e) => switchView(e.target.value === 'all' ? null : Number(e.target.value)) }, options),
    h('span', { class: 'muted small', id: 'view-note' }, R.view == null ? t('replay.view.all_note') : t('replay.view.seat_note', { who: all[R.view] })));
}

function render() {
  const main = document.getElementById('main');
  if (!R.record) {
    main.replaceChildren(h('section', { id: 'replay', class: 'card', 'data-state': R.error ? 'error' : 'loading', 'data-code': R.error && R.error.code },
      h('h1', {}, t('replay.badge')),
      h('p', {}, R.error ? t('replay.cannot', { why: refusal(R.error) }) : t('replay.loading')),
      h('p', {}, h('a', { href: '/' }, t('replay.back')), ' · ', h('a', { href: '/my-games' }, t('replay.my_games')))));
    return;
  }
  const rec = R.record;
  const all = names();
  const game = rec.game.game;
  const title = all.join(game === 'plane' && all.length > 2 ? t('replay.list_sep') : t('replay.vs'));
  document.title = t('replay.doc_title', { title });
  const [head, detail] = rec.result ? resultText(rec.result, all, game) : ['', ''];
  const n = R.steps.length - 1;
  const where = rec.kind === 'casual'
    ? [' · ', h('a', { href: '/my-games', id: 'to-my-games' }, t('replay.my_games'))]
    : [t('replay.match_n', { n: rec.index + 1 }), rec.opening ? t('replay.opening', { name: rec.opening }) : '', ' · ',
      h('a', { href: `/tournament/${rec.tournament}`, id: 'to-tournament' }, t('replay.tournament'))];
  main.replaceChildren(h('section', { id: 'replay', class: 'replay', 'data-game': game, 'data-match-id': rec.id, 'data-steps': n, 'data-view': R.view ?? 'all', 'data-kind': rec.kind },
    h('div', { class: 'card' },
      h('h1', { id: 'replay-title' }, t('replay.title', { title })),
      h('p', { class: 'muted' }, configText({ game: rec.game, clock: {} }), ...where),
      h('ol', { class: 'seats' }, all.map((name, seat) => h('li', { 'data-seat': seat },
        h('span', { class: 'muted' }, t('replay.seat_label', { seat: seatLabel(game, seat) })), name,
        rec.entrants && rec.entrants[seat] && rec.entrants[seat].version ? h('small', { class: 'muted' }, ` v${rec.entrants[seat].version}`) : null,
        rec.seats && rec.seats[seat] && rec.seats[seat].bot ? h('small', { class: 'muted' }, ` ${t('replay.bot')}`) : null))),
      rec.result ? h('p', { id: 'match-result', 'data-end': rec.result.end }, h('strong', {}, head), ` · ${detail}`) : null,
      viewSwitch(all)),
    h('div', { class: 'card' },
      h('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': t('replay.controls') },
        h('button', { id: 'first', type: 'button', onclick: () => go(0), 'aria-keyshortcuts': 'Home', title: t('replay.first_title') }, t('replay.first')),
        h('button', { id: 'prev', type: 'button', onclick: () => go(R.at - 1), 'aria-keyshortcuts': 'ArrowLeft', title: t('replay.prev_title') }, t('replay.prev')),
        h('button', { id: 'play', type: 'button', class: 'primary', onclick: play }, t('replay.play')),
        h('button', { id: 'next', type: 'button', onclick: () => go(R.at + 1), 'aria-keyshortcuts': 'ArrowRight', title: t('replay.next_title') }, t('replay.next')),
        h('button', { id: 'last', type: 'button', onclick: () => go(n), 'aria-keyshortcuts': 'End', title: t('replay.last_title') }, t('replay.last')),
        h('label', { for: 'slider', class: 'sr-only' }, t('replay.position')),
        h('input', { id: 'slider', type: 'range', min: 0, max: n, step: 1, value: R.at, oninput: (e) => { stop(); go(Number(e.target.value)); } }),
        h('span', { id: 'step-label', class: 'step' })),
      h('p', { id: 'event-text', class: 'event-text', 'aria-live': 'polite' })),
    h('div', { id: 'replay-view', class: 'replay-view' }),
    h('div', { id: 'thoughts-wrap' }),
    B.evalCard(rec),
    h('div', { class: 'card' },
      h('h2', { id: 'events-title' }, t('replay.events', { count: n })),
      h('ol', { id: 'events', class: 'events', 'aria-labelledby': 'events-title' },
        R.steps.slice(1).map((s, i) => h('li', { 'data-step': i + 1, 'data-kind': s.kind, onclick: () => { stop(); go(i + 1); } }, s.text))))));
  const chartCard = document.getElementById('eval-card');
  R.moveEvalLine = chartCard ? B.evalChart(chartCard, rec, who, Math.max(240, chartCard.clientWidth - 32), R.at) : null;
  renderStep();
}

/** Draws the current step: the controls' state, the event in words, the board. */
function renderStep() {
  const section = document.getElementById('replay');
  if (!section || !R.record) return;
  const n = R.steps.length - 1;
  const step = R.steps[R.at];
  section.dataset.step = R.at;
  section.dataset.playing = R.timer ? 'true' : 'false';
  history.replaceState(null, '', `${location.pathname}${location.search}${R.at ? `#${R.at}` : ''}`);
  document.getElementById('slider').value = R.at;
  document.getElementById('step-label').textContent = t('replay.step', { at: R.at, n });
  document.getElementById('first').disabled = R.at === 0;
  document.getElementById('prev').disabled = R.at === 0;
  document.getElementById('next').disabled = R.at === n;
  document.getElementById('last').disabled = R.at === n;
  const playBtn = document.getElementById('play');
  playBtn.textContent = R.timer ? t('replay.pause') : t('replay.play');
  playBtn.setAttribute('aria-pressed', R.timer ? 'true' : 'false');
  const text = document.getElementById('event-text');
  text.textContent = R.at === 0 ? step.text : `${R.at}. ${step.text}`;
  text.dataset.kind = step.kind || '';
  const game = GAMES[R.record.game.game];
  const view = document.getElementById('replay-view');
  view.replaceChildren(...(game ? game.view(structuredClone(step.state)) : []));
  // What the bots thought up to this step (the record's infos, sealed until the match was over).
  B.markBoard(view, R.record, R.at);
  document.getElementById('thoughts-wrap').replaceChildren(B.thoughtsCard(R.record, R.at, who));
  if (R.moveEvalLine) R.moveEvalLine(R.at);
  const list = document.getElementById('events');
  list.querySelectorAll('li').forEach((li) => {
    const k = Number(li.dataset.step);
    li.classList.toggle('current', k === R.at);
    li.classList.toggle('future', k > R.at);
    if (k === R.at) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
  });
  const current = list.querySelector('li.current');
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
}

document.addEventListener('keydown', (e) => {
  if (!R.record || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.matches && e.target.matches('input, select, textarea')) return;
  const n = R.steps.length - 1;
  const to = { ArrowRight: R.at + 1, ArrowLeft: R.at - 1, Home: 0, End: n }[e.key];
  if (to == null) return;
  e.preventDefault();
  stop();
  go(to);
});

/** Shows the match as `seat` saw it (null: everything), keeping the address in step. */
async function switchView(seat) {
  stop();
  R.view = seat;
  const url = new URL(location.href);
  if (seat == null) url.searchParams.delete('seat'); else url.searchParams.set('seat', String(seat));
  url.hash = '';
  history.replaceState(null, '', url);
  await load(true);
}

async function load(atEnd = false) {
  try {
    const query = R.view == null ? '' : `?seat=${R.view}`;
    const [record] = await getJson(`/api/matches/${encodeURIComponent(R.id)}${query}`);
    R.record = record;
    R.steps = buildSteps(record);
    // A link may name a step: /replay/<id>#42 (past the end: the last step).
    const step = Number(location.hash.slice(1));
    R.at = atEnd ? R.steps.length - 1 : Number.isInteger(step) && step > 0 ? Math.min(step, R.steps.length - 1) : 0;
  } catch (err) {
    R.error = err;
    R.record = null;
  }
  render();
  if (atEnd) document.getElementById('view-as')?.focus();
}

translateStatic();
mountSwitch();
document.getElementById('rules-link').href = rulesHref();
load();
