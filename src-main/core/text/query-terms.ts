/**
 * The keyword terms of a query, by tier (stop-words.ts): content terms, and question-frame terms
 * that are weighed below them. Function words are left out. The tokens are the analyzer's own
 * (analyze() of the same text yields every one of them), so they match what indexing stored.
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
import { wordTier, type WordTier } from './stop-words';

export interface QueryTerms {
  /** Distinct content terms in query order. */
  content: string[];
  /** Distinct question-frame terms not also content (原因, 作用, reason …). */
  frame: string[];
}

const RANK: Record<WordTier, number> = { function: 0, frame: 1, content: 2 };

export function queryTerms(text: string): QueryTerms {
  const normalised = text.normalize('NFKC').toLowerCase();
  // The tier of the word covering each character, for the bigrams below.
  const tierAt: WordTier[] = [];
  const content = new Set<string>();
  const frame = new Set<string>();
  const addWord = (piece: string, start: number) => {
    const word = analyzeWord(piece);
    const tier = wordTier(word.surface);
    for (let i = start; i < start + piece.length; i++) tierAt[i] = tier;
    if (tier === 'function') return;
    for (const token of word.tokens) (tier === 'content' ? content : frame).add(token);
  };
  if (NEEDS_DICTIONARY.test(normalised)) {
    for (const part of segmenter.segment(normalised)) {
      if (!part.isWordLike) continue;
      if (PLAIN_WORD.test(part.segment)) addWord(part.segment, part.index);
      else for (const m of part.segment.matchAll(WORD_RUN)) addWord(m[0], part.index + m.index);
    }
  } else {
    for (const m of normalised.matchAll(WORD_RUN)) addWord(m[0], m.index);
  }
  for (const token of identifierTokens(normalised)) content.add(token);
  for (const run of normalised.matchAll(WORD_RUN)) {
    if (!CJK_CHAR.test(run[0])) continue;
    let previous: { unit: string; tier: WordTier } | null = null;
    for (const m of run[0].matchAll(CJK_UNIT)) {
      const unit = m[0].length > 1 ? m[0].replace(/['’]/gu, '') : m[0];
      if (unit.length === 0 || unit.length > MAX_TOKEN_CHARS) continue;
      const tier = tierAt[run.index + m.index] ?? 'content';
      if (previous) {
        // A bigram is as weak as its weaker unit: one reaching into a function word is dropped.
        const bigramTier = RANK[previous.tier] <= RANK[tier] ? previous.tier : tier;
        if (bigramTier !== 'function') (bigramTier === 'content' ? content : frame).add(previous.unit + unit);
      }
      previous = { unit, tier };
    }
  }
  return { content: [...content], frame: [...frame].filter((t) => !content.has(t)) };
}
