/**
 * The keyword terms of a query, by tier (stop-words.ts): content terms, and the weak terms that
 * are searched in a second BM25 query fused below them (index-retrieval.ts): question-frame words
 * (原因, reason) and function words (的, 怎么, what), each weighed there by its IDF. A query with
 * no content word is searched for its frame words alone, or for nothing when it has only
 * function words. The tokens are the analyzer's own (analyze() of the same text yields every one
 * of them), so they match what indexing stored.
 */
import {
  analyzeWord,
  CJK_CHAR,
  CJK_UNIT,
  identifierTokens,
  MAX_TOKEN_CHARS,
  NEEDS_DICTIONARY,
  PLAIN_WORD,
  segmenter,
  WORD_RUN,
} from './analyzer';
import { CHINESE_PARTICLES, wordTier, type WordTier } from './stop-words';

export interface QueryTerms {
  /** Distinct content terms in query order. */
  content: string[];
  /**
   * Distinct weak terms not also content: question-frame words (原因, 作用, reason …) and, beside
   * content words, function words (怎么, 的, what …) and the bigrams reaching into them (是什).
   */
  frame: string[];
  /**
   * The query's runs of consecutive content words, as typed (normalised, lower-cased): "tikv
   * channel full" in "TiKV channel full 是什么原因", "store-pool-size" in "What is the default
   * value of store-pool-size?". What an exact phrase match looks for (phrase-rerank.ts).
   */
  phrases: string[];
}

const RANK: Record<WordTier, number> = { function: 0, frame: 1, content: 2 };

/**
 * `functionWordTier: false` (the rule ablation only, ranking-rules.ts) searches function words as
 * content instead of in the weak query, except in a query of nothing else; `loneCharacterPairs:
 * false` leaves a run of single characters to the tiers of its characters (see loneRunPairStarts).
 */
export function queryTerms(
  text: string,
  options: { functionWordTier?: boolean; loneCharacterPairs?: boolean } = {},
): QueryTerms {
  const pairLoneRuns = options.loneCharacterPairs !== false;
  const withoutFunctionWords = tieredTerms(text, 'left out', pairLoneRuns);
  // No content word: the frame words alone (是什么原因 → 原因), the pairs of lone characters the
  // segmenter did not know (分区), or nothing for function words only (是什么).
  if (withoutFunctionWords.content.length === 0) return withoutFunctionWords;
  const terms = tieredTerms(text, options.functionWordTier === false ? 'content' : 'frame', pairLoneRuns);
  // The pairs (分区) are content only when nothing else is, so weighing 分 and 区 as function words
  // leaves none: the query is those pairs.
  return terms.content.length > 0 ? terms : withoutFunctionWords;
}

/** What a function word becomes: dropped, a weak (frame) term, or content (the ablation). */
type FunctionWordsAs = 'left out' | 'frame' | 'content';

/**
 * The offsets of the first characters of the pairs to search as content words: inside each
 * maximal run of Han characters (between punctuation, spaces, Latin or digits) that the segmenter
 * split entirely into single characters, every two adjacent characters that are no particles.
 * Intl.Segmenter does not know 分区, so 分区表 comes out 分|区|表, and stopwords-iso lists 分 and 区
 * alone: without the pairs, 表 is the query's only content word and 临时表 outranks 分区表. A run
 * holding a word the segmenter knew (由|哪|家|公司) stays as it is: there a lone pair is as often
 * two words (由哪) as one, and pairing them in every query changed a third of cmrc2018's questions
 * (docs/decisions/analyzer-and-fields.md).
 */
function loneRunPairStarts(normalised: string, aloneAt: readonly boolean[]) {
  const starts = new Set<number>();
  for (const span of normalised.matchAll(/\p{sc=Han}+/gu)) {
    const chars = [...span[0]];
    if (chars.length < 2 || chars.some((c) => c.length !== 1)) continue;
    if (!chars.every((_, i) => aloneAt[span.index + i] === true)) continue;
    for (let i = 0; i + 1 < chars.length; i++)
      if (!CHINESE_PARTICLES.has(chars[i]!) && !CHINESE_PARTICLES.has(chars[i + 1]!))
        starts.add(span.index + i);
  }
  return starts;
}

