// Commit and reveal, checked in the browser (protocol/README.md, "Commit and reveal").
//
// The server commits to every secret deployment with the SHA-256 of `salt + ":" + deployment` as
// soon as it is fixed, and opens the commitment once the game has revealed the deployment. This
// module checks each opening: the digest must match the commitment, and the deployment must be
// the one the game revealed (a plane battle round's planes, a junqi game's layouts). SHA-256 is the
// browser's own (Web Crypto), which browsers offer on https and on localhost only.
import { t } from './i18n.js';

/** Lowercase hex SHA-256 of `text` (UTF-8), or null where the browser offers no Web Crypto. */
export async function sha256Hex(text) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const bytes = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Checks `reveal` ({seat, round, deployment, salt}) against the `commitments` seen so far and the
 * deployment the game itself revealed (`revealed`: a list of planes, or a junqi layout string;
 * undefined when the game has not shown it). Resolves to {ok: true} or {ok: false, why}, or to
 * {ok: null, why} when this browser cannot compute SHA-256.
 */
export async function checkReveal(commitments, reveal, revealed) {
  const commitment = commitments.find((c) => c.seat === reveal.seat && c.round === reveal.round);
  if (!commitment) return { ok: false, why: t('audit.never_sealed') };
  const digest = await sha256Hex(`${reveal.salt}:${reveal.deployment}`);
  if (digest === null) return { ok: null, why: t('audit.no_sha') };
  if (digest !== commitment.sha256) return { ok: false, why: t('audit.mismatch') };
  if (revealed === undefined) return { ok: false, why: t('audit.not_revealed') };
  const same = typeof revealed === 'string'
    ? revealed === reveal.deployment
    : sameJson(parseOrNull(reveal.deployment), revealed);
  if (!same) return { ok: false, why: t('audit.not_same') };
  return { ok: true };
}

function parseOrNull(text) {
  try { return JSON.parse(text); } catch { return null; }
}

function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The event log's one line per round about the referee's commitments (issue 18: six lines a round
 * buried the shots): created at the round's first commitment in `log`, and updated as the reveals
 * are checked. Details (each commitment and each check) are shown on demand.
 */
export function roundAudit(rs, round, label) {
  rs.auditLines = rs.auditLines || new Map();
  let entry = rs.auditLines.get(round);
  if (!entry) {
    entry = { audit: round, label, committed: 0, verified: 0, details: [] };
    rs.auditLines.set(round, entry);
    rs.log.push(entry);
  }
  return entry;
}

/** The summary line of a round's audit entry. */
export function auditText(entry) {
  const all = entry.verified > 0 && entry.verified === entry.committed;
  const sealed = t('audit.sealed', { count: entry.committed });
  const checked = entry.verified ? t('audit.checked', { count: entry.verified }) : '';
  return t('audit.line', { mark: all ? '✓' : '·', label: entry.label, sealed, checked });
}
