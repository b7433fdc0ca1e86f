/**
 * `npm run eval -- --compare <earlier results json>`: the collections, channels and metrics
 * (nDCG@10, P@1) that both runs measured, side by side. A drop of more than COMPARE_TOLERANCE on
 * any of them is a regression, and the eval then exits non-zero: a ranking rule that helps one
 * collection and costs another more than that is not kept (issue #24). Channels or collections
 * only one run has are listed, never scored.
 */
export const COMPARE_TOLERANCE = 0.005;
export const COMPARED_METRICS = ['ndcgAt10', 'pAt1'] as const;
type Metric = (typeof COMPARED_METRICS)[number];
type Scores = Partial<Record<Metric, number>>;

/** The parts of an eval results file (bench-results/eval-*.json) that are compared. */
export interface ComparableResults {
  commit?: string | null;
  collections?: {
    collection: string;
    split: string;
    scores: Record<string, Scores>;
    reference?: Scores;
  }[];
  realDocs?: {
    collection: string;
    split: string;
    overall?: Scores;
    channels?: Record<string, { all: Scores; overall: Scores }>;
  }[];
}

export interface ComparisonRow {
  collection: string;
  channel: string;
  metric: Metric;
  before: number;
  after: number;
  diff: number;
  regressed: boolean;
}

/** `collection<TAB>channel` → scores, for every row a results file holds. */
export function comparableRows(results: ComparableResults): Map<string, Scores> {
  const rows = new Map<string, Scores>();
  const name = (c: { collection: string; split: string }, suffix = '') =>
    `${c.collection}${suffix}${c.split === 'train' ? ' (train)' : ''}`;
  for (const c of results.collections ?? []) {
    for (const [channel, scores] of Object.entries(c.scores)) rows.set(`${name(c)}\t${channel}`, scores);
    if (c.reference) rows.set(`${name(c)}\tbm25f`, c.reference);
  }
  for (const r of results.realDocs ?? []) {
    if (r.channels)
      for (const [channel, scores] of Object.entries(r.channels)) {
        rows.set(`${name(r)}\t${channel}`, scores.all);
        rows.set(`${name(r, ', all but paraphrase')}\t${channel}`, scores.overall);
      }
    // Results written before the channels were: the hybrid search's row only.
    else if (r.overall) rows.set(`${name(r, ', all but paraphrase')}\thybrid`, r.overall);
  }
  return rows;
}

export function compareResults(
  before: ComparableResults,
  after: ComparableResults,
  tolerance = COMPARE_TOLERANCE,
): { rows: ComparisonRow[]; onlyBefore: string[]; onlyAfter: string[] } {
  const old = comparableRows(before);
  const now = comparableRows(after);
  const rows: ComparisonRow[] = [];
  for (const [key, scores] of now) {
    const earlier = old.get(key);
    if (!earlier) continue;
    const [collection, channel] = key.split('\t') as [string, string];
    for (const metric of COMPARED_METRICS) {
      const [b, a] = [earlier[metric], scores[metric]];
      if (typeof b !== 'number' || typeof a !== 'number' || !Number.isFinite(b) || !Number.isFinite(a))
        continue;
      rows.push({
        collection,
        channel,
        metric,
        before: b,
        after: a,
        diff: a - b,
        regressed: b - a > tolerance,
      });
    }
  }
  const label = (key: string) => key.replace('\t', ' / ');
  return {
    rows,
    onlyBefore: [...old.keys()].filter((k) => !now.has(k)).map(label),
    onlyAfter: [...now.keys()].filter((k) => !old.has(k)).map(label),
  };
}
