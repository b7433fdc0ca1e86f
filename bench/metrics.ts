/**
 * Ranking metrics as BEIR/pytrec_eval compute them (https://github.com/cvangysel/pytrec_eval):
 * nDCG with linear gain (gain = grade) and log2 discount, recall over the judged relevant
 * documents (grade > 0), reciprocal rank of the first relevant document. Plus the latency
 * summaries the benchmark reports. All pure.
 */

/** Relevance grades of one query: document id → grade. */
export type Judgments = ReadonlyMap<string, number>;

/** nDCG@k of a ranked list of document ids (duplicates count once, at their first rank). */
export function ndcgAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  const ideal = [...judgments.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let idealDcg = 0;
  ideal.slice(0, k).forEach((grade, i) => (idealDcg += grade / Math.log2(i + 2)));
  if (idealDcg === 0) return 0;
  let dcg = 0;
  dedupe(ranked)
    .slice(0, k)
    .forEach((id, i) => (dcg += (judgments.get(id) ?? 0) / Math.log2(i + 2)));
  return dcg / idealDcg;
}

/** Share of the relevant documents (grade > 0) found in the first k. */
export function recallAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  const relevant = [...judgments.values()].filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  const found = dedupe(ranked)
    .slice(0, k)
    .filter((id) => (judgments.get(id) ?? 0) > 0).length;
  return found / relevant;
}

/** 1 / rank of the first relevant document within the first k, else 0. */
export function reciprocalRankAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  const index = dedupe(ranked)
    .slice(0, k)
    .findIndex((id) => (judgments.get(id) ?? 0) > 0);
  return index < 0 ? 0 : 1 / (index + 1);
}

/** 1 when the first document is relevant (grade > 0), else 0. */
export function precisionAt1(ranked: readonly string[], judgments: Judgments): number {
  return ranked.length > 0 && (judgments.get(ranked[0]!) ?? 0) > 0 ? 1 : 0;
}

/** Keeps each id at its first (best) rank: a document counts at its best-ranked chunk. */
export function dedupe(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The p-th percentile (0–100) by linear interpolation between closest ranks (numpy's default). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  n: number;
}

export function summarizeLatencies(values: readonly number[]): LatencySummary {
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    mean: mean(values),
    n: values.length,
  };
}