function tieredTerms(text: string, functionWordsAs: FunctionWordsAs, pairLoneRuns: boolean): QueryTerms {
  const tierOf = (surface: string): WordTier => {
    const tier = wordTier(surface);
    return tier === 'function' && functionWordsAs !== 'left out' ? functionWordsAs : tier;
  };
  const normalised = text.normalize('NFKC').toLowerCase();
  // The tier of the word covering each character, for the bigrams below.
  const tierAt: WordTier[] = [];
  // Whether the word covering each character is a single character (the segmenter knew no longer word).
  const aloneAt: boolean[] = [];
  const content = new Set<string>();
  const frame = new Set<string>();
  // Bigrams of two lone listed characters side by side (分区 = 分 + 区): a word the segmenter did not know.
  const unknownWords = new Set<string>();
  const runs: { start: number; end: number }[] = [];
  let run: { start: number; end: number } | null = null;
  const segments: { piece: string; start: number }[] = [];
  if (NEEDS_DICTIONARY.test(normalised)) {
    for (const part of segmenter.segment(normalised)) {
      if (!part.isWordLike) continue;
      if (PLAIN_WORD.test(part.segment)) segments.push({ piece: part.segment, start: part.index });
      else
        for (const m of part.segment.matchAll(WORD_RUN))
          segments.push({ piece: m[0], start: part.index + m.index });
    }
  } else {
    for (const m of normalised.matchAll(WORD_RUN)) segments.push({ piece: m[0], start: m.index });
  }
  for (const { piece, start } of segments)
    for (let i = start; i < start + piece.length; i++) aloneAt[i] = piece.length === 1;
  const pairStarts = pairLoneRuns ? loneRunPairStarts(normalised, aloneAt) : new Set<number>();
  const addWord = (piece: string, start: number) => {
    const word = analyzeWord(piece);
    const tier = tierOf(word.surface);
    for (let i = start; i < start + piece.length; i++) tierAt[i] = tier;
    // A character of a content pair (分 of 分区表) is part of a content run, whatever its own tier.
    const paired = pairStarts.has(start) || pairStarts.has(start - 1);
    // A run continues over spaces and identifier connectors only, not over punctuation or a function word.
    const joined = run !== null && /^[\s._-]*$/.test(normalised.slice(run.end, start));
    if ((tier !== 'content' && !paired) || word.tokens.length === 0) run = null;
    else if (joined && run) run.end = start + piece.length;
    else runs.push((run = { start, end: start + piece.length }));
    if (tier === 'function') return;
    for (const token of word.tokens) {
      (tier === 'content' ? content : frame).add(token);
    }
  };
  for (const { piece, start } of segments) addWord(piece, start);
  for (const token of identifierTokens(normalised)) content.add(token);
  for (const run of normalised.matchAll(WORD_RUN)) {
    if (!CJK_CHAR.test(run[0])) continue;
    let previous: { unit: string; at: number; tier: WordTier; piece: boolean } | null = null;
    for (const m of run[0].matchAll(CJK_UNIT)) {
      const unit = m[0].length > 1 ? m[0].replace(/['’]/gu, '') : m[0];
      if (unit.length === 0 || unit.length > MAX_TOKEN_CHARS) continue;
      const at = run.index + m.index;
      const tier = tierAt[at] ?? 'content';
      // A lone character that is no particle: a piece of a word the segmenter did not know (分 of 分区).
      const piece = aloneAt[at] === true && CJK_CHAR.test(unit) && !CHINESE_PARTICLES.has(unit);
      if (previous) {
        // A bigram is as weak as its weaker unit: one reaching into a function word is dropped.
        const bigramTier = RANK[previous.tier] <= RANK[tier] ? previous.tier : tier;
        if (pairStarts.has(previous.at) && at === previous.at + 1) content.add(previous.unit + unit);
        else if (bigramTier !== 'function')
          (bigramTier === 'content' ? content : frame).add(previous.unit + unit);
        else if (previous.piece && piece) unknownWords.add(previous.unit + unit);
      }
      previous = { unit, at, tier, piece };
    }
  }
  // A query the lists left empty is searched for the words the segmenter did not know: 分区 and 时区
  // are single characters to Intl.Segmenter, each listed alone (分, 区, 时), and would find nothing
  // though the index holds them. Only then: beside other words, such a pair is as often two words
  // (由哪 in 由哪家公司) as one.
  if (content.size === 0 && frame.size === 0) for (const word of unknownWords) content.add(word);
  const phraseSpans = runs.map((r) => normalised.slice(r.start, r.end));
  // "Placement Rules in SQL": Latin runs joined by nothing but spaced function words are one phrase too.
  const whole = runs.length > 1 ? normalised.slice(runs[0]!.start, runs.at(-1)!.end) : '';
  if (whole && /^[a-z0-9\s._-]+$/.test(whole)) phraseSpans.push(whole);
  const phrases = [...new Set(phraseSpans.map((p) => p.replace(/\s+/g, ' ')))];
  return {
    content: [...content],
    frame: [...frame].filter((t) => !content.has(t)),
    phrases,
  };
}
