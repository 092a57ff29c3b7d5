// One standing ladder's page (/ladder/<id>): its table of rated entrants (rank, rating ± deviation,
// provisional until the deviation falls under the ladder's bound, games, wins/draws/losses,
// forfeits by cause, last seen, and why a paused entrant waits), and for the entrant picked
// (?entrant=<n>, the leader by default) its rating history as a chart (uPlot, vendored), its
// head-to-head results and its latest games with replay links. It polls GET /api/ladders/<id>
// and /entrants/<n>. Plain ES module, no build.
import { t, lang, translateStatic, mountSwitch, rulesHref } from './i18n.js';
import { h, getJson, idFromPath, entrantName, resultText } from './dom.js';
import { ladderName, ratingText } from './ladders.js';

/** Milliseconds between two polls. */
const POLL_MS = 3000;

/** Everything the page knows (also `window.ladderPage`, for the console and tests). */
const L = {
  id: idFromPath(),
  status: null,
  /** The entrant shown below the table, by number; null: the leader. */
  picked: Number(new URLSearchParams(location.search).get('entrant')) || null,
  detail: null,
  error: null,
  timer: null,
  chart: null,
};
window.ladderPage = L;

async function load() {
  clearTimeout(L.timer);
  try {
    const [status] = await getJson(`/api/ladders/${encodeURIComponent(L.id)}`);
    L.status = status;
    const pick = L.picked ?? (status.table[0] && status.table[0].entrant.id);
    if (pick != null) {
      const [detail] = await getJson(`/api/ladders/${encodeURIComponent(L.id)}/entrants/${pick}`);
      L.detail = detail;
    } else {
      L.detail = null;
    }
    L.error = null;
  } catch (err) {
    L.error = err;
  }
  render();
  if (!(L.error && L.error.status === 404)) L.timer = setTimeout(load, POLL_MS);
}

function pick(id) {
  L.picked = id;
  const url = new URL(location.href);
  url.searchParams.set('entrant', String(id));
  history.replaceState(null, '', url);
  load();
}

// ---------------------------------------------------------------- rendering

function render() {
  const main = document.getElementById('main');
  const poll = document.getElementById('poll');
  poll.dataset.poll = L.error ? 'error' : 'live';
  poll.textContent = t(L.error ? (L.error.status === 404 ? 'ladder.poll_missing' : 'ladder.poll_error') : 'ladder.poll_live');
  if (!L.status) {
    main.replaceChildren(h('section', { id: 'ladder', class: 'card', 'data-state': 'loading' },
      h('h1', {}, t('ladder.title')),
      h('p', {}, L.error ? t('ladder.cannot_show', { reason: L.error.message }) : t('page.loading')),
      h('p', {}, h('a', { href: '/' }, t('room.back_to_lobby')))));
    return;
  }
  const s = L.status;
  const focused = document.activeElement && document.activeElement.id;
  document.title = t('ladder.page_title', { name: ladderName(s.id) });
  main.replaceChildren(h('section', { id: 'ladder', class: 'ladder', 'data-ladder-id': s.id, 'data-games': s.games },
    header(s),
    tableCard(s),
    L.detail ? detailCard(s, L.detail) : null));
  if (L.detail) drawChart(s, L.detail);
  if (focused) {
    const el = document.getElementById(focused);
    if (el) el.focus({ preventScroll: true });
  }
}

/** A rating system's name: a proper name, the same in every language. */
function systemText(system) {
  return system === 'weng_lin' ? 'Weng-Lin (OpenSkill)' : 'Glicko-2';
}

