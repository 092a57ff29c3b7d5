// Bots by level: what people call a bot (简单 / 中等 / 困难, "Bot (hard)"), and the detail (its
// strategy and thinking budget). The server decides what each level plays; LEVEL_PLAY repeats its
// table (server/src/lobby/levels.rs) for the detail shown before a bot is added.
import { t } from './i18n.js';

/** The levels, weakest first, as the protocol writes them. */
export const LEVELS = ['easy', 'medium', 'hard'];

/** The level a person gets unless they choose: a fair first game. */
export const DEFAULT_LEVEL = 'medium';

/** Each game's levels as the server plays them: [strategy, milliseconds to think a move or null]. */
const LEVEL_PLAY = {
  plane: { easy: ['random', null], medium: ['seed-cv', null], hard: ['points', null] },
  gomoku: { easy: ['pattern-search-easy', 1000], medium: ['pattern-search-medium', 1000], hard: ['pattern-search', 1000] },
  junqi: { easy: ['random', null], medium: ['seed-rules', null], hard: ['belief-search', 1000] },
  tic_tac_toe: { easy: ['random', null], medium: ['seed-junior', null], hard: ['seed-rules', null] },
};

/** A level's name for people ("Hard", "困难"). */
export function levelName(level) {
  return t(`bots.level.${level}`);
}

/** What people call a seated bot: by its level ("Bot (hard)"), or "Bot" for one added by strategy. */
export function botName(occ) {
  return occ.level ? t('bots.named', { level: levelName(occ.level) }) : t('bots.unnamed');
}

/** The detail of `game`'s `level`: its strategy, and its budget when it has one. */
export function levelDetail(game, level) {
  const play = LEVEL_PLAY[game] && LEVEL_PLAY[game][level];
  if (!play) return '';
  const [strategy, ms] = play;
  return ms == null ? strategy : t('bots.detail_budget', { strategy, seconds: ms / 1000 });
}
