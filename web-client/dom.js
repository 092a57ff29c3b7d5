// Small helpers shared by the tournament and replay pages: building elements (text always goes in
// as text nodes, never as HTML, so a bot named `<img ...>` shows literally), reading the JSON API,
// and naming entrants and results.
import { t, has } from './i18n.js';

/** Builds an element: h('button', {class: 'x', onclick}, 'text', child); text always as text. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'value') el.value = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An API refusal: the HTTP status and the API's `{code, message}`. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * GETs `url` and returns [parsed JSON, the raw text] (the text keeps numbers JSON cannot hold
 * exactly in JavaScript, such as a 64-bit seed). Throws an ApiError for a refusal.
 */
export async function getJson(url) {
  const response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  const text = await response.text();
  let body = null;
  try { body = JSON.parse(text); } catch { body = null; }
  if (!response.ok) {
    throw new ApiError(response.status, body && body.code, (body && body.message) || `${response.status} ${response.statusText}`);
  }
  return [body, text];
}

/** The id at the end of this page's path (`/tournament/<id>`, `/replay/<id>`), lower-cased. */
export function idFromPath() {
  const parts = location.pathname.split('/').filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || '').toLowerCase();
}

/** "pool/random": the bot's name and its strategy. */
export function entrantName(e) {
  return e ? `${e.bot}/${e.strategy}` : '?';
}

/** A place in words: 1st, 2nd (第1名). */
function ordinal(n) {
  return t('place', { count: n, ordinal: true });
}

/** A score or a sum of points: whole numbers as they are, others to two decimals at most. */
export function num(x) {
  if (x == null || !Number.isFinite(x)) return '—';
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}

/** The seat's label in a game: black/white, red/blue, or "seat n", in the page's language. */
export function seatLabel(game, seat) {
  const colour = { gomoku: ['black', 'white'], junqi: ['red', 'blue'] }[game];
  return colour && colour[seat] ? t(`colour.${colour[seat]}`) : t('seat.n', { n: seat + 1 });
}

/** A game's config in one line (no clock), in the page's language. */
export function gameText(g) {
  if (!g) return '';
  if (g.game === 'gomoku') {
    const opening = typeof g.opening === 'string' ? t('match.opening', { name: has(`opening.${g.opening}`) ? t(`opening.${g.opening}`) : g.opening }) : '';
    return t('match.gomoku', { size: g.size, rule: t(`gomoku.rule.${g.rule}`), opening });
  }
  if (g.game === 'junqi') {
    return g.no_attack_limit ? t('match.junqi_limit', { n: g.no_attack_limit }) : t('match.junqi_no_limit');
  }
  const f = g.format || {};
  const format = f.rounds != null ? t('plane.rounds', { count: f.rounds }) : f.first_to != null ? t('plane.first_to', { n: f.first_to }) : '';
  return [t('tournament.game.plane'), t(`plane.variant.${g.variant}`), t('match.players', { count: g.players }), format]
    .filter(Boolean).join(' · ');
}

/** How a match ended, in words: `five` -> "five in a row", `flag_captured` -> "flag captured". */
export function endText(end) {
  return has(`end.${end}`) ? t(`end.${end}`) : String(end || '').replace(/_/g, ' ');
}

/**
 * A match result in words: [headline, detail]. `names[seat]` names each seat's entrant.
 * Headline: who won (or the placings, or a draw); detail: each seat's points in the placings'
 * order, how it ended, a forfeit.
 */
export function resultText(result, names, game) {
  const seats = result.placings.map((p, s) => ({ p, s })).sort((a, b) => a.p - b.p || a.s - b.s);
  const firsts = seats.filter((x) => x.p === 1);
  let head;
  if (seats.length > 2) head = seats.map(({ p, s }) => t('match.placing', { place: ordinal(p), who: names[s] })).join(t('list.sep'));
  else if (firsts.length > 1) head = t('match.draw');
  else head = t('match.won', { who: names[firsts[0].s], seat: seatLabel(game, firsts[0].s) });
  // The points in the placings' order, each under its name: places and points read alike.
  const points = seats.map(({ s }) => t('match.points_of', { who: names[s], n: num(result.points[s]) })).join(t('list.sep'));
  const parts = [points, t('match.end', { end: endText(result.end) })];
  if (result.forfeit) {
    const reason = has(`forfeit.${result.forfeit.reason}`) ? t(`forfeit.${result.forfeit.reason}`) : endText(result.forfeit.reason);
    parts.push(t('match.forfeited', { who: names[result.forfeit.seat], reason }));
  }
  return [head, parts.join(' · ')];
}
