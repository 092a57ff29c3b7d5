// The replay of one finished tournament match (/replay/<match id>), from GET /api/matches/<id>: every
// event of the match in order, secret deployments included (the match is over, so nothing is hidden).
// The page folds the events into one position per step and draws it: plane battle boards with
// their deployments and shots, the gomoku board with numbered stones, the junqi board with every
// rank. Controls: first, previous, play/pause, next, last, a slider; the arrow keys step, Home and
// End jump; the address names the step shown (/replay/<id>#42). Plain ES module, no build.
import { translateStatic, mountSwitch, rulesHref } from './i18n.js';
import { h, getJson, idFromPath, entrantName, ordinal, plural, seatLabel, gameText, resultText } from './dom.js';
import * as P from './plane.js';
import * as G from './gomoku.js';
import * as J from './junqi.js';

/** Milliseconds per step while playing. */
const PLAY_MS = 500;

/** Everything the page knows (also `window.replay`, for the console and tests). */
const R = {
  id: idFromPath(),
  record: null,
  error: null,
  /** steps[0]: before the first event; steps[i]: after event i - 1, with its text. */
  steps: [],
  at: 0,
  timer: null,
};
window.replay = R;

// ---------------------------------------------------------------- names

function names() {
  return R.record.entrants.map(entrantName);
}

function who(seat) {
  return names()[seat] ?? `Seat ${seat + 1}`;
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
  return (planes || []).map((p) => `${p.head} facing ${p.facing}`).join(', ');
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
      return `${ev.extra ? 'Extra round (tie-break)' : `Round ${ev.round + 1}`} starts; ${who(ev.first_attacker)} will fire first.`;
    case 'ready':
      v.boards[ev.seat].ready = true;
      return ev.by_default ? `${who(ev.seat)} ran out of time: planes placed at random.` : `${who(ev.seat)} is ready.`;
    case 'deployment':
      v.boards[ev.seat].planes = ev.planes;
      return `${who(ev.seat)} deployed (secret until the round ended): ${placementText(ev.planes)}.`;
    case 'turn':
      v.attacker = ev.attacker;
      return `${who(ev.attacker)} to fire.`;
    case 'shot': {
      const b = v.boards[ev.target];
      b.shots.push({ by: ev.attacker, cell: ev.cell, result: ev.result });
      if (ev.plane) b.downed.push(ev.plane);
      if (ev.knocked_out) b.knocked_out = true;
      v.boards[ev.attacker].points += ev.points;
      v.totals[ev.attacker] += ev.points;
      v.last = { target: ev.target, cell: ev.cell };
      let text = `${who(ev.attacker)} fired at ${who(ev.target)} ${ev.cell}: ${ev.result}`;
      if (ev.result === 'down') text += ev.knocked_out ? ' — last plane down, knocked out' : ' — plane shot down';
      if (ev.points) text += ` (+${ev.points})`;
      if (ev.by_default) text += ' [time ran out: random shot]';
      return `${text}.`;
    }
    case 'round_ended': {
      const r = ev.result;
      v.history.push(r);
      v.totals = ev.totals;
      v.round_wins[r.survivor] += 1;
      v.attacker = null;
      // Every deployment is public now; a record always has them already, this is a safeguard.
      r.deployments.forEach((planes, s) => { if (planes && planes.length && !v.boards[s].planes) v.boards[s].planes = planes; });
      const pts = r.points.map((p, s) => `${who(s)} ${p}`).join(', ');
      return `${r.extra ? 'Extra round' : `Round ${r.round + 1}`} over: ${who(r.survivor)} survived. Points: ${pts}.`;
    }
    case 'match_ended': {
      const o = ev.outcome;
      v.outcome = o;
      v.totals = o.totals;
      v.round_wins = o.round_wins;
      v.attacker = null;
      const resigned = o.resigned != null ? ` ${who(o.resigned)} resigned.` : '';
      return `Match over: ${who(o.winner)} won with ${plural(o.totals[o.winner], 'point')}.${resigned}`;
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
      if (shot) words.push(shot === 'down' ? 'head hit, plane down' : shot);
      if (plane) words.push(`${plane === 'downed' ? 'downed ' : ''}plane${head ? '\'s head' : ''}`);
      if (last) words.push('last shot');
      const cls = ['cell', shot ? `shot-${shot}` : '', plane ? `plane plane-${plane}` : '', head ? 'head' : '', last ? 'last' : ''].filter(Boolean).join(' ');
      cells.push(h('span', {
        class: cls, 'data-cell': cell, 'data-shot': shot || null, 'data-plane': plane, 'data-head': head ? 'true' : null,
        'data-last': last ? 'true' : null, role: 'img', 'aria-label': words.join(', '),
      }, symbol));
    }
  }
  const badges = [];
  if (!b.playing) badges.push(h('span', { class: 'badge out' }, 'not in this round'));
  else if (b.knocked_out) badges.push(h('span', { class: 'badge out' }, 'knocked out'));
  if (v.attacker === b.seat) badges.push(h('span', { class: 'badge turn' }, '▶ to fire'));
  return h('figure', { class: `board ${b.knocked_out ? 'out' : ''} ${v.attacker === b.seat ? 'attacking' : ''}`, 'data-board': b.seat, 'data-planes': (b.planes || []).length },
    h('figcaption', {}, h('strong', {}, who(b.seat)), ...badges,
      h('span', { class: 'pts' }, `${b.points} pt${b.points === 1 ? '' : 's'} this round`)),
    h('div', { class: `grid side-${side}`, style: `--side:${side}`, role: 'group', 'aria-label': `${who(b.seat)}'s board`, 'data-grid': b.seat }, cells));
}

