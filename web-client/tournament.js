// One tournament's page (/tournament/<id>): its settings, live standings with Elo intervals, the
// crosstable and every match, with links to watch the running ones and replay the finished ones.
// The seed is secret while the tournament runs: the page shows the commitment to it, and once the
// tournament is over the seed and salt, checking in the browser that they open the commitment
// (`skirmish-bots audit` checks every dealt board against them too). A match whose deal is still
// being played at another table is sealed: no Watch link until the deal is over everywhere.
// It polls GET /api/tournaments/<id> and /standings while the tournament runs, and stops once it is
// over. Plain ES module, no build.
import { sha256Hex } from './audit.js';
import { t, lang, translateStatic, mountSwitch, rulesHref } from './i18n.js';
import { h, getJson, idFromPath, entrantName, num, seatLabel, gameText, resultText } from './dom.js';

/** Milliseconds between two polls while the tournament runs. */
const POLL_MS = 1500;

/** Everything the page knows (also `window.tournamentPage`, for the console and tests). */
const T = {
  id: idFromPath(),
  status: null,
  standings: null,
  /** The revealed seed as the server wrote it (a 64-bit number JavaScript's numbers cannot hold
   *  exactly); null while the tournament runs. */
  seed: null,
  /** Whether the revealed seed and salt open the commitment: true, false, or null (not known). */
  seedOk: null,
  error: null,
  polling: true,
  timer: null,
};
window.tournamentPage = T;

async function load() {
  clearTimeout(T.timer);
  try {
    const [[status, text], [standings]] = await Promise.all([
      getJson(`/api/tournaments/${encodeURIComponent(T.id)}`),
      getJson(`/api/tournaments/${encodeURIComponent(T.id)}/standings`),
    ]);
    // The revealed seed, digit for digit, from the commitment object `"seed": {"sha256": ..., "seed": N}`.
    const seed = text.match(/"seed"\s*:\s*\{[^}]*"seed"\s*:\s*(\d+)/);
    T.seed = seed ? seed[1] : null;
    T.seedOk = null;
    if (T.seed !== null && status.seed && status.seed.salt) {
      const digest = await sha256Hex(`${status.seed.salt}:${T.seed}`);
      T.seedOk = digest === null ? null : digest === status.seed.sha256;
    }
    T.status = status;
    T.standings = standings;
    T.error = null;
  } catch (err) {
    T.error = err;
  }
  // Both answers must say it is over: the standings may have been read a moment before the end.
  const over = T.status && T.status.state !== 'running' && T.standings && T.standings.state !== 'running';
  const gone = T.error && T.error.status === 404;
  T.polling = !over && !gone;
  render();
  if (T.polling) T.timer = setTimeout(load, POLL_MS);
}

// ---------------------------------------------------------------- rendering

function render() {
  const main = document.getElementById('main');
  const poll = document.getElementById('poll');
  poll.dataset.poll = T.error ? 'error' : T.polling ? 'live' : 'done';
  poll.textContent = t(T.error ? 'tournament.poll_error' : T.polling ? 'tournament.poll_live' : 'tournament.poll_final');
  if (T.error && T.error.status === 404) poll.textContent = t('tournament.poll_missing');
  if (!T.status) {
    main.replaceChildren(h('section', { id: 'tournament', class: 'card', 'data-state': 'loading' },
      h('h1', {}, t('tournament.title')),
      h('p', {}, T.error ? t('tournament.cannot_show', { reason: T.error.message }) : t('page.loading')),
      h('p', {}, h('a', { href: '/' }, t('room.back_to_lobby')))));
    return;
  }
  const s = T.status;
  const focused = document.activeElement && document.activeElement.id;
  document.title = t('tournament.page_title', { name: s.name });
  main.replaceChildren(h('section', {
    id: 'tournament', class: 'tournament', 'data-tournament-id': s.id, 'data-state': s.state,
    'data-polling': String(T.polling), 'data-game': s.game,
  },
  h('div', { class: 't-grid' }, header(s), settingsCard(s)),
  standingsCard(s, T.standings),
  crosstableCard(T.standings),
  matchesCard(s)));
  if (focused) {
    const el = document.getElementById(focused);
    if (el) el.focus({ preventScroll: true });
  }
}

