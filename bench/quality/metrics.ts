/** Ranking metrics as BEIR/pytrec_eval define them: linear gain = grade, log2 discount, cut at k. */

export interface Metrics {
  ndcg10: number;
  recall10: number;
  mrr10: number;
}

export function scoreRanking(ranking: string[], relevant: Map<string, number>, k = 10): Metrics {
  const top = ranking.slice(0, k);
  let dcg = 0;
  let found = 0;
  let reciprocalRank = 0;
  top.forEach((id, index) => {
    const grade = relevant.get(id) ?? 0;
    if (grade <= 0) return;
    dcg += grade / Math.log2(index + 2);
    found++;
    if (reciprocalRank === 0) reciprocalRank = 1 / (index + 1);
  });
  const ideal = [...relevant.values()]
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
  const totalRelevant = [...relevant.values()].filter((grade) => grade > 0).length;
  return {
    ndcg10: idcg === 0 ? 0 : dcg / idcg,
    recall10: totalRelevant === 0 ? 0 : found / totalRelevant,
    mrr10: reciprocalRank,
  };
}

export function meanMetrics(all: Metrics[]): Metrics {
  const n = all.length || 1;
  return {
    ndcg10: all.reduce((sum, m) => sum + m.ndcg10, 0) / n,
    recall10: all.reduce((sum, m) => sum + m.recall10, 0) / n,
    mrr10: all.reduce((sum, m) => sum + m.mrr10, 0) / n,
  };
}

/** Reciprocal rank fusion (Cormack et al. 2009): score = Σ 1/(k + rank), rank 1-based. */
export function reciprocalRankFusion(rankings: string[][], k = 60): string[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings)
    ranking.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
}