function planeScoreboard(v) {
  const heads = v.history.map((r) => (r.extra ? `X${r.round + 1}` : `R${r.round + 1}`));
  const live = v.round != null && v.history.length <= v.round && !v.outcome;
  return h('div', { class: 'card score' },
    h('h2', {}, 'Scores'),
    h('div', { class: 'scroll' },
      h('table', { class: 'scoreboard', id: 'scoreboard' },
        h('caption', { class: 'sr-only' }, 'Points per round and totals'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), heads.map((t) => h('th', { scope: 'col' }, t)),
          live ? h('th', { scope: 'col', title: 'the round being played' }, `R${v.round + 1}*`) : null,
          h('th', { scope: 'col' }, 'Total'), h('th', { scope: 'col' }, 'Wins'))),
        h('tbody', {}, v.boards.map((b) => h('tr', { 'data-score-row': b.seat, class: v.outcome && v.outcome.winner === b.seat ? 'winner' : '' },
          h('th', { scope: 'row' }, who(b.seat)),
          v.history.map((r) => h('td', {}, String(r.points[b.seat]), r.survivor === b.seat ? h('span', { 'aria-label': ', survived' }, ' ★') : null)),
          live ? h('td', { class: 'live' }, String(b.points)) : null,
          h('td', { class: 'total', 'data-total': b.seat }, String(v.totals[b.seat])),
          h('td', {}, String(v.round_wins[b.seat]))))))),
    v.outcome ? h('p', {}, v.outcome.placings.map((p, s) => ({ p, s })).sort((a, b) => a.p - b.p || a.s - b.s)
      .map(({ p, s }) => `${ordinal(p)} ${who(s)}`).join(' · ')) : null,
    h('p', { class: 'muted small' }, '★ survived the round. Shots: ○ miss, ✕ hit, ✹ head (plane down); ▲ a plane\'s head.'));
}

function planeView(v) {
  const title = v.round == null ? 'Before the first round' : v.extra ? `Extra round (round ${v.round + 1})` : `Round ${v.round + 1}`;
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
  return text.replace(/^(\d+)\. /, 'Move $1: ');
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
      h('div', { class: 'card' }, h('h2', {}, 'Players'),
        h('ul', { class: 'players' }, [0, 1].map((seat) => h('li', { class: v.to_move === seat ? 'to-move' : '' },
          h('span', { class: `stone mini ${G.colourOf(seat)}`, 'aria-hidden': 'true' }), h('strong', {}, who(seat)), ` · ${G.colourOf(seat)}`,
          v.to_move === seat ? h('span', { class: 'badge turn' }, 'to move') : null)))),
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
  if (!piece || !piece.rank) return 'a piece';
  const [cn, en] = J.rankNames(piece.rank);
  return `${J.colourOf(piece.owner)} ${en} ${cn}`;
}