function header(s) {
  const pct = s.total ? Math.round((100 * s.finished) / s.total) : 0;
  return h('div', { class: 'card t-head' },
    h('h1', { id: 't-name' }, s.name),
    h('p', { class: 'muted' }, h('span', { id: 't-game' }, gameText(s.config.game)),
      h('span', { class: `badge ${s.state === 'running' ? 'playing' : s.state === 'cancelled' ? 'off' : 'ok'}`, id: 't-state', 'data-state': s.state },
        t(`tournament.state.${s.state}`))),
    h('p', { id: 't-progress', 'data-finished': s.finished, 'data-total': s.total, 'data-running': s.running },
      t('tournament.progress', { finished: s.finished, total: s.total }), s.running ? t('tournament.progress_running', { n: s.running }) : '',
      s.matches < s.total ? t('tournament.progress_scheduled', { n: s.matches }) : ''),
    h('progress', { max: s.total || 1, value: s.finished, 'aria-labelledby': 't-progress' }, `${pct}%`));
}

function formatText(f) {
  if (!f || f.kind === 'round_robin') return t('tournament.format.round_robin');
  return f.rounds != null ? t('tournament.format.swiss', { count: f.rounds }) : t('tournament.format.swiss_auto');
}

function settingsCard(s) {
  const c = s.config;
  const clock = c.clock || {};
  const kind = c.game.game;
  const rows = [
    ['format', formatText(c.format)],
    ['games per pairing', t('tournament.sets', { count: c.games_per_pairing })],
    ['clock', t('tournament.clock', { deploy: secs(clock.deploy_ms), move: secs(clock.move_ms), game: secs(clock.game_ms) })],
    ['duplicate', dealingText(kind, s.dealing)],
    kind === 'gomoku' ? ['openings', (c.openings || []).length ? c.openings.join(t('list.sep')) : t('tournament.openings_none')] : null,
    ['matches at once', String(c.parallel)],
    ['grace', secs(c.grace_ms)],
    ['created', new Date(s.created_ms).toLocaleString(lang)],
  ].filter(Boolean);
  return h('div', { class: 'card t-settings' },
    h('h2', {}, t('tournament.settings')),
    h('dl', { id: 't-settings' }, rows.flatMap(([k, v]) => [h('dt', {}, t(`tournament.setting.${k.replace(/ /g, '_')}`)), h('dd', { 'data-setting': k }, v)])),
    seedEl(s.seed));
}

function dealingText(kind, d) {
  if (kind === 'gomoku') return t('tournament.dealing.gomoku');
  if (!d || d.kind === 'own') return t('tournament.dealing.own');
  if (d.kind === 'duplicate') return t('tournament.dealing.duplicate', { count: d.tables });
  return t('tournament.dealing.impossible', { why: d.why });
}

/** Seconds of a clock, or "no limit" for 0. */
function secs(ms) {
  return ms ? t('tournament.seconds', { n: ms / 1000 }) : t('tournament.no_limit');
}

/**
 * The seed, folded away under one line: its commitment while the tournament runs; the seed, the
 * salt and the browser's check after.
 */
function seedEl(c) {
  if (!c) return null;
  const commitment = h('code', { id: 't-seed-commitment', class: 'small hash' }, c.sha256);
  if (T.seed === null) {
    return h('details', { class: 't-seed' },
      h('summary', {}, t('tournament.seed.hidden_summary')),
      h('p', { id: 't-seed', 'data-seed': 'hidden', class: 'small' }, t('tournament.seed.hidden'), ' ', commitment));
  }
  const verdict = T.seedOk === true ? t('tournament.seed.opens') : T.seedOk === false ? t('tournament.seed.does_not_open')
    : t('tournament.seed.cannot_check');
  return h('details', { class: 't-seed', open: T.seedOk === false },
    h('summary', {}, T.seedOk === false ? t('tournament.seed.bad_summary') : t('tournament.seed.shown_summary')),
    h('p', { id: 't-seed', class: 'small', 'data-seed': T.seed, 'data-seed-ok': String(T.seedOk) },
      t('tournament.seed.seed'), ' ', h('strong', {}, T.seed), h('br'),
      t('tournament.seed.salt'), ' ', h('code', { class: 'hash' }, c.salt), h('br'),
      t('tournament.seed.commitment'), ' ', commitment, h('br'),
      h('span', { class: T.seedOk === false ? 'error' : 'muted' }, verdict, t('tournament.seed.audit', { cmd: 'skirmish-bots audit' }))));
}

/** An entrant's cell: "bot/strategy" and its version, as text. */
function entrantEl(e) {
  return [h('span', { class: 'entrant', 'data-entrant-name': entrantName(e) }, entrantName(e)),
    e && e.version ? h('small', { class: 'muted' }, ` v${e.version}`) : null];
}

