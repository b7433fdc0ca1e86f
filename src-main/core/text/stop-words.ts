/**
 * Which query words carry the question and which only frame it. Three tiers, from maintained,
 * named lists rather than a hand-made one:
 *
 * - function words, searched only in the weak query beside the content words, where BM25's IDF
 *   weighs them (query-terms.ts; a query of nothing else finds nothing):
 *   English from `stopword` 3.1.5 (`eng`, 108 function words: what, how, does, which, …) plus
 *   Lucene's list the analyzer already drops; Chinese from stopwords-iso 1.1.0 (`zh`, 794 words:
 *   怎么, 什么, 如何, 哪些, 多少, 的, 是, …), which also lists every single function character.
 * - question-frame words that can also be content (原因 in "是什么原因", 作用 in "有什么作用",
 *   "reason", "difference"): weighed below the content words, not deleted, since "原因" alone or
 *   "错误原因分析" is a real query (docs/decisions/retrieval-on-real-documents.md).
 * - everything else: content.
 *
 * Chinese bigrams (analyzer.ts) take the tier of the words they come from: a bigram that crosses
 * into a function word ("是什", "么原" in 是什么原因) is a weak term too, never content, or every
 * FAQ headed "… 是什么原因？" would lead.
 */
import { eng } from 'stopword';
// The package's main is a JSON file: Node's ESM loader (Playwright's e2e) needs the attribute.
import stopwordsIso from 'stopwords-iso' with { type: 'json' };

const ENGLISH_FUNCTION_WORDS = new Set(eng.map((w) => w.toLowerCase()));
// `stopword`'s list has "do" and "did" but not "does", the auxiliary of "does X support Y?".
ENGLISH_FUNCTION_WORDS.add('does');
const CHINESE_FUNCTION_WORDS = new Set((stopwordsIso as Record<string, string[]>).zh ?? []);
// 是否 (whether) is missing from stopwords-iso's zh list, though its parts 是 and 否 are there.
CHINESE_FUNCTION_WORDS.add('是否');

/**
 * Chinese characters that are words on their own (particles, pronouns, the copula) and never a
 * piece of a longer term. stopwords-iso lists most single characters (分, 区, 时 …) because each can
 * stand alone as a function word, but two of them side by side where the segmenter knew no word
 * (分区, 时区) can be one word, which a stop list must not take apart; these particles are never
 * part of such a pair (query-terms.ts).
 */
export const CHINESE_PARTICLES: ReadonlySet<string> = new Set([
  ...'的了着是在和与及或把被也都就吗呢吧啊这那我你',
]);

/**
 * Words that frame a question yet can be its subject; weighed, not deleted. A closed list on
 * purpose: each is how users ask (是什么原因, 有什么作用, 有什么区别, 怎么办/方法, what is the reason/purpose).
 */
export const QUESTION_FRAME_WORDS: ReadonlySet<string> = new Set([
  '原因',
  '作用',
  '区别',
  '方法',
  '办法',
  '意思',
  '含义',
  '用途',
  '步骤',
  'reason',
  'purpose',
  'difference',
  'mean',
  'meaning',
  'use',
  'way',
]);

export type WordTier = 'function' | 'frame' | 'content';

/** The tier of one analysed word, by its surface form (lower-cased, before stemming). */
export function wordTier(surface: string): WordTier {
  const word = surface.toLowerCase();
  if (QUESTION_FRAME_WORDS.has(word)) return 'frame';
  if (ENGLISH_FUNCTION_WORDS.has(word) || CHINESE_FUNCTION_WORDS.has(word)) return 'function';
  if (/^\p{sc=Han}{4,}$/u.test(word) && splitsIntoFunctionWords(word)) return 'function';
  return 'content';
}

/**
 * True when a Chinese word the segmenter kept whole is a run of listed function words of two
 * characters or more (什么时候 = 什么 + 时候). Single characters do not count: 最大 is 最 + 大,
 * both listed, yet it is content.
 */
function splitsIntoFunctionWords(word: string): boolean {
  const ok: boolean[] = [true];
  for (let end = 2; end <= word.length; end++)
    for (let start = end - 2; start >= 0 && !ok[end]; start--)
      if (ok[start] && CHINESE_FUNCTION_WORDS.has(word.slice(start, end))) ok[end] = true;
  return ok[word.length] === true;
}
