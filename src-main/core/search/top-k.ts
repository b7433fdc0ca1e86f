/**
 * How many hits one search returns. Apart from query-text.ts, which loads the text analyzer and
 * its stop-word lists: `cairn search` checks --k before it knows whether a running instance answers
 * (docs/decisions/cli-startup.md).
 */

/**
 * The most hits one search returns. Past the first page each index channel ranks 4 chunks per
 * document asked for (channel-scope.ts DEEPEST_CHANNEL_DEPTH), not only the first page's 30.
 */
export const MAX_K = 50;

/** A requested top-K as a sane integer: default 10, at least 1, at most MAX_K. */
export function clampK(k: unknown, fallback = 10, max = MAX_K): number {
  if (typeof k !== 'number' || !Number.isFinite(k)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(k)));
}
