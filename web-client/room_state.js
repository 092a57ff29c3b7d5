// A room's state as the page keeps it: its snapshots, the games' events applied to its view, clock
// and event log, and the referee's commitments and reveals checked.
import * as G from './gomoku.js';
import { pageModule } from './games.js';
import { checkReveal, roundAudit } from './audit.js';
import * as J from './junqi.js';
import { hooks, S } from './state.js';
import { t } from './i18n.js';
import { botName } from './bot_levels.js';

// room_page.js draws the room and imports this module, so the call goes up through state.js's hooks.
const renderRoom = () => hooks.renderRoom();
// gameUi is room_page.js's, which imports this module: app.js sets hooks.gameUi.
const gameUi = (rs) => hooks.gameUi(rs);

// ---------------------------------------------------------------- room state

export function roomState(id) {
  let rs = S.roomStates.get(id);
  if (!rs) {
    rs = { id, summary: null, you: null, seq: 0, view: null, deadlineAt: null, lastShot: null,
      log: [], revealed: null, firing: false, placing: null, confirmResign: false, deploy: { planes: [], facing: 'up', hover: null, sent: false } };
    S.roomStates.set(id, rs);
  }
  return rs;
}

/**
 * The seat's name for people: its occupant's; a bot's by its level ("Bot (hard)"); "pool for Ann"
 * where a bot took a player's seat over.
 */
export function seatName(rs, seat) {
  const name = plainName(rs, seat);
  // Two bots of one level (or two people of one name) are told apart by their seats.
  const seats = (rs.summary && rs.summary.seats) || [];
  const twin = seats.some((s, i) => i !== seat && s.occupant && plainName(rs, i) === name);
  return twin ? t('seat.name_numbered', { name, n: seat + 1 }) : name;
}

/** The seat's name before twins are told apart (seatName). */
function plainName(rs, seat) {
  const occ = rs.summary && rs.summary.seats[seat] && rs.summary.seats[seat].occupant;
  if (!occ) return t('seat.n', { n: seat + 1 });
  if (occ.took_over_from != null) return t('seat.bot_for', { bot: occ.name, name: occ.took_over_from });
  return occ.bot != null ? botName(occ) : occ.name;
}

export function who(rs, seat) {
  return rs.you === seat ? t('seat.you') : seatName(rs, seat);
}

/**
 * Adds a line to the room's event log. `opts.public`: the line names a rank everyone may know (a
 * revealed junqi flag); `opts.mine`: it names ranks of the player's own pieces only; the page marks
 * either as such.
 */
export function logLine(rs, text, opts = {}) {
  rs.log.push(opts.public || opts.mine ? { text, public: Boolean(opts.public), mine: Boolean(opts.mine) } : text);
  if (rs.log.length > 300) rs.log.splice(0, rs.log.length - 300);
}

function phaseKey(view) {
  if (!view) return '';
  const p = view.phase;
  return `${view.round}/${p.phase}/${p.attacker ?? ''}`;
}

export function isGomoku(rs) {
  return Boolean(rs.view && rs.view.game === 'gomoku');
}

export function isJunqi(rs) {
  return Boolean(rs.view && rs.view.game === 'junqi');
}

/** A gomoku or junqi snapshot: the newer view wins; a change of turn drops the stale deadline. */
function turnSnapshot(rs, snap, turnKey) {
  const before = turnKey(rs.view);
  rs.summary = snap.room;
  rs.you = snap.you ?? null;
  if (snap.seq >= rs.seq || !rs.view) {
    rs.view = snap.view;
    rs.seq = snap.seq;
  }
  if (turnKey(rs.view) !== before) rs.deadlineAt = null;
}

export function onSnapshot(snap) {
  const rs = roomState(snap.room.id);
  rs.commitments = snap.commitments || [];
  replayHistory(rs, snap);
  viewSnapshot(rs, snap);
  // The server's clock, so a page opened mid-turn shows the time left at once.
  const left = snapshotDeadline(snap);
  if (left != null) rs.deadlineAt = Date.now() + left;
}

/**
 * The milliseconds left that the page's clock shows after a snapshot: the viewer's own turn's,
 * else the soonest of the seats to act; null when no seat's clock runs.
 */
function snapshotDeadline(snap) {
  const d = snap.deadlines_ms || [];
  if (snap.you != null && d[snap.you] != null) return d[snap.you];
  const running = d.filter((ms) => ms != null);
  return running.length ? Math.min(...running) : null;
}

/**
 * A page that has no event log yet (just opened or reloaded) writes it from the snapshot's history:
 * the events this viewer was sent, applied to a scratch copy of the room so only their log lines
 * are kept.
 */
