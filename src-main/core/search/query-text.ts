/**
 * Turns whatever the user typed into something safe to search with. Nothing here throws: an empty
 * or meaningless query (only spaces, punctuation or emoji) yields null, a huge one is cut down.
 */
import { queryTerms } from '../text/query-terms';
import { ALL_RULES, type RankingRules } from './ranking-rules';

/** Longer queries are cut at a word boundary: no question needs more, and embedders cap input. */
export const MAX_QUERY_CHARS = 1000;
/** Distinct keyword terms kept, so a pasted page cannot make BM25 walk thousands of posting lists. */
export const MAX_KEYWORD_TERMS = 64;

/** Phrases checked against each candidate (a pasted page would have hundreds). */
const MAX_PHRASES = 16;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export interface PreparedQuery {
  /** Cleaned, possibly truncated query text (embedded for the vector channel, sent to platforms). */
  text: string;
  /**
   * Analysed content terms, space-joined (function words such as 怎么/什么/what/how are not content).
   * When the query has only question-frame words (原因, reason), those.
   */
  keywordText: string;
  /**
   * Content plus the weak terms: question-frame words (是什么原因 → 原因) and function words (是,
   * 什么), searched at a lower weight; '' when none.
   */
  frameKeywordText: string;
  /** Runs of content words as typed, for the exact-phrase rerank (query-terms.ts). */
  phrases: string[];
  truncated: boolean;
}

export function prepareQuery(
  raw: unknown,
  rules: Pick<RankingRules, 'functionWordTier' | 'loneCharacterPairs'> = ALL_RULES,
): PreparedQuery | null {
  if (typeof raw !== 'string') return null;
  // Lone surrogates cannot be encoded as UTF-8 for Postgres; controls carry no meaning.
  let text = raw
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!/[\p{L}\p{N}]/u.test(text)) return null;
  let truncated = false;
  const codePoints = Array.from(text);
  if (codePoints.length > MAX_QUERY_CHARS) {
    const cut = codePoints.slice(0, MAX_QUERY_CHARS).join('');
    const lastSpace = cut.lastIndexOf(' ');
    text = lastSpace > MAX_QUERY_CHARS * 0.8 ? cut.slice(0, lastSpace) : cut;
    truncated = true;
  }
  const terms = queryTerms(text, rules);
  // Only function words ("的", "what is the"): nothing to search for, so nothing matches.
  if (terms.content.length === 0 && terms.frame.length === 0) return null;
  const content = (terms.content.length > 0 ? terms.content : terms.frame).slice(0, MAX_KEYWORD_TERMS);
  const frame = terms.content.length > 0 ? terms.frame : [];
  return {
    text,
    keywordText: content.join(' '),
    frameKeywordText: frame.length > 0 ? [...content, ...frame].slice(0, MAX_KEYWORD_TERMS).join(' ') : '',
    phrases: terms.phrases.slice(0, MAX_PHRASES),
    truncated,
  };
}

// The top-K limits live apart so that `cairn search` can check --k without loading the analyzer.
export { MAX_K, clampK } from './top-k';
