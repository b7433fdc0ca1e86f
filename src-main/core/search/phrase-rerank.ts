import { ALL_RULES, type RankingRules } from './ranking-rules';

/**
 * Order among the fused candidates that BM25 cannot see: it has no positions and no fields.
 * - An exact phrase of the query (a run of its content words, "tikv channel full", an identifier
 *   "tidb_mem_quota_query"), or every identifier, code and number it names ("8027"), in a chunk
 *   ranks it above chunks where the words are scattered.
 * - A query run in one of the chunk's headings (or its heading path) marks the section that is
 *   about it: the definition of a configuration item, the FAQ entry that asks the question.
 * - Navigation and template files (TOC.md, SUMMARY.md, _index.md, a chunk that is a list of
 *   links) rank below content: they name every topic and answer none.
 * A bonus needs a match that stands for the whole query (phraseShare): not one run of several.
 * Each signal adds a bonus to the RRF score (or a penalty), so it reorders near neighbours
 * strongly and distant ones not at all; the sizes are in RRF units (rank 1 vs rank 2 at k=60 is
 * 0.00026, rank 1 vs rank 30 is 0.0054), chosen on the real-documents train split
 * (docs/decisions/retrieval-on-real-documents.md).
 */
export const PHRASE_BONUS = 0.003;
export const HEADING_BONUS = 0.004;
export const NAVIGATION_PENALTY = 0.006;

export interface RerankChunk {
  content: string;
  heading_path: string;
  external_id: string;
  url: string | null;
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

/** Words a user copies verbatim: identifiers, codes and numbers of three digits or more. */
const KEY_TERM = /^(?=.*\d)[a-z0-9]{3,}$|^[a-z0-9]+(?:[._-][a-z0-9]+)+$/;

/** The identifiers, codes and numbers among the query's phrases (lower-cased, as typed). */
export function keyTerms(phrases: readonly string[]): string[] {
  return [...new Set(phrases.flatMap((p) => p.split(/\s+/)).filter((w) => KEY_TERM.test(w)))];
}

const NAVIGATION_FILE = /(?:^|[\\/])(?:toc[^\\/]*|summary|_sidebar|sidebar|_[^\\/]*)\.(?:md|mdx|markdown)$/i;
const LINK_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\([^)]*\)\s*$/;

export function isNavigation(chunk: RerankChunk): boolean {
  return isNavigationOf(chunk, chunk.content.split('\n'));
}

function isNavigationOf(chunk: RerankChunk, contentLines: readonly string[]): boolean {
  if (NAVIGATION_FILE.test(chunk.external_id) || (chunk.url && NAVIGATION_FILE.test(chunk.url))) return true;
  const lines = contentLines.filter((line) => line.trim() !== '');
  return lines.length >= 5 && lines.filter((line) => LINK_ITEM.test(line)).length / lines.length >= 0.6;
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
 * phrases, their shares, its key terms) is worked out once, and a chunk's text is squashed only
 * when some phrase could still earn a bonus (a search adjusts its 50-60 fused candidates).
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
    .map((p) => ({ phrase: p, squashed: squash(p) }))
    .filter((p) => p.squashed.length > 0);
  // Several words in a row (or an identifier with connectors) found verbatim, not just its pieces.
  const multiWord = whole.filter((p) => /[\s._-]/.test(p.phrase)).map((p) => p.squashed);
  // Every identifier, code or number of the query present, when they are all it asks for ("8027").
  const keys = keyTerms(phrases);
  const keysAreWhole =
    keys.length > 0 && keys.reduce((sum, k) => sum + phraseShare(k, phrases), 0) >= 1 - 1e-9;
  return (chunk) => {
    const lines = chunk.content.split('\n');
    let adjustment = rules.navigationPenalty && isNavigationOf(chunk, lines) ? -NAVIGATION_PENALTY : 0;
    if (phrases.length === 0) return adjustment;
    if (rules.phraseBonus && (keysAreWhole || multiWord.length > 0)) {
      const text = squash(chunk.content);
      if ((keysAreWhole && keys.every((k) => text.includes(k))) || multiWord.some((p) => text.includes(p)))
        adjustment += PHRASE_BONUS;
    }
    if (rules.headingBonus && whole.length > 0) {
      const headings = squash(
        [chunk.heading_path, ...lines.filter((line) => /^\s{0,3}#{1,6}\s/.test(line))].join('\n'),
      );
      if (whole.some((p) => headings.includes(p.squashed))) adjustment += HEADING_BONUS;
    }
    return adjustment;
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
