/**
 * Reciprocal Rank Fusion (Cormack, Clarke & Büttcher 2009,
 * https://plg.uwaterloo.ca/~gvcormac/cormacksigir09-rrf.pdf): score(d) = Σ 1 / (k + rank_c(d))
 * over the channels c that returned d. Ranks are 1-based. Only ranks count, so channels with
 * incomparable scores (cosine distance, BM25, a platform's own search) fuse fairly.
 */
export const RRF_K = 60;

export interface FusedItem<C extends string> {
  key: string;
  score: number;
  /** 1-based rank in each channel that returned the key. */
  ranks: Partial<Record<C, number>>;
}

/**
 * Fuses ranked key lists, one per channel. A key repeated within one channel counts at its best
 * rank. Ties are broken by the best single rank, then by key, so the order is deterministic.
 */
export function reciprocalRankFusion<C extends string>(channels: Partial<Record<C, readonly string[]>>, k: number = RRF_K): FusedItem<C>[] {
  const fused = new Map<string, FusedItem<C>>();
  for (const [channel, keys] of Object.entries(channels) as [C, readonly string[] | undefined][]) {
    if (!keys) continue;
    keys.forEach((key, index) => {
      const item: FusedItem<C> = fused.get(key) ?? { key, score: 0, ranks: {} };
      if (item.ranks[channel] !== undefined) return;
      item.ranks[channel] = index + 1;
      item.score += 1 / (k + index + 1);
      fused.set(key, item);
    });
  }
  const bestRank = (item: FusedItem<C>) => Math.min(...(Object.values(item.ranks) as number[]));
  return [...fused.values()].sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
