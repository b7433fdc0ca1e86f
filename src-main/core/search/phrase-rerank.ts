import { ALL_RULES, type RankingRules } from './ranking-rules';

/**
 * Order among the fused candidates that BM25 cannot see: it has no fields. A query run in one of
 * the chunk's headings (or its heading path) marks the section that is about it: the definition
 * of a configuration item, the FAQ entry that asks the question. The bonus needs a match that
 * stands for the whole query (phraseShare): not one run of several. It is added to the RRF score,
 * so it reorders near neighbours strongly and distant ones not at all; its size is in RRF units
 * (rank 1 vs rank 2 at k=60 is 0.00026, rank 1 vs rank 30 is 0.0054), chosen on the
 * real-documents train split (docs/decisions/retrieval-on-real-documents.md).
 */
export const HEADING_BONUS = 0.004;

export interface RerankChunk {
  content: string;
  heading_path: string;
}

/**
 * Lower-cased, NFKC, without whitespace and inline Markdown code/emphasis marks. Connectors stay:
 * "tikv channel full" must not match inside `tikv_channel_full_total`.
 */
export function squash(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s`*]+/g, '');
}

/**
 * How much of the query a phrase stands for: its characters over those of all the query's runs
 * (a run joining others, "placement rules in sql", counts as all of them), at most 1.
 */
export function phraseShare(phrase: string, phrases: readonly string[]): number {
  const squashed = phrases.map(squash).filter((p) => p.length > 0);
  // A phrase that holds another is a join of runs: its parts count, not it.
  const parts = squashed.filter((p, i) => !squashed.some((q, j) => j !== i && q !== p && p.includes(q)));
  const total = [...new Set(parts)].reduce((sum, p) => sum + p.length, 0);
  return total === 0 ? 0 : Math.min(1, squash(phrase).length / total);
}

/** The rerank adjustment of one chunk for the query's phrases. */
export function phraseAdjustment(chunk: RerankChunk, phrases: readonly string[]): number {
  return phraseAdjuster(phrases)(chunk);
}

/**
 * phraseAdjustment for many chunks of one query: what depends on the query alone (its squashed
 * whole-query phrases) is worked out once (a search adjusts its 50-60 fused candidates).
 */
export function phraseAdjuster(
  phrases: readonly string[],
  rules: Readonly<RankingRules> = ALL_RULES,
): (chunk: RerankChunk) => number {
  // Only a match that stands for the whole query counts: one run of a long question ("homocysteine"
  // in a scifact claim, a name in a cmrc2018 question) is weak evidence that BM25 already counts, and
  // any bonus for it lowered nDCG@10 on both public train splits (docs/decisions/retrieval-on-real-documents.md).
  const whole = phrases
    .filter((p) => phraseShare(p, phrases) >= 1 - 1e-9)
    .map(squash)
    .filter((p) => p.length > 0);
  if (!rules.headingBonus || whole.length === 0) return () => 0;
  return (chunk) => {
    const headings = squash(
      [chunk.heading_path, ...chunk.content.split('\n').filter((line) => /^\s{0,3}#{1,6}\s/.test(line))].join(
        '\n',
      ),
    );
    return whole.some((p) => headings.includes(p)) ? HEADING_BONUS : 0;
  };
}

/**
 * The fused candidates with each chunk's adjustment added to its score, re-sorted (ties keep the
 * fused order). `chunkOf` finds a candidate's chunk; a live hit has none and keeps its score.
 */
export function rerankByPhrase<T extends { key: string; score: number }>(
  fused: readonly T[],
  chunkOf: (key: string) => RerankChunk | undefined,
  phrases: readonly string[],
  rules: Readonly<RankingRules> = ALL_RULES,
): T[] {
  const adjustment = phraseAdjuster(phrases, rules);
  const adjusted = fused.map((item, index) => {
    const chunk = chunkOf(item.key);
    return { item: chunk ? { ...item, score: item.score + adjustment(chunk) } : item, index };
  });
  adjusted.sort((a, b) => b.item.score - a.item.score || a.index - b.index);
  return adjusted.map((entry) => entry.item);
}
