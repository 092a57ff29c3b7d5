// Junqi's rules in the browser (docs/rules.md, junqi; the same rules as games/src/junqi): the board
// graph, pieces and layouts, and the legal destinations. No DOM: the page (junqi.js) and the tests
// use them.
import { t } from './i18n.js';

// ---------------------------------------------------------------- the board graph

export const ROW_LETTERS = 'ABCDEFGHIJKL';

/** Post kinds by row, A (top, seat 1's back row) to L: S road, R railway, C camp, H headquarters. */
const KINDS = ['SHSHS', 'RRRRR', 'RCSCR', 'RSCSR', 'RCSCR', 'RRRRR', 'RRRRR', 'RCSCR', 'RSCSR', 'RCSCR', 'RRRRR', 'SHSHS'];

export const POSTS = 60;

/** Post index 0..59 (row-major from A0) -> "G0". */
export function postName(i) {
  return ROW_LETTERS[Math.floor(i / 5)] + String(i % 5);
}

/** "G0" -> post index 0..59. */
export function postIndex(name) {
  return ROW_LETTERS.indexOf(name[0].toUpperCase()) * 5 + Number(name[1]);
}

/** 'S', 'R', 'C' or 'H' for a post index. */
export function kindOf(i) {
  return KINDS[Math.floor(i / 5)][i % 5];
}

/** The post as `seat` sees it: seat 1's frame is the board turned 180 degrees. */
export function inFrame(i, seat) {
  return seat === 1 ? POSTS - 1 - i : i;
}

/** Railway lines: rows B, F, G, K; columns 0 and 4 from B to K; the centre crossing F2-G2. */
function railwayLink(a, b) {
  const [ra, ca, rb] = [Math.floor(a / 5), a % 5, Math.floor(b / 5)];
  if (ra === rb) return [1, 5, 6, 10].includes(ra);
  const [top, bottom] = [Math.min(ra, rb), Math.max(ra, rb)];
  return ((ca === 0 || ca === 4) && top >= 1 && bottom <= 10) || (ca === 2 && top === 5 && bottom === 6);
}

/** The mountains cut F1-G1 and F3-G3. */
export function mountain(a, b) {
  const c = a % 5;
  return c === b % 5 && (c === 1 || c === 3) && Math.min(a, b) < 30 && Math.max(a, b) >= 30;
}

function buildLinks() {
  const links = [];
  const at = (r, c) => (r >= 0 && r < 12 && c >= 0 && c < 5 ? r * 5 + c : null);
  for (let a = 0; a < POSTS; a++) {
    const [r, c] = [Math.floor(a / 5), a % 5];
    for (const b of [at(r, c + 1), at(r + 1, c)]) {
      if (b != null && !mountain(a, b)) links.push({ a, b, diagonal: false, railway: railwayLink(a, b) });
    }
    for (const b of [at(r + 1, c - 1), at(r + 1, c + 1)]) {
      if (b != null && (kindOf(a) === 'C' || kindOf(b) === 'C')) links.push({ a, b, diagonal: true, railway: false });
    }
  }
  return links;
}

/** Every link of the board, each once: 133, 35 of them railway links (docs/rules.md's check figures). */
export const LINKS = buildLinks();

const NEIGHBOURS = Array.from({ length: POSTS }, () => []);
const RAILS = Array.from({ length: POSTS }, () => []);
for (const { a, b, railway } of LINKS) {
  NEIGHBOURS[a].push(b); NEIGHBOURS[b].push(a);
  if (railway) { RAILS[a].push(b); RAILS[b].push(a); }
}

/** The next post along a railway from `i` by (dr, dc), or null. */
function railwayStep(i, dr, dc) {
  const [r, c] = [Math.floor(i / 5) + dr, (i % 5) + dc];
  if (r < 0 || r > 11 || c < 0 || c > 4) return null;
  const j = r * 5 + c;
  return RAILS[i].includes(j) ? j : null;
}

// ---------------------------------------------------------------- pieces and layouts

/** [rank, CAAI letter, Chinese name, short English name, count], in CAAI order. */
export const RANKS = [
  ['field_marshal', 'a', '司令', 'Marshal', 1], ['general', 'b', '军长', 'General', 1],
  ['major_general', 'c', '师长', 'Maj. gen.', 2], ['brigadier', 'd', '旅长', 'Brigadier', 2],
  ['colonel', 'e', '团长', 'Colonel', 2], ['major', 'f', '营长', 'Major', 2],
  ['captain', 'g', '连长', 'Captain', 3], ['lieutenant', 'h', '排长', 'Lieutenant', 3],
  ['engineer', 'i', '工兵', 'Engineer', 3], ['landmine', 'j', '地雷', 'Landmine', 3],
  ['bomb', 'k', '炸弹', 'Bomb', 2], ['flag', 'l', '军旗', 'Flag', 1],
];
const BY_RANK = new Map(RANKS.map((r) => [r[0], r]));
const BY_LETTER = new Map(RANKS.map((r) => [r[1], r]));

/** The rank a CAAI letter stands for. */
export function rankOf(letter) {
  return BY_LETTER.get(letter)[0];
}

/** [Chinese, English] names of a rank. */
export function rankNames(rank) {
  const r = BY_RANK.get(rank);
  return [r[2], r[3]];
}

/** Whether a piece of this rank ever moves (not a flag nor a landmine). */
export function movable(rank) {
  return rank != null && rank !== 'flag' && rank !== 'landmine';
}

