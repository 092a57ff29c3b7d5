// One tournament's page (/tournament/<id>): its settings, live standings with Elo intervals, the
// crosstable and every match, with links to watch the running ones and replay the finished ones.
// The seed is secret while the tournament runs: the page shows the commitment to it, and once the
// tournament is over the seed and salt, checking in the browser that they open the commitment
// (`skirmish-bots audit` checks every dealt board against them too). A match whose deal is still
// being played at another table is sealed: no Watch link until the deal is over everywhere.
// It polls GET /api/tournaments/<id> and /standings while the tournament runs, and stops once it is
// over. Plain ES module, no build.
import { sha256Hex } from './audit.js';
import { translateStatic, mountSwitch, rulesHref } from './i18n.js';
import { h, getJson, idFromPath, entrantName, num, seconds, seatLabel, gameText, resultText, plural } from './dom.js';

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
  poll.textContent = T.error ? 'cannot reach the server: retrying…' : T.polling ? 'live' : 'final';
  if (T.error && T.error.status === 404) poll.textContent = 'not found';
  if (!T.status) {
    main.replaceChildren(h('section', { id: 'tournament', class: 'card', 'data-state': 'loading' },
      h('h1', {}, 'Tournament'),
      h('p', {}, T.error ? `This tournament cannot be shown: ${T.error.message}` : 'Loading…'),
      h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))));
    return;
  }
  const s = T.status;
  const focused = document.activeElement && document.activeElement.id;
  document.title = `${s.name} · Skirmish tournament`;
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

const STATE_TEXT = { running: 'running', finished: 'finished', cancelled: 'cancelled' };

function header(s) {
  const pct = s.total ? Math.round((100 * s.finished) / s.total) : 0;
  return h('div', { class: 'card t-head' },
    h('h1', { id: 't-name' }, s.name),
    h('p', { class: 'muted' }, h('span', { id: 't-game' }, gameText(s.config.game)),
      h('span', { class: `badge ${s.state === 'running' ? 'playing' : s.state === 'cancelled' ? 'off' : 'ok'}`, id: 't-state', 'data-state': s.state },
        STATE_TEXT[s.state] || s.state)),
    h('p', { id: 't-progress', 'data-finished': s.finished, 'data-total': s.total, 'data-running': s.running },
      `${s.finished}/${s.total} matches finished`, s.running ? ` · ${s.running} running` : '',
      s.matches < s.total ? ` · ${s.matches} scheduled so far` : ''),
    h('progress', { max: s.total || 1, value: s.finished, 'aria-labelledby': 't-progress' }, `${pct}%`));
}

function formatText(f) {
  if (!f || f.kind === 'round_robin') return 'round robin';
  return `Swiss, ${f.rounds != null ? plural(f.rounds, 'round') : 'rounds by the entrant count'}`;
}

