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
 * `weights` scale a channel's contribution (default 1); a weight of 0 keeps its keys, ranked
 * after every key another channel found (a tail that adds recall, never reorders the others).
 */
export function reciprocalRankFusion<C extends string>(
  channels: Partial<Record<C, readonly string[]>>,
  k: number = RRF_K,
  weights: Partial<Record<C, number>> = {},
): FusedItem<C>[] {
  const fused = new Map<string, FusedItem<C>>();
  for (const [channel, keys] of Object.entries(channels) as [C, readonly string[] | undefined][]) {
    if (!keys) continue;
    keys.forEach((key, index) => {
      const item: FusedItem<C> = fused.get(key) ?? { key, score: 0, ranks: {} };
      if (item.ranks[channel] !== undefined) return;
      item.ranks[channel] = index + 1;
      item.score += (weights[channel] ?? 1) / (k + index + 1);
      fused.set(key, item);
    });
  }
  const bestRank = (item: FusedItem<C>) => Math.min(...(Object.values(item.ranks) as number[]));
  return [...fused.values()].sort(
    (a, b) => b.score - a.score || bestRank(a) - bestRank(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/**
 * The top k of a fused list in which every channel of `guaranteed` that returned anything keeps
 * its best item. A direct-mode connection is one channel while indexed chunks are found by two
 * (vector and keyword), so its first hit (1/61) would lose to any chunk both local channels
 * merely mention (~2/70) and a live platform would vanish from the answer; its best hit takes
 * the place of the lowest-ranked item that no guaranteed channel needs. Order stays by score.
 */
export function topKKeepingChannels<C extends string>(
  fused: FusedItem<C>[],
  k: number,
  guaranteed: readonly C[],
): FusedItem<C>[] {
  const top = fused.slice(0, k);
  const bestOf = (channel: C) =>
    fused
      .filter((item) => item.ranks[channel] !== undefined)
      .sort((a, b) => a.ranks[channel]! - b.ranks[channel]!)[0];
  const missing = [...new Set(guaranteed)]
    .filter((channel) => !top.some((item) => item.ranks[channel] !== undefined))
    .map(bestOf);
  for (const item of missing) {
    if (!item || top.includes(item)) continue;
    // The lowest item that is not the only representative of a guaranteed channel.
    const needed = (candidate: FusedItem<C>) =>
      guaranteed.some(
        (channel) =>
          candidate.ranks[channel] !== undefined &&
          top.filter((other) => other.ranks[channel] !== undefined).length === 1,
      );
    const victim = [...top].reverse().find((candidate) => !needed(candidate));
    if (!victim) break;
    top.splice(top.indexOf(victim), 1, item);
  }
  return top.sort((a, b) => fused.indexOf(a) - fused.indexOf(b));
}