function replayHistory(rs, snap) {
  if (rs.log.length || !snap.history || !snap.history.length) return;
  const scratch = {
    ...rs, view: JSON.parse(JSON.stringify(snap.view)), summary: JSON.parse(JSON.stringify(snap.room)),
    you: snap.you ?? null, junqi: undefined, deploy: { planes: [], facing: 'up', hover: null, sent: false },
  };
  for (const { event } of snap.history) applyEvent(scratch, event);
}

function viewSnapshot(rs, snap) {
  const mod = pageModule(snap.view.game);
  if (mod) { turnSnapshot(rs, snap, mod.turnKey); return; }
  if (snap.view.game === 'gomoku') { turnSnapshot(rs, snap, G.turnKey); return; }
  if (snap.view.game === 'junqi') { turnSnapshot(rs, snap, J.turnKey); return; }
  const before = phaseKey(rs.view);
  rs.summary = snap.room;
  rs.you = snap.you ?? null;
  if (snap.seq >= rs.seq || !rs.view) {
    if (rs.view && rs.view.round !== snap.view.round) rs.revealed = null;
    rs.view = snap.view;
    rs.seq = snap.seq;
  }
  if (phaseKey(rs.view) !== before) rs.deadlineAt = null;
  if (rs.you != null && rs.view.boards[rs.you] && rs.view.boards[rs.you].planes) rs.deploy.sent = true;
}

export function onEvent(msg) {
  const rs = roomState(msg.room);
  if (msg.seq <= rs.seq || !rs.view) return;
  rs.seq = msg.seq;
  applyEvent(rs, msg.event);
}

/** Applies one event to the room state `rs` (its view, clock and log). */
function applyEvent(rs, ev) {
  const v = rs.view;
  const clock = rs.summary ? rs.summary.config.clock || {} : {};
  const mod = pageModule(ev.game);
  if (mod) {
    if (v && v.game === ev.game) mod.applyEvent(rs, ev, clock, gameUi(rs));
    return;
  }
  if (ev.game === 'gomoku') {
    if (isGomoku(rs)) G.applyEvent(rs, ev, clock.move_ms || 0, gameUi(rs));
    return;
  }
  if (ev.game === 'junqi') {
    if (isJunqi(rs)) J.applyEvent(rs, ev, clock, gameUi(rs));
    return;
  }
  switch (ev.kind) {
    case 'round_started': {
      v.round = ev.round;
      v.extra = ev.extra;
      v.phase = { phase: 'deploy', ready: [] };
      v.boards.forEach((b) => {
        b.playing = ev.players.includes(b.seat);
        b.knocked_out = false; b.shots = []; b.downed = []; b.planes = null; b.points = 0;
      });
      rs.revealed = null;
      rs.lastShot = null;
      rs.lastShotText = null;
      rs.deploy = { planes: [], facing: rs.deploy.facing, hover: null, sent: false };
      rs.deadlineAt = clock.deploy_ms ? Date.now() + clock.deploy_ms : null;
      const label = ev.extra ? t('plane.extra_round') : t('plane.round', { n: ev.round + 1 });
      logLine(rs, t('plane.log.round_started', { label, first: who(rs, ev.first_attacker) }));
      break;
    }
    case 'ready':
      if (v.phase.phase === 'deploy' && !v.phase.ready.includes(ev.seat)) v.phase.ready.push(ev.seat);
      logLine(rs, ev.by_default
        ? t('plane.log.ready_by_default', { who: who(rs, ev.seat) })
        : rs.you === ev.seat ? t('plane.log.you_ready') : t('plane.log.ready', { who: who(rs, ev.seat) }));
      break;
    case 'deployment':
      v.boards[ev.seat].planes = ev.planes;
      rs.deploy.sent = true;
      break;
    case 'turn':
      v.phase = { phase: 'attack', attacker: ev.attacker };
      rs.deadlineAt = clock.move_ms ? Date.now() + clock.move_ms : null;
      rs.firing = false;
      rs.notice = null;
      break;
    case 'shot': {
      const b = v.boards[ev.target];
      b.shots.push({ by: ev.attacker, cell: ev.cell, result: ev.result });
      if (ev.plane) b.downed.push(ev.plane);
      if (ev.knocked_out) b.knocked_out = true;
      v.boards[ev.attacker].points += ev.points;
      v.totals[ev.attacker] += ev.points;
      rs.lastShot = { target: ev.target, cell: ev.cell };
      rs.firing = false;
      if (rs.recap && rs.recap.round !== v.round) rs.recap = null;
      rs.lastShotText = shotText(who(rs, ev.attacker), rs.you === ev.target ? t('seat.you_object') : seatName(rs, ev.target), ev);
      logLine(rs, rs.lastShotText);
      break;
    }
    case 'round_ended': {
      const r = ev.result;
      v.history.push(r);
      v.totals = ev.totals;
      v.round_wins[r.survivor] += 1;
      rs.revealed = r.deployments;
      rs.deadlineAt = null;
      // The round as it ended, every board revealed: shown beside the next round's deployment
      // until its first shot (plane_boards.js, recapPanel), which would otherwise replace it at once.
      rs.recap = {
        round: r.round, extra: r.extra, survivor: r.survivor, deployments: r.deployments,
        lastShot: rs.lastShot,
        boards: v.boards.map((b) => ({ ...b, shots: b.shots.slice(), downed: b.downed.slice() })),
      };
      const pts = r.points.map((p, s) => `${seatName(rs, s)} ${p}`).join(t('list.sep'));
      const label = r.extra ? t('plane.extra_round_short') : t('plane.round', { n: r.round + 1 });
      logLine(rs, t('plane.log.round_ended', { label, survivor: who(rs, r.survivor), points: pts }));
      break;
    }
    case 'match_ended': {
      const o = ev.outcome;
      v.outcome = o;
      v.phase = { phase: 'over' };
      rs.recap = null;
      v.totals = o.totals;
      v.round_wins = o.round_wins;
      rs.deadlineAt = null;
      if (rs.summary) rs.summary.status = 'finished';
      logLine(rs, t('plane.log.match_ended', { winner: who(rs, o.winner), count: o.totals[o.winner] }));
      break;
    }
    default:
      break;
  }
}

