// The standing ladders' names and rating texts, shared by the lobby's list and the ladder page
// (/ladder/<id>). Plain ES module, no build.
import { t } from './i18n.js';

/** Every ladder id, in the order the server lists them (`LadderId::ALL`). */
export const LADDERS = ['gomoku-freestyle', 'gomoku-renju', 'plane-2', 'plane-3', 'junqi', 'tic-tac-toe'];

/** A ladder's name for people: "Gomoku, freestyle" / "五子棋·无禁手". */
export function ladderName(id) {
  switch (id) {
    case 'gomoku-freestyle': return t('ladder.name.gomoku_freestyle');
    case 'gomoku-renju': return t('ladder.name.gomoku_renju');
    case 'plane-2': return t('ladder.name.plane_2');
    case 'plane-3': return t('ladder.name.plane_3');
    case 'junqi': return t('ladder.name.junqi');
    case 'tic-tac-toe': return t('ladder.name.tic_tac_toe');
    default: return id;
  }
}

/** A rating with its deviation, rounded for the system's scale: "1623 ± 84", "27.4 ± 2.1". */
export function ratingText(rating, deviation, system) {
  const digits = system === 'weng_lin' ? 1 : 0;
  return `${rating.toFixed(digits)} ± ${deviation.toFixed(digits)}`;
}
