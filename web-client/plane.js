// Plane battle geometry (docs/rules.md, plane battle): cells, placements, legality, random deployments.

/** Offsets (row, col) from the head of a plane facing up. */
const UP = [
  [0, 0], // head
  [1, -2], [1, -1], [1, 0], [1, 1], [1, 2], // wings
  [2, 0], // body
  [3, -1], [3, 0], [3, 1], // tail
];

export const FACINGS = ['up', 'right', 'down', 'left'];

export function sideOf(variant) {
  return variant === 'classic' ? 7 : 9;
}

export function planesOf(variant) {
  return variant === 'classic' ? 1 : 2;
}

/** "E5" -> [4, 4]. */
export function parseCell(name) {
  return [parseInt(name.slice(1), 10) - 1, name.charCodeAt(0) - 65];
}

/** [4, 4] -> "E5". */
export function cellName(row, col) {
  return String.fromCharCode(65 + col) + String(row + 1);
}

function rotate([dr, dc], facing) {
  switch (facing) {
    case 'right': return [dc, -dr];
    case 'down': return [-dr, -dc];
    case 'left': return [-dc, dr];
    default: return [dr, dc];
  }
}

export function nextFacing(facing) {
  return FACINGS[(FACINGS.indexOf(facing) + 1) % 4];
}

/** The 10 cells of a placement as [row, col] pairs, head first (may be off the board). */
export function planeCells(placement) {
  const [hr, hc] = parseCell(placement.head);
  return UP.map((o) => {
    const [dr, dc] = rotate(o, placement.facing);
    return [hr + dr, hc + dc];
  });
}

export function onBoard(placement, side) {
  return planeCells(placement).every(([r, c]) => r >= 0 && c >= 0 && r < side && c < side);
}

/** Why a placement cannot join `others` on a board of `side`, or null when it can. */
export function placementProblem(placement, others, side) {
  if (!onBoard(placement, side)) return 'off the board';
  const taken = new Set(others.flatMap((p) => planeCells(p).map(([r, c]) => `${r},${c}`)));
  if (planeCells(placement).some(([r, c]) => taken.has(`${r},${c}`))) return 'overlaps a plane';
  return null;
}

/** A uniformly random legal deployment of `count` planes. */
export function randomDeployment(side, count) {
  for (;;) {
    const planes = [];
    for (let tries = 0; planes.length < count && tries < 500; tries++) {
      const p = {
        head: cellName(Math.floor(Math.random() * side), Math.floor(Math.random() * side)),
        facing: FACINGS[Math.floor(Math.random() * 4)],
      };
      if (!placementProblem(p, planes, side)) planes.push(p);
    }
    if (planes.length === count) return planes;
  }
}

/** The arrow drawn on a plane's head: where its nose points. */
export const HEAD_ARROWS = { up: '▲', right: '▶', down: '▼', left: '◀' };

/**
 * The first facing, trying `from` and then each quarter turn clockwise, at which a plane with its
 * head on `head` can join `others` on a board of `side`; null when none can.
 */
export function fittingFacing(head, from, others, side) {
  let facing = from;
  for (let i = 0; i < 4; i++, facing = nextFacing(facing)) {
    if (!placementProblem({ head, facing }, others, side)) return facing;
  }
  return null;
}

/** Map "r,c" -> {plane index, head, facing} for a list of placements. */
export function cellMap(placements) {
  const map = new Map();
  (placements || []).forEach((p, i) => {
    planeCells(p).forEach(([r, c], k) => map.set(`${r},${c}`, { plane: i, head: k === 0, facing: p.facing }));
  });
  return map;
}