export function onCommitment(msg) {
  const rs = roomState(msg.room);
  rs.commitments = rs.commitments || [];
  if (rs.commitments.some((c) => c.seat === msg.seat && c.round === msg.round)) return;
  rs.commitments.push({ seat: msg.seat, round: msg.round, sha256: msg.sha256 });
  const entry = roundAudit(rs, msg.round, auditLabel(rs, msg.round));
  entry.committed += 1;
  entry.details.push(t('audit.detail_sealed', { who: seatName(rs, msg.seat), digest: `${msg.sha256.slice(0, 12)}…` }));
}

/** What a round's audit line is about: a plane battle round, or junqi's two layouts. */
function auditLabel(rs, round) {
  return isJunqi(rs) ? t('audit.layouts') : t('plane.round', { n: round + 1 });
}

/** The deployment the game itself revealed for `seat` in `round`, if it has. */
function gameRevealed(rs, seat, round) {
  const v = rs.view;
  if (!v) return undefined;
  if (v.game === 'junqi') return v.outcome ? v.outcome.layouts[seat] ?? undefined : undefined;
  const r = (v.history || []).find((h) => h.round === round);
  return r ? r.deployments[seat] : undefined;
}

/** Checks a reveal against its commitment and the game's own reveal, and says so in the log. */
export async function onReveal(msg) {
  const rs = roomState(msg.room);
  const check = await checkReveal(rs.commitments || [], msg, gameRevealed(rs, msg.seat, msg.round));
  rs.audit = rs.audit || { verified: 0, failed: 0 };
  const whose = t('audit.whose', { who: seatName(rs, msg.seat) });
  const entry = roundAudit(rs, msg.round, auditLabel(rs, msg.round));
  if (check.ok) {
    rs.audit.verified += 1;
    entry.verified += 1;
    entry.details.push(t('audit.detail_ok', { whose }));
  } else if (check.ok === null) {
    entry.details.push(t('audit.detail_unchecked', { whose, why: check.why }));
  } else {
    rs.audit.failed += 1;
    logLine(rs, t('audit.failed', { whose, why: check.why }));
  }
  if (S.page === 'room') renderRoom();
}

/**
 * A plane battle shot in words: "Ann fired at Bob E5: hit — plane shot down (+1)". `by` and `at`
 * name the attacker and the target; `ev` is the `shot` event. The replay page says shots this way too.
 */
export function shotText(by, at, ev) {
  const parts = [t('plane.log.shot', { by, at, cell: ev.cell, result: t(`plane.result.${ev.result}`) })];
  if (ev.result === 'down') parts.push(ev.knocked_out ? t('plane.log.knocked_out') : t('plane.log.shot_down'));
  if (ev.points) parts.push(t('plane.log.points', { n: ev.points }));
  if (ev.by_default) parts.push(t('plane.log.random_shot'));
  return parts.join('');
}

export function onYourTurn(msg) {
  const rs = roomState(msg.room);
  if (msg.view) rs.view = msg.view;
  rs.you = rs.you ?? msg.seat;
  rs.deadlineAt = msg.deadline_ms != null ? Date.now() + msg.deadline_ms : null;
  rs.firing = false;
  rs.placing = null;
}