/** Elo and its 95% interval, the interval on a line of its own in small type. */
function eloEl(line) {
  const r = (x) => (Number.isFinite(x) ? String(Math.round(x)) : '?');
  return [r(line.elo), ' ', h('small', { class: 'muted elo-range' }, `[${r(line.elo_low)}, ${r(line.elo_high)}]`)];
}

// A line's forfeits by cause: clock, dropped out, absent, engine failure (and any other reason of
// older records), with the total; the title spells them out.
function forfeitsCell(line) {
  const by = line.forfeits_by || {};
  const causes = [by.timed_out || 0, by.disconnected || 0, by.absent || 0, by.engine_failure || 0];
  const other = by.other || 0;
  const text = causes.join('/') + (other ? t('tournament.forfeits_other_short', { n: other }) : '');
  const title = t('tournament.forfeits_title', {
    count: line.forfeits, time: causes[0], dropped: causes[1], absent: causes[2], engine: causes[3], other,
  });
  return h('td', {
    class: 'num wide',
    'data-forfeits': line.forfeits,
    'data-forfeits-by': `${causes.join('/')}/${other}`,
    title,
  }, text);
}

function standingsCard(s, st) {
  if (!st) return h('div', { class: 'card' }, h('h2', {}, t('tournament.standings')), h('p', { class: 'empty' }, t('page.loading')));
  const places = s.config.game.game === 'plane' && s.config.game.players === 3;
  const duplicate = st.table.some((line) => (line.duplicate_boards || 0) > 0);
  // Columns a phone leaves out (class `wide`): the note under the table says what each means.
  const heads = [['rank'], ['entrant'], ['matches', 'wide'], ['wdl'], ['score'], ['points', 'wide'], ['average', 'wide'],
    places ? ['placings', 'wide'] : null, ['board_losses', 'wide'], ['forfeits', 'wide'],
    duplicate ? ['duplicate', 'wide'] : null, ['elo']].filter(Boolean);
  const rows = st.table.map((line) => h('tr', { 'data-rank': line.rank, 'data-entrant': line.entrant },
    h('td', { class: 'num' }, String(line.rank)),
    h('th', { scope: 'row' }, entrantEl(st.entrants[line.entrant])),
    h('td', { class: 'num wide', 'data-matches': line.matches }, String(line.matches)),
    h('td', { class: 'num', 'data-wdl': `${line.wins}/${line.draws}/${line.losses}` }, `${line.wins}/${line.draws}/${line.losses}`),
    h('td', { class: 'num strong', 'data-score': line.score }, num(line.score)),
    h('td', { class: 'num wide', 'data-points': line.points }, num(line.points)),
    h('td', { class: 'num wide' }, num(line.average_points)),
    places ? h('td', { class: 'num wide', 'data-placings': line.placings.join('/') }, line.placings.join('/')) : null,
    h('td', { class: 'num wide', 'data-board-losses': line.board_losses ?? '' }, String(line.board_losses ?? '?')),
    forfeitsCell(line),
    duplicate ? h('td', { class: 'num wide', 'data-duplicate': line.duplicate, title: t('tournament.duplicate_title') },
      `${line.duplicate >= 0 ? '+' : ''}${num(line.duplicate)} (${line.duplicate_boards})`) : null,
    h('td', { class: 'num', 'data-elo': Math.round(line.elo), title: t('tournament.elo_title') }, eloEl(line))));
  return h('div', { class: 'card t-standings' },
    h('h2', {}, t('tournament.standings')),
    h('div', { class: 'scroll' },
      h('table', { class: 'data standings', id: 'standings' },
        h('caption', { class: 'sr-only' }, t('tournament.standings_caption')),
        h('thead', {}, h('tr', {}, heads.map(([key, cls]) => h('th', { scope: 'col', class: cls || null, title: t(`tournament.col_title.${key}`) }, t(`tournament.col.${key}`))))),
        h('tbody', {}, rows))),
    h('p', { class: 'muted small' }, t('tournament.standings_note', { count: st.matches })));
}