function settingsCard(s) {
  const c = s.config;
  const clock = c.clock || {};
  const kind = c.game.game;
  const rows = [
    ['Format', formatText(c.format)],
    ['Games per pairing', `${c.games_per_pairing} set${c.games_per_pairing === 1 ? '' : 's'}`],
    ['Clock', `deploy ${seconds(clock.deploy_ms)} · move ${seconds(clock.move_ms)} · game ${seconds(clock.game_ms)}`],
    ['Duplicate', dealingText(kind, s.dealing)],
    kind === 'gomoku' ? ['Openings', (c.openings || []).length ? c.openings.join(', ') : 'none: the empty board'] : null,
    ['Matches at once', String(c.parallel)],
    ['Grace', seconds(c.grace_ms)],
    ['Seed', seedEl(s.seed)],
    ['Created', new Date(s.created_ms).toLocaleString()],
  ].filter(Boolean);
  return h('div', { class: 'card t-settings' },
    h('h2', {}, 'Settings'),
    h('dl', { id: 't-settings' }, rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', { 'data-setting': k.toLowerCase() }, v)])));
}

function dealingText(kind, d) {
  if (kind === 'gomoku') return 'not used (gomoku hides nothing)';
  if (!d || d.kind === 'own') return 'off: every entrant deploys its own';
  if (d.kind === 'duplicate') return `on: each deal is played at up to ${plural(d.tables, 'table')} by different entrants, never twice by one`;
  return `not possible: ${d.why}`;
}

/** The seed: its commitment while the tournament runs; the seed, the salt and the check after. */
function seedEl(c) {
  if (!c) return '—';
  const commitment = h('code', { id: 't-seed-commitment', class: 'small' }, c.sha256);
  if (T.seed === null) {
    return h('span', { id: 't-seed', 'data-seed': 'hidden' }, 'secret until the end; SHA-256 commitment ', commitment);
  }
  const verdict = T.seedOk === true ? 'opens the commitment' : T.seedOk === false ? 'does NOT open the commitment'
    : 'this browser cannot check it (SHA-256 needs https or localhost)';
  return h('span', { id: 't-seed', 'data-seed': T.seed, 'data-seed-ok': String(T.seedOk) },
    h('strong', {}, T.seed), ' · salt ', h('code', { class: 'small' }, c.salt), ' · commitment ', commitment,
    h('br'), h('small', { class: T.seedOk === false ? 'error' : 'muted' }, verdict,
      '; `skirmish-bots audit` checks every dealt board against it'));
}

/** An entrant's cell: "bot/strategy" and its version, as text. */
function entrantEl(e) {
  return [h('span', { class: 'entrant', 'data-entrant-name': entrantName(e) }, entrantName(e)),
    e && e.version ? h('small', { class: 'muted' }, ` v${e.version}`) : null];
}

function eloText(line) {
  const r = (x) => (Number.isFinite(x) ? String(Math.round(x)) : '?');
  return `${r(line.elo)} [${r(line.elo_low)}, ${r(line.elo_high)}]`;
}

// A line's forfeits by cause: clock, dropped out, absent, engine failure (and any other reason of
// older records), with the total; the title spells them out.
function forfeitsCell(line) {
  const by = line.forfeits_by || {};
  const causes = [by.timed_out || 0, by.disconnected || 0, by.absent || 0, by.engine_failure || 0];
  const other = by.other || 0;
  const text = causes.join(' / ') + (other ? ` (+${other} other)` : '');
  const title = `${line.forfeits} forfeit${line.forfeits === 1 ? '' : 's'}: ${causes[0]} on time, ${causes[1]} dropped out, ${causes[2]} absent, ${causes[3]} engine failure${other ? `, ${other} other` : ''}`;
  return h('td', {
    class: 'num',
    'data-forfeits': line.forfeits,
    'data-forfeits-by': `${causes.join('/')}/${other}`,
    title,
  }, text);
}

function standingsCard(s, st) {
  if (!st) return h('div', { class: 'card' }, h('h2', {}, 'Standings'), h('p', { class: 'empty' }, 'Loading…'));
  const places = s.config.game.game === 'plane' && s.config.game.players === 3;
  const duplicate = st.table.some((line) => (line.duplicate_boards || 0) > 0);
  const heads = ['Rank', 'Entrant', 'Matches', 'W/D/L', 'Score', 'Points', 'Avg points',
    places ? 'Placings 1st/2nd/3rd' : null, 'Lost on board', 'Forfeits: time / dropped / absent / engine',
    duplicate ? 'Duplicate ± (seats)' : null, 'Elo [95%]'].filter(Boolean);
  const rows = st.table.map((line) => h('tr', { 'data-rank': line.rank, 'data-entrant': line.entrant },
    h('td', { class: 'num' }, String(line.rank)),
    h('th', { scope: 'row' }, entrantEl(st.entrants[line.entrant])),
    h('td', { class: 'num', 'data-matches': line.matches }, String(line.matches)),
    h('td', { class: 'num', 'data-wdl': `${line.wins}/${line.draws}/${line.losses}` }, `${line.wins}/${line.draws}/${line.losses}`),
    h('td', { class: 'num strong', 'data-score': line.score }, num(line.score)),
    h('td', { class: 'num', 'data-points': line.points }, num(line.points)),
    h('td', { class: 'num' }, num(line.average_points)),
    places ? h('td', { class: 'num', 'data-placings': line.placings.join('/') }, line.placings.join(' / ')) : null,
    h('td', { class: 'num', 'data-board-losses': line.board_losses ?? '' }, String(line.board_losses ?? '?')),
    forfeitsCell(line),
    duplicate ? h('td', { class: 'num', 'data-duplicate': line.duplicate, title: 'points over the other tables that played the same deal, seat by seat' },
      `${line.duplicate >= 0 ? '+' : ''}${num(line.duplicate)} (${line.duplicate_boards})`) : null,
    h('td', { class: 'num', 'data-elo': Math.round(line.elo), title: '95% interval in brackets' }, eloText(line))));
  return h('div', { class: 'card t-standings' },
    h('h2', {}, 'Standings'),
    h('div', { class: 'scroll' },
      h('table', { class: 'data', id: 'standings' },
        h('caption', { class: 'sr-only' }, 'Standings, best first'),
        h('thead', {}, h('tr', {}, heads.map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows))),
    h('p', { class: 'muted small' },
      `From ${st.matches} finished match${st.matches === 1 ? '' : 'es'}. Score: wins plus half the draws. Losses on the board are apart from forfeits, counted by cause: a clock that ran out, a bot that dropped out past the grace period, an entrant absent when its match was due, an engine that failed (crashed, hung, or answered something illegal). Duplicate: in each seat of a deal played at several tables, the points made less the mean of the same seat at the deal's other tables, summed (as duplicate bridge scores a board). Elo: a Bradley-Terry fit of every pairwise result, mean 1500, with its 95% interval.`));
}

function crosstableCard(st) {
  if (!st || st.entrants.length === 0) return null;
  const n = st.entrants.length;
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Entrant'),
    st.entrants.map((e, b) => h('th', { scope: 'col', title: entrantName(e) }, String(b + 1))));
  const rows = st.entrants.map((e, a) => h('tr', { 'data-cross-row': a },
    h('th', { scope: 'row' }, `${a + 1}. `, entrantEl(e)),
    Array.from({ length: n }, (_, b) => {
      if (a === b) return h('td', { class: 'num self', 'aria-label': 'itself' }, '—');
      const cell = (st.crosstable[a] || [])[b] || { games: 0, score: 0 };
      return h('td', { class: 'num', 'data-cross': `${a},${b}`, 'data-games': cell.games, 'data-score': cell.score,
        title: `${entrantName(e)} against ${entrantName(st.entrants[b])}: ${num(cell.score)} of ${cell.games}` },
      cell.games ? `${num(cell.score)}/${cell.games}` : '·');
    })));
  return h('div', { class: 'card' },
    h('h2', {}, 'Crosstable'),
    h('div', { class: 'scroll' },
      h('table', { class: 'data crosstable', id: 'crosstable' },
        h('caption', { class: 'sr-only' }, 'How each entrant (row) did against each other (column): score / games'),
        h('thead', {}, head), h('tbody', {}, rows))),
    h('p', { class: 'muted small' }, 'Row against column: score / pairwise games (a 3-player match counts once for each pair in it).'));
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
      result = [h('strong', {}, 'Bye'), h('br'), h('small', {}, 'sits this round out; counts as a win')];
    } else if (m.result) {
      const [head, detail] = resultText(m.result, names, game);
      result = [h('strong', {}, head), h('br'), h('small', {}, detail)];
    }
    let link = null;
    if (m.sealed && m.state !== 'cancelled') {
      link = h('small', { class: 'muted', 'data-sealed': m.id, title: 'the same deal is still being played at another table' },
        'sealed until the deal is over');
    } else if (m.state === 'running' && m.room) link = h('a', { href: `/room/${m.room}`, 'data-watch': m.id }, 'Watch');
    else if (m.state === 'finished' && !bye) link = h('a', { href: `/replay/${m.id}`, 'data-replay': m.id }, 'Replay');
    return h('tr', { 'data-match-id': m.id, 'data-state': m.state, 'data-index': m.index },
      h('td', { class: 'num' }, String(m.index + 1)),
      swiss ? h('td', { class: 'num' }, String(m.round + 1)) : null,
      h('td', {}, h('ol', { class: 'seats' }, names.map((name, seat) => h('li', { 'data-seat': seat },
        bye ? null : h('span', { class: 'muted' }, `${seatLabel(game, seat)}: `), name)))),
      game === 'gomoku' ? h('td', {}, m.opening || '—') : h('td', { class: 'num', 'data-deal': m.deal ?? '' }, m.deal != null ? String(m.deal + 1) : '—'),
      h('td', {}, h('span', { class: `badge ${m.state === 'running' ? 'playing' : m.state === 'pending' ? 'waiting' : m.state === 'cancelled' ? 'off' : 'ok'}` }, m.state)),
      h('td', { 'data-result': m.result ? m.result.end : null }, result),
      h('td', {}, link));
  });
  const heads = ['#', swiss ? 'Round' : null, 'Seats', game === 'gomoku' ? 'Opening' : 'Deal', 'State', 'Result', ''].filter((x) => x !== null);
  return h('div', { class: 'card' },
    h('h2', {}, `Matches (${s.schedule.length})`),
    s.schedule.length
      ? h('div', { class: 'scroll' },
        h('table', { class: 'data matches', id: 'matches' },
          h('caption', { class: 'sr-only' }, 'Every match in schedule order'),
          h('thead', {}, h('tr', {}, heads.map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows)))
      : h('p', { class: 'empty' }, 'No match scheduled yet.'),
    h('p', { class: 'muted small' }, 'Running matches can be watched live; finished ones replayed move by move. Matches with the same deal are dealt the same boards; while a deal is still being played at one of its tables, none of them can be watched or replayed.'));
}

translateStatic();
mountSwitch();
document.getElementById('rules-link').href = rulesHref();
load();
