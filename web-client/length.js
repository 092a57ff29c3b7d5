// Plane battle's named match formats for the create-room form, and how long a match takes.
import { t } from './i18n.js';

/** The format the create form starts with: the shortest, for a first game. */
export const SHORTEST = 'quick';

/** The named formats: [name, rounds, label]. Full is the seed's format and the tournaments' default. */
export const FORMATS = [
  ['full', 18, t('length.full')],
  ['short', 6, t('length.short')],
  ['quick', 3, t('length.quick')],
];

/**
 * Minutes one round takes between people, low and high: a 3-player `double` match of 18 rounds
 * took 35 to 45 minutes when people played it (issue 18).
 */
const ROUND_MINUTES = [35 / 18, 45 / 18];

/** The format named for `rounds`, or 'custom'. */
export function formatOf(rounds) {
  const f = FORMATS.find(([, n]) => n === rounds);
  return f ? f[0] : 'custom';
}

/** The rounds of format `name`, or null for 'custom'. */
export function roundsOf(name) {
  const f = FORMATS.find(([n]) => n === name);
  return f ? f[1] : null;
}

/**
 * About how many minutes a match of `rounds` takes between people, as [low, high]. Scaled from
 * the measured 3-player `double` match: a round has one opponent board per other player to shoot
 * down (so 2 players take half), and `classic` has one plane on 7×7 instead of two on 9×9 (half
 * again). An estimate: bots play much faster, and ties add extra rounds.
 */
export function expectedMinutes(rounds, players, variant) {
  const scale = ((players - 1) / 2) * (variant === 'classic' ? 0.5 : 1);
  const [lo, hi] = ROUND_MINUTES.map((m) => m * rounds * scale);
  return [Math.max(1, Math.floor(lo)), Math.max(1, Math.ceil(hi))];
}

/** The create form's line about the match length, e.g. "About 35–45 min between people." */
export function lengthText(rounds, players, variant) {
  if (!Number.isInteger(rounds) || rounds < 1) return t('length.none_chosen');
  const [lo, hi] = expectedMinutes(rounds, players, variant);
  const span = lo === hi ? `${lo}` : `${lo}–${hi}`;
  return t('length.about', { span });
}
