/**
 * A diagnostic for the hybrid goal: the app's weighted RRF (src-main/core/search/rrf.ts,
 * score(d) = Σ w_c / (k + rank_c(d))) with the vector weight chosen on a collection's train/
 * queries and then reported on its test queries.
 */

/** Vector-channel weights tried (keyword weight 1); 0 keeps vector-only chunks only as a tail after keyword's. */
export const VECTOR_WEIGHTS: readonly number[] = [1, 0.75, 0.5, 0.35, 0.25, 0.1, 0];

/** The weight with the best mean score; the first listed wins a tie (1 = the app's plain RRF). */
export function bestWeight(scoreByWeight: ReadonlyMap<number, number>): number {
  let best: number | null = null;
  for (const [weight, score] of scoreByWeight)
    if (best === null || score > scoreByWeight.get(best)!) best = weight;
  if (best === null) throw new Error('No weight was scored.');
  return best;
}
