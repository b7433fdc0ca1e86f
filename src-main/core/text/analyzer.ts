/**
 * Index-time and query-time analysis for the keyword channel: the same function on both sides, so
 * a query token can only match what indexing produced.
 *
 * - Latin and other space-separated scripts: NFKC, lower-case, split on anything that is not a
 *   letter, mark or digit; English possessives and in-word apostrophes dropped ("don't" → "dont");
 *   Latin diacritics folded ("café" → "cafe"); Lucene's English stop words removed; Porter stems.
 *   Numbers are kept ("3.14" → "3", "14").
 * - Scripts written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar) are segmented into words
 *   with ICU's dictionary segmenter (`Intl.Segmenter`, offline in Node). Every unspaced run holding
 *   Han, kana or Hangul also yields the bigrams of its units, each CJK character being a unit and
 *   each number or Latin piece another (差旅报销单 → 差旅 旅报 报销 销单; 1998年 → 1998年), so a
 *   2-character query word such as 报销 finds its documents even where the segmenter glued it into a
 *   longer word, and agglutinative Hangul (한국어를) matches its stem. Tokens come words first, then
 *   bigrams. On cmrc2018 this ties words alone on train and beats it on test while adding that
 *   recall (BM25 nDCG@10 0.988 on test; variants compared in bench/quality/README.md).
 *
 * - Identifiers (`tidb_mem_quota_query`, `raftstore.store-pool-size`, `HTTP_PROXY`, `v7.4.0`):
 *   Latin/digit runs joined by `_`, `.` or `-` are indexed whole as well as in their parts, the
 *   connectors dropped ("tidbmemquotaquery"), so the page that defines a name outranks pages that
 *   merely share its common pieces. A version also yields its form without "v" (v7.4.0 → 740),
 *   so "v7.4.0" finds "7.4.0". A run of digits and dots counts only with two dots or more
 *   ("7.4.0", not "3.14", whose whole "314" would collide with the number).
 *   The whole tokens are keyword-only (`identifiers`): the built-in embedder's features stay as they were.
 *
 * Tokens are stored space-joined in `chunks.search_text` and indexed with Postgres' 'simple' config,
 * so every token consists only of letters, marks and digits: Postgres' default parser keeps such a
 * token whole (the analyzer test checks this against PGlite).
 */
import { stemmer } from 'stemmer';

/** Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (the list BM25 baselines such as Anserini use). */
const ENGLISH_STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

/** A run of letters, marks and digits, with apostrophes allowed inside ("don't", "o’clock"). */
export const WORD_RUN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;
export const NEEDS_DICTIONARY =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
export const CJK_CHAR = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;
export const CJK_UNIT =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]|[^\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]+/gu;
const LETTERS_OR_DIGITS = /[\p{L}\p{M}\p{N}]+/gu;
export const PLAIN_WORD = /^[\p{L}\p{M}\p{N}]+$/u;
const COMBINING_MARKS = /\p{M}/gu;
const LATIN_WITH_MARKS = /^[\p{sc=Latin}\p{M}\p{N}]+$/u;
const ASCII_LOWER = /^[a-z]+$/;
/** Longer "words" are base64 blobs or hashes; Postgres also refuses lexemes over 2,047 bytes. */
export const MAX_TOKEN_CHARS = 64;

export const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** One word as written (normalised, lower-cased) and the keyword tokens it yields. */
export interface AnalyzedWord {
  surface: string;
  /** True for Han, kana and Hangul words, whose characters carry meaning on their own. */
  cjk: boolean;
  tokens: string[];
}

export interface AnalyzedText {
  /** Words in order. */
  words: AnalyzedWord[];
  /** Whole-identifier tokens (keyword channel only), in order of appearance. */
  identifiers: string[];
  /**
   * Each unspaced run that holds Han, kana or Hangul, as units: single CJK characters and whole
   * numbers or Latin pieces ("1998年版" → 1998 年 版). The source of the bigram tokens.
   */
  cjkRuns: string[][];
}

/**
 * The full analysis; `analyze` flattens it into tokens. Exposed for the built-in embedder, which
 * may skip dictionary segmentation (`segment: false`, most of the cost for Chinese): unspaced runs
 * then stay whole words and their CJK units carry the meaning.
 */
