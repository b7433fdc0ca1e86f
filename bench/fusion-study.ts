/**
 * A diagnostic for the hybrid goal, not a change to the app: RRF with a weight on the vector
 * channel, score(d) = Σ w_c / (k + rank_c(d)), the weight chosen on a collection's train/ queries
 * and then reported on its test queries. With w = 1 it ranks exactly like the app's
 * reciprocalRankFusion (src-main/core/search/rrf.ts).
 */
import { reciprocalRankFusion, RRF_K } from '../src-main/core/search/rrf';

/** Vector-channel weights tried (keyword weight 1); 0 keeps vector-only chunks only as a tail after keyword's. */
export const VECTOR_WEIGHTS: readonly number[] = [1, 0.75, 0.5, 0.35, 0.25, 0.1, 0];

/** Keys fused from per-channel ranked lists with per-channel weights: the app's own weighted RRF. */
export function weightedFusion(channels: Record<string, readonly string[]>, weights: Record<string, number>, k: number = RRF_K): string[] {
  return reciprocalRankFusion(channels, k, weights).map((item) => item.key);
}

/** The weight with the best mean score; the first listed wins a tie (1 = the app's plain RRF). */
export function bestWeight(scoreByWeight: ReadonlyMap<number, number>): number {
  let best: number | null = null;
  for (const [weight, score] of scoreByWeight) if (best === null || score > scoreByWeight.get(best)!) best = weight;
  if (best === null) throw new Error('No weight was scored.');
  return best;
}