function junqiApply(rs, ev) {
  const v = rs.view;
  const mover = (seat) => `${who(seat)} (${J.colourOf(seat)})`;
  switch (ev.kind) {
    case 'started':
      v.no_attack_limit = ev.no_attack_limit;
      return `Deployment begins (${ev.no_attack_limit ? `no-attack limit ${ev.no_attack_limit}` : 'no-attack rule off'}).`;
    case 'deployed':
      v.deployed[ev.seat] = true;
      return `${mover(ev.seat)} has deployed.`;
    case 'deployment':
      v.layouts[ev.seat] = ev.layout;
      v.pieces = v.pieces.filter((p) => p.owner !== ev.seat).concat(J.layoutPieces(ev.layout, ev.seat));
      return `${mover(ev.seat)}'s layout (secret during the game) is on the board.`;
    case 'battle_started':
      v.phase = 'battle';
      v.to_move = ev.to_move;
      return `The battle begins. ${mover(ev.to_move)} to move.`;
    case 'moved': {
      const attacker = v.pieces.find((p) => p.post === ev.from);
      const defender = v.pieces.find((p) => p.post === ev.to);
      v.pieces = J.piecesAfter(v.pieces, ev);
      v.moves.push({ number: ev.number, seat: ev.seat, from: ev.from, to: ev.to, result: ev.result });
      v.quiet_moves = ev.result === 'moved' ? v.quiet_moves + 1 : 0;
      v.to_move = 1 - ev.seat;
      const ranks = defender ? ` (${rankName(attacker)} against ${rankName(defender)})` : ` (${rankName(attacker)})`;
      return `Move ${ev.number}: ${J.moveText(ev, ui())}${ranks}`;
    }
    case 'flag_revealed':
      v.revealed_flags[ev.seat] = ev.post;
      return `${mover(ev.seat)} lost the field marshal: the flag at ${ev.post} is revealed.`;
    case 'ended':
      Object.assign(v, { phase: 'over', outcome: ev.outcome, to_move: null });
      if (ev.outcome.pieces) v.pieces = ev.outcome.pieces;
      return `Game over: ${J.resultText(ev.outcome, ui()).join(' ')}`;
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
      h('div', { class: 'card' }, h('h2', {}, 'Players'),
        h('ul', { class: 'players' }, [0, 1].map((seat) => h('li', { class: v.to_move === seat ? 'to-move' : '' },
          h('span', { class: `jq-dot owner-${seat}`, 'aria-hidden': 'true' }), h('strong', {}, who(seat)), ` · ${J.colourOf(seat)}`,
          v.to_move === seat ? h('span', { class: 'badge turn' }, 'to move') : null))),
        h('p', { class: 'jq-quiet', id: 'quiet', 'data-quiet': v.quiet_moves },
          limit ? `Quiet moves ${v.quiet_moves}/${limit}` : `Quiet moves ${v.quiet_moves} (no-attack rule off)`),
        h('p', { class: 'muted small' }, 'Every rank is shown: the match is over. Red sits at the bottom.')),
      J.moveList(rs, u)),
  ];
}

// ---------------------------------------------------------------- the steps

const GAMES = {
  plane: { start: planeStart, apply: planeApply, view: planeView },
  gomoku: { start: gomokuStart, apply: gomokuApply, view: gomokuView },
  junqi: { start: junqiStart, apply: junqiApply, view: junqiView },
};