function crosstableCard(st) {
  if (!st || st.entrants.length === 0) return null;
  const n = st.entrants.length;
  const head = h('tr', {}, h('th', { scope: 'col' }, t('tournament.col.entrant')),
    st.entrants.map((e, b) => h('th', { scope: 'col', title: entrantName(e) }, String(b + 1))));
  const rows = st.entrants.map((e, a) => h('tr', { 'data-cross-row': a },
    h('th', { scope: 'row' }, `${a + 1}. `, entrantEl(e)),
    Array.from({ length: n }, (_, b) => {
      if (a === b) return h('td', { class: 'num self', 'aria-label': t('tournament.itself') }, '—');
      const cell = (st.crosstable[a] || [])[b] || { games: 0, score: 0 };
      return h('td', { class: 'num', 'data-cross': `${a},${b}`, 'data-games': cell.games, 'data-score': cell.score,
        title: t('tournament.cross_title', { a: entrantName(e), b: entrantName(st.entrants[b]), score: num(cell.score), games: cell.games }) },
      cell.games ? `${num(cell.score)}/${cell.games}` : '·');
    })));
  return h('div', { class: 'card' },
    h('h2', {}, t('tournament.crosstable')),
    h('div', { class: 'scroll' },
      h('table', { class: 'data crosstable', id: 'crosstable' },
        h('caption', { class: 'sr-only' }, t('tournament.cross_caption')),
        h('thead', {}, head), h('tbody', {}, rows))),
    h('p', { class: 'muted small' }, t('tournament.cross_note')));
}

function matchesCard(s) {
  const swiss = s.config.format && s.config.format.kind === 'swiss';
  const game = s.config.game.game;
  const rows = s.schedule.map((m) => {
    const names = m.seats.map((e) => entrantName(s.entrants[e]));
    // A Swiss bye: one entrant sits the round out and scores a win; nothing was played.
    const bye = m.seats.length === 1;
    let result = '';
    if (bye) {
      result = [h('strong', {}, t('tournament.bye')), h('br'), h('small', {}, t('tournament.bye_note'))];
    } else if (m.result) {
      const [head, detail] = resultText(m.result, names, game);
      result = [h('strong', {}, head), h('br'), h('small', {}, detail)];
    }
    let link = null;
    if (m.sealed && m.state !== 'cancelled') {
      link = h('small', { class: 'muted', 'data-sealed': m.id, title: t('tournament.sealed_title') }, t('tournament.sealed'));
    } else if (m.state === 'running' && m.room) link = h('a', { href: `/room/${m.room}`, 'data-watch': m.id }, t('tournament.watch'));
    else if (m.state === 'finished' && !bye) link = h('a', { href: `/replay/${m.id}`, 'data-replay': m.id }, t('tournament.replay'));
    return h('tr', { 'data-match-id': m.id, 'data-state': m.state, 'data-index': m.index },
      h('td', { class: 'num' }, String(m.index + 1)),
      swiss ? h('td', { class: 'num' }, String(m.round + 1)) : null,
      h('td', {}, h('ol', { class: 'seats' }, names.map((name, seat) => h('li', { 'data-seat': seat },
        bye ? null : h('span', { class: 'muted' }, t('tournament.seat_of', { seat: seatLabel(game, seat) })), name)))),
      game === 'gomoku' ? h('td', {}, m.opening || '—') : h('td', { class: 'num', 'data-deal': m.deal ?? '' }, m.deal != null ? String(m.deal + 1) : '—'),
      h('td', {}, h('span', { class: `badge ${m.state === 'running' ? 'playing' : m.state === 'pending' ? 'waiting' : m.state === 'cancelled' ? 'off' : 'ok'}` }, t(`tournament.match_state.${m.state}`))),
      h('td', { 'data-result': m.result ? m.result.end : null }, result),
      h('td', {}, link));
  });
  const heads = ['#', swiss ? t('tournament.col.round') : null, t('tournament.col.seats'), game === 'gomoku' ? t('tournament.col.opening') : t('tournament.col.deal'),
    t('tournament.col.state'), t('tournament.col.result'), ''].filter((x) => x !== null);
  return h('div', { class: 'card' },
    h('h2', {}, t('tournament.matches', { n: s.schedule.length })),
    s.schedule.length
      ? h('div', { class: 'scroll' },
        h('table', { class: 'data matches', id: 'matches' },
          h('caption', { class: 'sr-only' }, t('tournament.matches_caption')),
          h('thead', {}, h('tr', {}, heads.map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody', {}, rows)))
      : h('p', { class: 'empty' }, t('tournament.no_matches')),
    h('p', { class: 'muted small' }, t('tournament.matches_note')));
}

translateStatic();
mountSwitch();
document.getElementById('rules-link').href = rulesHref();
load();