function header(s) {
  const digits = s.rating_system === 'weng_lin' ? 2 : 0;
  return h('div', { class: 'card' },
    h('h1', { id: 'ladder-name' }, t('ladder.heading', { name: ladderName(s.id) })),
    h('p', { id: 'ladder-counts' }, t('ladder.counts', { games: s.games, entrants: s.entrants }),
      s.running ? h('span', { class: 'badge playing' }, t('ladder.running', { n: s.running })) : null),
    h('p', { class: 'muted small', id: 'ladder-system' },
      t('ladder.system', { system: systemText(s.rating_system), bound: s.provisional_deviation.toFixed(digits) })),
    h('p', { class: 'muted small' }, t('ladder.join', { cmd: `skirmish-bots play --token … --ladder ${s.id}` }), ' ', h('a', { href: '/' }, t('room.back_to_lobby'))));
}

function lastSeen(row) {
  if (row.present) return h('span', { class: 'badge ok' }, t('ladder.present'));
  return new Date(row.last_seen_ms).toLocaleString(lang, { dateStyle: 'short', timeStyle: 'short' });
}

function pausedText(p) {
  const why = p.reason === 'timed_out' ? t('ladder.paused_timed_out', { n: p.in_a_row }) : t('ladder.paused_engine', { n: p.in_a_row });
  const until = new Date(p.until_ms).toLocaleTimeString(lang, { timeStyle: 'short' });
  return t('ladder.paused', { why, until });
}

function tableCard(s) {
  const heads = [
    ['#', 'num'], [t('ladder.col.entrant'), ''], [t('ladder.col.version'), 'wide'], [t('ladder.col.rating'), 'num'],
    [t('ladder.col.games'), 'num wide'], [t('ladder.col.wdl'), 'num'], [t('ladder.col.forfeits'), 'num wide'], [t('ladder.col.seen'), 'wide'],
  ];
  const rows = s.table.map((r) => {
    const f = r.forfeits;
    const forfeits = f.timed_out + f.disconnected + f.absent + f.engine_failure + f.other;
    const picked = L.detail && L.detail.row.entrant.id === r.entrant.id;
    return h('tr', {
      'data-entrant': r.entrant.id, 'data-bot': r.entrant.bot, 'data-version': r.entrant.version,
      'data-provisional': String(r.provisional), 'data-paused': r.paused ? r.paused.reason : null, class: picked ? 'picked' : null,
    },
    h('td', { class: 'num' }, String(r.rank)),
    h('th', { scope: 'row' },
      h('button', { type: 'button', class: 'link', id: `entrant-${r.entrant.id}`, 'aria-pressed': String(!!picked), onclick: () => pick(r.entrant.id) },
        entrantName(r.entrant)),
      r.paused ? h('div', { class: 'small error', 'data-paused-why': r.paused.reason }, pausedText(r.paused)) : null),
    h('td', { class: 'wide' }, r.entrant.version || '—'),
    h('td', { class: 'num', 'data-rating': r.rating.toFixed(2), 'data-deviation': r.deviation.toFixed(2) },
      ratingText(r.rating, r.deviation, s.rating_system),
      r.provisional ? h('small', { class: 'badge waiting', title: t('ladder.provisional_title') }, t('ladder.provisional')) : null),
    h('td', { class: 'num wide' }, String(r.games)),
    h('td', { class: 'num' }, `${r.wins}/${r.draws}/${r.losses}`),
    h('td', {
      class: 'num wide',
      title: t('ladder.forfeits_title', { time: f.timed_out, dropped: f.disconnected, absent: f.absent, engine: f.engine_failure }),
    }, String(forfeits)),
    h('td', { class: 'wide' }, lastSeen(r)));
  });
  return h('div', { class: 'card' },
    h('h2', {}, t('ladder.table')),
    s.table.length
      ? h('div', { class: 'scroll' }, h('table', { class: 'data standings ladder-table', id: 'ladder-table' },
        h('caption', { class: 'sr-only' }, t('ladder.table_caption')),
        h('thead', {}, h('tr', {}, heads.map(([x, c]) => h('th', { scope: 'col', class: c || null }, x)))),
        h('tbody', {}, rows)))
      : h('p', { class: 'empty', id: 'ladder-empty' }, t('ladder.empty')),
    h('p', { class: 'muted small' }, t('ladder.table_note')));
}