/** Folds the record's events into one state per step. */
function buildSteps(record) {
  const game = GAMES[record.game.game];
  let state = game.start(record.game);
  const steps = [{ state: structuredClone(state), text: 'Before the first event.', kind: null }];
  for (const ev of record.events) {
    let text;
    try {
      text = game.apply(state, ev);
    } catch (err) {
      text = `${ev.kind} (cannot be shown: ${err.message})`;
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

function render() {
  const main = document.getElementById('main');
  if (!R.record) {
    main.replaceChildren(h('section', { id: 'replay', class: 'card', 'data-state': R.error ? 'error' : 'loading' },
      h('h1', {}, 'Replay'),
      h('p', {}, R.error ? `This match cannot be replayed: ${R.error.message}` : 'Loading…'),
      h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))));
    return;
  }
  const rec = R.record;
  const all = names();
  const game = rec.game.game;
  const title = all.join(game === 'plane' && all.length > 2 ? ', ' : ' vs ');
  document.title = `Replay: ${title} · Skirmish`;
  const [head, detail] = rec.result ? resultText(rec.result, all, game) : ['', ''];
  const n = R.steps.length - 1;
  main.replaceChildren(h('section', { id: 'replay', class: 'replay', 'data-game': game, 'data-match-id': rec.id, 'data-steps': n },
    h('div', { class: 'card' },
      h('h1', { id: 'replay-title' }, `Replay: ${title}`),
      h('p', { class: 'muted' }, gameText(rec.game), ` · match ${rec.index + 1}`, rec.opening ? ` · opening ${rec.opening}` : '', ' · ',
        h('a', { href: `/tournament/${rec.tournament}`, id: 'to-tournament' }, 'the tournament')),
      h('ol', { class: 'seats' }, all.map((name, seat) => h('li', { 'data-seat': seat },
        h('span', { class: 'muted' }, `${seatLabel(game, seat)}: `), name,
        rec.entrants[seat] && rec.entrants[seat].version ? h('small', { class: 'muted' }, ` v${rec.entrants[seat].version}`) : null))),
      rec.result ? h('p', { id: 'match-result', 'data-end': rec.result.end }, h('strong', {}, head), ` · ${detail}`) : null),
    h('div', { class: 'card' },
      h('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': 'Replay controls' },
        h('button', { id: 'first', type: 'button', onclick: () => go(0), 'aria-keyshortcuts': 'Home', title: 'First (Home)' }, '« First'),
        h('button', { id: 'prev', type: 'button', onclick: () => go(R.at - 1), 'aria-keyshortcuts': 'ArrowLeft', title: 'Previous (←)' }, '‹ Prev'),
        h('button', { id: 'play', type: 'button', class: 'primary', onclick: play }, '▶ Play'),
        h('button', { id: 'next', type: 'button', onclick: () => go(R.at + 1), 'aria-keyshortcuts': 'ArrowRight', title: 'Next (→)' }, 'Next ›'),
        h('button', { id: 'last', type: 'button', onclick: () => go(n), 'aria-keyshortcuts': 'End', title: 'Last (End)' }, 'Last »'),
        h('label', { for: 'slider', class: 'sr-only' }, 'Position'),
        h('input', { id: 'slider', type: 'range', min: 0, max: n, step: 1, value: R.at, oninput: (e) => { stop(); go(Number(e.target.value)); } }),
        h('span', { id: 'step-label', class: 'step' })),
      h('p', { id: 'event-text', class: 'event-text', 'aria-live': 'polite' })),
    h('div', { id: 'replay-view', class: 'replay-view' }),
    h('div', { class: 'card' },
      h('h2', { id: 'events-title' }, `Events (${n})`),
      h('ol', { id: 'events', class: 'events', 'aria-labelledby': 'events-title' },
        R.steps.slice(1).map((s, i) => h('li', { 'data-step': i + 1, 'data-kind': s.kind, onclick: () => { stop(); go(i + 1); } }, s.text))))));
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
  history.replaceState(null, '', R.at ? `#${R.at}` : location.pathname);
  document.getElementById('slider').value = R.at;
  document.getElementById('step-label').textContent = `Step ${R.at} of ${n}`;
  document.getElementById('first').disabled = R.at === 0;
  document.getElementById('prev').disabled = R.at === 0;
  document.getElementById('next').disabled = R.at === n;
  document.getElementById('last').disabled = R.at === n;
  const playBtn = document.getElementById('play');
  playBtn.textContent = R.timer ? '⏸ Pause' : '▶ Play';
  playBtn.setAttribute('aria-pressed', R.timer ? 'true' : 'false');
  const text = document.getElementById('event-text');
  text.textContent = R.at === 0 ? step.text : `${R.at}. ${step.text}`;
  text.dataset.kind = step.kind || '';
  const game = GAMES[R.record.game.game];
  document.getElementById('replay-view').replaceChildren(...game.view(structuredClone(step.state)));
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

async function load() {
  try {
    const [record] = await getJson(`/api/matches/${encodeURIComponent(R.id)}`);
    R.record = record;
    R.steps = buildSteps(record);
    // A link may name a step: /replay/<id>#42 (past the end: the last step).
    const step = Number(location.hash.slice(1));
    R.at = Number.isInteger(step) && step > 0 ? Math.min(step, R.steps.length - 1) : 0;
  } catch (err) {
    R.error = err;
  }
  render();
}

translateStatic();
mountSwitch();
document.getElementById('rules-link').href = rulesHref();
load();
