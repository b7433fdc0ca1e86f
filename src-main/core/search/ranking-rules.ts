/**
 * The ranking rules a search applies beyond BM25 and reciprocal rank fusion, and those the
 * extractive answer applies when it picks the passages to quote. The app runs with every rule on
 * (ALL_RULES); the switch exists so that the rule ablation (`npm run eval -- --rule-ablation`,
 * bench/rule-ablation.ts) can score the same index with one rule off at a time. A rule stays only
 * if it gains on the test split of at least two collections and costs none more than 0.005
 * (issue #24; docs/decisions/retrieval-on-real-documents.md).
 */
import type { DocumentRankingWeights } from './document-ranking';

export interface RankingRules {
  /**
   * query-terms.ts: function words (stop-words.ts: 的, 怎么, what, how …) are searched with the
   * question-frame words in the weaker second BM25 query, weighed there by their IDF; off, they are
   * words of the content query like any other (either way, a query of nothing but function words
   * finds nothing).
   */
  functionWordTier: boolean;
  /**
   * query-terms.ts: a run of Han characters the segmenter split entirely into single characters
   * (分区表 → 分|区|表) is searched for its adjacent pairs (分区, 区表) as content words; off, each
   * pair is as weak as its weaker character (分 and 区 are listed function words).
   */
  loneCharacterPairs: boolean;
  /** phrase-rerank.ts: the query's whole phrase in one of the chunk's headings. */
  headingBonus: boolean;
  /**
   * index-retrieval.ts: question-frame words (原因, reason) are searched in a second BM25 query
   * fused below the content words; off, they are words of the one BM25 query like any other.
   */
  frameTier: boolean;
  /**
   * document-ranking.ts: the keyword channel ranks documents from their best passages, title and
   * headings, then the passages inside them; off (false), it ranks chunks by BM25 alone.
   */
  documentRanking: Readonly<DocumentRankingWeights> | false;
  /** extractive-answer.ts: query terms weighed by their rarity among the candidates' paragraphs. */
  rarePassageTerms: boolean;
  /** extractive-answer.ts: a paragraph holding an identifier or code the question names comes first. */
  keyTermPassages: boolean;
  /** extractive-answer.ts: passages are reordered by their match (search order only discounts); off, search order. */
  passageReorder: boolean;
}

export const ALL_RULES: Readonly<RankingRules> = Object.freeze({
  functionWordTier: true,
  loneCharacterPairs: true,
  headingBonus: true,
  frameTier: true,
  documentRanking: false,
  rarePassageTerms: true,
  keyTermPassages: true,
  passageReorder: true,
});
