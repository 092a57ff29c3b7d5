// What the bots thought, on the replay page (/replay): the record's `infos` (GET /api/matches/<id>;
// the server keeps them sealed until the match, and a duplicate match's deal everywhere, is over),
// each placed at the event where its act's events start. At each step the card shows the latest
// info of the act shown or before it: its score, depth, nodes and line, and per game its picture
// of what it could not see: plane battle a heat map of each opponent board (the chance a cell holds
// part of a plane, over the board, the cell then shot outlined), junqi its likeliest rank on each enemy piece (a
// badge on the board's piece), gomoku an evaluation graph over the match (uPlot, vendored in
// vendor/uplot, a global loaded by replay.html). Strings through the catalogs (keys under replay.thought).

import { t } from './i18n.js';
import { h } from './dom.js';
import { parseCell, cellName } from './plane.js';

/** The info of the latest act whose events start before `step` (step i shows the match after event
 * i - 1), or null. */
export function latestAt(infos, step) {
  let found = null;
  for (const m of infos || []) if (m.at < step && (!found || m.at >= found.at)) found = m;
  return found;
}

/** "62%": a chance in thousandths. */
function percent(perMille) {
  return t('replay.thought.percent', { n: Math.round(perMille / 10) });
}

/** The figures of an info, as a definition list. */
function figures(info) {
  const rows = [];
  if (info.score != null) rows.push(['score', t('replay.thought.score'), String(info.score)]);
  if (info.depth != null) rows.push(['depth', t('replay.thought.depth'), String(info.depth)]);
  if (info.nodes != null) rows.push(['nodes', t('replay.thought.nodes'), info.nodes.toLocaleString()]);
  if (info.pv && info.pv.length) rows.push(['line', t('replay.thought.line'), info.pv.join(' ')]);
  if (info.belief && info.belief.game === 'gomoku') rows.push(['eval', t('replay.thought.eval'), percent((info.belief.eval + 1000) / 2)]);
  return h('dl', { class: 'thought-figures' }, rows.flatMap(([key, name, value]) => [
    h('dt', {}, name), h('dd', { 'data-figure': key }, value)]));
}

/** Lays the heat map of one board's odds over that board's cells in `view` (the drawn step): redder
 * the likelier, the chance in percent in the corner, the cell then shot outlined. */
function heatOver(view, odds, shot) {
  const side = Math.round(Math.sqrt(odds.cells.length));
  const grid = view.querySelector(`[data-grid="${odds.seat}"]`);
  if (!grid) return;
  odds.cells.slice(0, side * side).forEach((p, i) => {
    const name = cellName(Math.floor(i / side), i % side);
    const cell = grid.querySelector(`[data-cell="${name}"]`);
    if (!cell) return;
    const label = t('replay.thought.cell', { cell: name, chance: percent(p) });
    cell.title = label;
    cell.append(h('span', {
      class: `heat-cell${shot === name ? ' shot' : ''}`, 'aria-label': label,
      'data-cell': name, 'data-chance': p, style: `--heat:${(p / 1000).toFixed(3)}`,
    }, p > 0 ? String(Math.round(p / 10)) : ''));
  });
  grid.dataset.heat = 'true';
}

/** The cell shot by the act at `at`, when that event is a shot on `target`'s board. */
function shotCell(record, at, target) {
  const ev = record.events[at];
  if (!ev || ev.kind !== 'shot' || ev.target !== target) return null;
  const [row, col] = parseCell(ev.cell);
  return cellName(row, col);
}

/** The card of the bots' thoughts at `step`, or an empty note when no bot sent any. */
export function thoughtsCard(record, step, who) {
  const infos = record.infos || [];
  const current = latestAt(infos, step);
  const body = [h('h2', {}, t('replay.thought.title'))];
  if (!infos.length) {
    body.push(h('p', { class: 'muted small', id: 'no-thoughts' }, t('replay.thought.none')));
  } else if (!current) {
    body.push(h('p', { class: 'muted small' }, t('replay.thought.not_yet')));
  } else {
    body.push(h('p', { id: 'thought-of' }, t('replay.thought.of', { who: who(current.seat), step: current.at + 1 })), figures(current.info));
    const belief = current.info.belief;
    if (belief && belief.game === 'plane') {
      body.push(h('p', { class: 'muted small', id: 'heat-note' },
        belief.boards.map((b) => t('replay.thought.odds_on', { who: who(b.seat) })).join(t('replay.list_sep'))));
    }
    if (belief && belief.game === 'junqi') {
      body.push(h('p', { class: 'muted small', id: 'guess-note' }, t('replay.thought.guesses', { n: belief.pieces.length })));
    }
  }
  return h('div', { class: 'card thoughts', id: 'thoughts', 'data-infos': infos.length, 'data-at': current ? current.at : '' }, body);
}

/** Puts the latest info's picture on the drawn step (`view`): plane battle's odds as a heat map
 * over the opponents' boards, junqi's rank guesses on the enemy pieces. */
export function markBoard(view, record, step) {
  const current = latestAt(record.infos, step);
  const belief = current && current.info.belief;
  if (belief && belief.game === 'plane') {
    for (const b of belief.boards) heatOver(view, b, shotCell(record, current.at, b.seat));
  }
  if (!belief || belief.game !== 'junqi') return;
  for (const g of belief.pieces) {
    const piece = view.querySelector(`[data-post="${g.post}"]`);
    if (!piece) continue;
    const label = t('replay.thought.guess', { rank: t(`rank.${g.rank}`), chance: percent(g.chance) });
    piece.append(h('span', { class: 'guess', 'data-guess': g.rank, title: label, 'aria-label': label }, `${t(`rank.${g.rank}`)} ${percent(g.chance)}`));
  }
}

/** The card the gomoku evaluation graph goes in, when a bot sent evaluations (null otherwise). */
export function evalCard(record) {
  const any = (record.infos || []).some((m) => m.info.belief && m.info.belief.game === 'gomoku');
  return any ? h('div', { class: 'card', id: 'eval-card' }, h('div', { id: 'eval-chart', class: 'eval-chart' })) : null;
}

/** The gomoku evaluation graph: each seat's expected result (-100% to 100%) after each of its
 * searched stones, by step, a line at the step shown. Returns a function that moves that line. */
export function evalChart(container, record, who, width, step) {
  const infos = (record.infos || []).filter((m) => m.info.belief && m.info.belief.game === 'gomoku');
  const el = container.querySelector('#eval-chart');
  if (!el || !infos.length || typeof window.uPlot !== 'function') return () => {};
  const xs = infos.map((m) => m.at + 1);
  const seats = [...new Set(infos.map((m) => m.seat))].sort();
  const series = seats.map((seat) => infos.map((m) => (m.seat === seat ? m.info.belief.eval / 10 : null)));
  let at = step;
  const colours = ['#222', '#c33', '#36c'];
  const chart = new window.uPlot({
    width,
    height: 180,
    title: t('replay.thought.chart'),
    scales: { x: { time: false }, y: { range: [-100, 100] } },
    axes: [{ label: t('replay.thought.chart_x') }, { label: t('replay.thought.chart_y') }],
    series: [{ label: t('replay.thought.chart_x') },
      ...seats.map((seat, i) => ({ label: who(seat), stroke: colours[i % colours.length], width: 2, spanGaps: true, points: { show: true } }))],
    hooks: {
      draw: [(u) => {
        const x = Math.round(u.valToPos(at, 'x', true));
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = '#e80';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.restore();
      }],
    },
  }, [xs, ...series], el);
  return (next) => { at = next; chart.redraw(false, false); };
}