export function analyzeText(text: string, options: { segment?: boolean } = {}): AnalyzedText {
  // Normalised once for the words, the CJK runs and the identifiers (it was twice per text).
  const normalised = normaliseForAnalysis(text);
  const result: AnalyzedText = { words: [], identifiers: identifierTokens(normalised), cjkRuns: [] };
  visitNormalised(
    normalised,
    (word) => result.words.push(word),
    (run) => result.cjkRuns.push(run),
    options.segment ?? true,
  );
  return result;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** NFKC and lower case; ASCII text is its own NFKC form, so only lower-cased (the common case). */
function normaliseForAnalysis(text: string): string {
  return ASCII_ONLY.test(text) ? text.toLowerCase() : text.normalize('NFKC').toLowerCase();
}

/** The keyword tokens of an analysis: words' tokens first, then the CJK unit bigrams. */
export function tokensOf(analysed: AnalyzedText): string[] {
  const tokens: string[] = [];
  for (const word of analysed.words) for (const token of word.tokens) tokens.push(token);
  for (const token of analysed.identifiers) tokens.push(token);
  for (const units of analysed.cjkRuns)
    for (let i = 0; i + 1 < units.length; i++) tokens.push(units[i]! + units[i + 1]!);
  return tokens;
}

export function analyze(text: string): string[] {
  return tokensOf(analyzeText(text));
}

/** The analysed text stored in `chunks.search_text`: tokens joined by single spaces. */
export function toSearchText(text: string): string {
  return analyze(text).join(' ');
}

/** `toSearchText` of the text that `analysed` came from (analysed with segmentation, the default). */
export function searchTextOf(analysed: AnalyzedText): string {
  return tokensOf(analysed).join(' ');
}

function visitNormalised(
  normalised: string,
  onWord: (word: AnalyzedWord) => void,
  onCjkRun: (units: string[]) => void,
  segment = true,
): void {
  const ascii = ASCII_ONLY.test(normalised);
  if (segment && !ascii && NEEDS_DICTIONARY.test(normalised)) {
    // One segmenter pass over the whole text is ~1.5x faster than one per run (Chinese text has
    // a run between every two punctuation marks). ICU's word-like segments may still hold
    // punctuation ("3.14"), so they are split into runs the same way as unsegmented text.
    for (const part of segmenter.segment(normalised)) {
      if (!part.isWordLike) continue;
      if (PLAIN_WORD.test(part.segment)) onWord(cachedWord(part.segment));
      else for (const piece of part.segment.match(WORD_RUN) ?? []) onWord(cachedWord(piece));
    }
  } else {
    for (const match of normalised.matchAll(WORD_RUN)) onWord(cachedWord(match[0]));
  }
  if (!ascii && CJK_CHAR.test(normalised)) {
    for (const match of normalised.matchAll(WORD_RUN))
      if (CJK_CHAR.test(match[0])) onCjkRun(cjkUnits(match[0]));
  }
}

/**
 * analyzeWord's results for the words seen lately: running text repeats its words (Zipf), and a
 * word's analysis (apostrophes, diacritics, stop words, the Porter stemmer) was ~15% of the built-in
 * embedder's CPU. Bounded like the term prior's cache (~50k short words, a few MB); the entries are
 * frozen because every analysis of that word shares them.
 */
const MAX_CACHED_WORDS = 50_000;
const wordCache = new Map<string, AnalyzedWord>();

function cachedWord(raw: string): AnalyzedWord {
  let word = wordCache.get(raw);
  if (word === undefined) {
    word = analyzeWord(raw);
    Object.freeze(word.tokens);
    Object.freeze(word);
    if (wordCache.size >= MAX_CACHED_WORDS) wordCache.clear();
    wordCache.set(raw, word);
  }
  return word;
}

/** Latin/digit pieces joined by `_`, `.` or `-` (not inside a longer Latin run). */
const IDENTIFIER = /(?<![a-z0-9])[a-z0-9]+(?:[._-][a-z0-9]+)+/g;
const HAS_LETTER = /[a-z]/;
const VERSION = /^v\d/;

/** Whole tokens of the identifiers in already normalised, lower-cased text (see the file comment). */
export function identifierTokens(normalised: string): string[] {
  const tokens: string[] = [];
  for (const match of normalised.matchAll(IDENTIFIER)) {
    const raw = match[0];
    const separators = raw.length - raw.replace(/[._-]/g, '').length;
    if (!HAS_LETTER.test(raw) && separators < 2) continue;
    const whole = raw.replace(/[._-]/g, '');
    if (whole.length > MAX_TOKEN_CHARS) continue;
    tokens.push(whole);
    // "v7.4.0" also as "740", the form "7.4.0" indexes; "v1.2" keeps only its whole "v12".
    if (VERSION.test(raw) && separators >= 2) tokens.push(whole.slice(1));
  }
  return tokens;
}

export function analyzeWord(raw: string): AnalyzedWord {
  if (CJK_CHAR.test(raw))
    return { surface: raw, cjk: true, tokens: raw.length > MAX_TOKEN_CHARS ? [] : [raw] };
  // "the cell's" → "cell"; "don't" → "dont": Postgres' parser would split at the apostrophe.
  const surface = raw.replace(/['’]s$/u, '').replace(/['’]/gu, '');
  const tokens: string[] = [];
  for (const piece of surface.match(LETTERS_OR_DIGITS) ?? []) {
    const token = latinToken(piece);
    if (token) tokens.push(token);
  }
  return { surface, cjk: false, tokens };
}

export function cjkUnits(run: string): string[] {
  const units: string[] = [];
  for (const unit of run.match(CJK_UNIT) ?? []) {
    const clean = unit.length > 1 ? unit.replace(/['’]/gu, '') : unit;
    if (clean.length > 0 && clean.length <= MAX_TOKEN_CHARS) units.push(clean);
  }
  return units;
}

function latinToken(piece: string): string | null {
  // Plain a-z has no marks to fold: skip the NFD pass (same result, most words).
  const folded =
    !ASCII_LOWER.test(piece) && LATIN_WITH_MARKS.test(piece)
      ? piece.normalize('NFD').replace(COMBINING_MARKS, '')
      : piece;
  if (folded.length === 0 || folded.length > MAX_TOKEN_CHARS || ENGLISH_STOP_WORDS.has(folded)) return null;
  return ASCII_LOWER.test(folded) ? stemmer(folded) : folded;
}