/** A layout's 25 posts in the owner's own frame, front row first, camps skipped (the CAAI order). */
export const LAYOUT_POSTS = ['G0', 'G1', 'G2', 'G3', 'G4', 'H0', 'H2', 'H4', 'I0', 'I1', 'I3', 'I4',
  'J0', 'J2', 'J4', 'K0', 'K1', 'K2', 'K3', 'K4', 'L0', 'L1', 'L2', 'L3', 'L4'];

/** The CAAI championship's example layout (flag at L3, landmines K4 L0 L4, bombs L1 L2). */
export const EXAMPLE_LAYOUT = 'abccddeeffggghhhiiijjkklj';

/** The absolute post index of a layout slot for `seat`. */
export function slotPost(slot, seat) {
  return inFrame(postIndex(LAYOUT_POSTS[slot]), seat);
}

/** A layout's pieces on the board for `seat`: [{post, owner, rank}], with ranks when `known`. */
export function layoutPieces(layout, seat, known = true) {
  return LAYOUT_POSTS.map((_, slot) => {
    const piece = { post: postName(slotPost(slot, seat)), owner: seat };
    if (known) piece.rank = rankOf(layout[slot]);
    return piece;
  });
}

/**
 * Every deployment rule a layout breaks (docs/rules.md, junqi, "Deployment"), as the engine checks
 * them (games/src/junqi/position.rs, `Layout::check`): [{code, message, slots}], empty when legal.
 */
export function layoutProblems(layout) {
  if (typeof layout !== 'string' || !/^[a-l]{25}$/.test(layout)) {
    return [{ code: 'layout_piece_count', message: t('layout.bad_string'), slots: [] }];
  }
  const problems = [];
  for (const [rank, letter, cn, , count] of RANKS) {
    const name = t(`rank.${rank}`) === cn ? cn : `${cn} ${t(`rank.${rank}`)}`;
    const found = [...layout].filter((l) => l === letter).length;
    if (found !== count) {
      problems.push({ code: 'layout_piece_count', message: t('layout.piece_count', { name, found, count }), slots: [] });
    }
  }
  const slotsOf = (letter, bad) => [...layout].map((l, s) => (l === letter && bad(s) ? s : -1)).filter((s) => s >= 0);
  const flag = slotsOf('l', (s) => s !== 21 && s !== 23);
  if (flag.length) problems.push({ code: 'flag_not_in_headquarters', slots: flag, message: t('layout.flag') });
  const mines = slotsOf('j', (s) => s < 15);
  if (mines.length) problems.push({ code: 'landmine_out_of_back_rows', slots: mines, message: t('layout.landmine') });
  const bombs = slotsOf('k', (s) => s < 5);
  if (bombs.length) problems.push({ code: 'bomb_in_front_row', slots: bombs, message: t('layout.bomb') });
  return problems;
}

/** A uniformly random legal layout: shuffles until the rules hold, as the engine does. */
export function randomLayout(random = Math.random) {
  for (;;) {
    const letters = [...EXAMPLE_LAYOUT];
    for (let i = letters.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [letters[i], letters[j]] = [letters[j], letters[i]];
    }
    const layout = letters.join('');
    if (!layoutProblems(layout).length) return layout;
  }
}

/** The layout with slots `a` and `b` swapped. */
export function swapSlots(layout, a, b) {
  const letters = [...layout];
  [letters[a], letters[b]] = [letters[b], letters[a]];
  return letters.join('');
}

// ---------------------------------------------------------------- legal destinations

/** The board as an array of 60: {owner, rank} (rank null when hidden) or null, from view pieces. */
export function boardOf(pieces) {
  const board = new Array(POSTS).fill(null);
  for (const p of pieces) board[postIndex(p.post)] = { owner: p.owner, rank: p.rank ?? null };
  return board;
}

/**
 * Every post (as names) the piece on `from` may move to or attack, as the engine's
 * `Position::destinations` decides (docs/rules.md, junqi, "Moves"): road steps, straight railway
 * runs through empty posts, an engineer's railway paths round corners; no move onto one's own
 * piece nor onto a piece in a camp; flags, landmines and pieces in a headquarters never move.
 * Only the mover's rank matters, so the board may hide the enemy's.
 */
export function destinations(board, from) {
  const i = typeof from === 'string' ? postIndex(from) : from;
  const piece = board[i];
  if (!piece || !movable(piece.rank) || kindOf(i) === 'H') return [];
  const out = new Set();
  const enterable = (to) => !board[to] || (board[to].owner !== piece.owner && kindOf(to) !== 'C');
  for (const to of NEIGHBOURS[i]) if (enterable(to)) out.add(to);
  if (kindOf(i) === 'R') {
    if (piece.rank === 'engineer') engineerRuns(board, i, piece.owner, out);
    else straightRuns(board, i, piece.owner, out);
  }
  return [...out].map(postName);
}

function straightRuns(board, from, owner, out) {
  for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
    for (let at = railwayStep(from, dr, dc); at != null; at = railwayStep(at, dr, dc)) {
      if (board[at] && board[at].owner === owner) break;
      out.add(at);
      if (board[at]) break;
    }
  }
}

/** Every empty railway post reachable through empty railway posts, and enemies next to such a path. */
function engineerRuns(board, from, owner, out) {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift();
    for (const next of RAILS[at]) {
      if (seen.has(next)) continue;
      seen.add(next);
      if (!board[next]) { out.add(next); queue.push(next); } else if (board[next].owner !== owner) out.add(next);
    }
  }
}

/** Every legal move of `seat` as [from, to] names. */
export function legalMoves(board, seat) {
  const moves = [];
  board.forEach((p, i) => {
    if (p && p.owner === seat) destinations(board, i).forEach((to) => moves.push([postName(i), to]));
  });
  return moves;
}