function detailCard(s, d) {
  const me = d.row.entrant;
  const game = s.game.game;
  const h2h = d.head_to_head.map((x) => h('tr', { 'data-opponent': x.opponent.id },
    h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link', onclick: () => pick(x.opponent.id) }, entrantName(x.opponent)),
      x.opponent.version ? h('small', { class: 'muted' }, ` v${x.opponent.version}`) : null),
    h('td', { class: 'num' }, String(x.games)),
    h('td', { class: 'num' }, `${x.wins}/${x.draws}/${x.losses}`)));
  const recent = d.recent.map((g) => {
    const names = g.seats.map(entrantName);
    const [head] = resultText(g.result, names, game);
    return h('li', { 'data-game': g.id },
      h('a', { href: `/replay/${g.id}`, 'data-replay': g.id }, t('ladder.replay')), ' ',
      h('span', {}, names.join(t('ladder.vs'))), ' — ', h('strong', {}, head),
      h('small', { class: 'muted' }, ` ${new Date(g.finished_ms).toLocaleString(lang, { dateStyle: 'short', timeStyle: 'short' })}`));
  });
  return h('div', { class: 'card ladder-detail', id: 'entrant-detail', 'data-entrant': me.id },
    h('h2', {}, t('ladder.entrant_heading', { name: entrantName(me), version: me.version || '—' })),
    h('p', {}, ratingText(d.row.rating, d.row.deviation, s.rating_system),
      d.row.provisional ? h('small', { class: 'badge waiting' }, t('ladder.provisional')) : null),
    h('h3', {}, t('ladder.history')),
    d.history.length
      ? h('div', { id: 'rating-chart', class: 'rating-chart', role: 'img', 'aria-label': t('ladder.chart_label', { n: d.history.length }) })
      : h('p', { class: 'empty' }, t('ladder.no_history')),
    h('div', { class: 't-grid' },
      h('div', {},
        h('h3', {}, t('ladder.head_to_head')),
        d.head_to_head.length
          ? h('table', { class: 'data', id: 'head-to-head' },
            h('thead', {}, h('tr', {}, [t('ladder.col.opponent'), t('ladder.col.games'), t('ladder.col.wdl')].map((x) => h('th', { scope: 'col' }, x)))),
            h('tbody', {}, h2h))
          : h('p', { class: 'empty' }, t('ladder.no_games'))),
      h('div', {},
        h('h3', {}, t('ladder.recent')),
        d.recent.length ? h('ol', { class: 'recent-games', id: 'recent-games' }, recent) : h('p', { class: 'empty' }, t('ladder.no_games')))));
}

/** The rating history as a line with its ±deviation band, one point per game. */
function drawChart(s, d) {
  const box = document.getElementById('rating-chart');
  if (!box || typeof uPlot === 'undefined') return;
  if (L.chart) L.chart.destroy();
  const xs = d.history.map((p) => p.at_ms / 1000);
  const r = d.history.map((p) => p.rating);
  const lo = d.history.map((p) => p.rating - p.deviation);
  const hi = d.history.map((p) => p.rating + p.deviation);
  const width = Math.max(260, box.clientWidth || 600);
  const opts = {
    width,
    height: 220,
    series: [
      {},
      { label: t('ladder.chart_rating'), stroke: '#2f6fbd', width: 2 },
      { label: t('ladder.chart_low'), stroke: '#9ab8de', dash: [4, 4] },
      { label: t('ladder.chart_high'), stroke: '#9ab8de', dash: [4, 4] },
    ],
    bands: [{ series: [3, 2], fill: 'rgba(47,111,189,0.12)' }],
    axes: [{}, { size: 56 }],
    legend: { show: width > 400 },
  };
  L.chart = new uPlot(opts, [xs, r, lo, hi], box);
}

translateStatic();
mountSwitch();
document.getElementById('rules-link').href = rulesHref();
load();
