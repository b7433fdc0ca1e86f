/**
 * Which parts of a text to mark for a query: the query's own words, whole. Chinese has no spaces,
 * so Han runs are segmented into words; function words are left out by the lists the keyword
 * search drops (core/text/stop-words.ts: stopwords-iso `zh`, `stopword` `eng`), so what is lit is
 * what was searched for, never 的 or "the".
 */
import { eng } from 'stopword';
import { zh } from 'stopwords-iso';

const HAN = /\p{Script=Han}/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

/** stopwords-iso `zh` (怎么, 什么, 多少, 的, 是, and every single function character) plus 是否, as the keyword search. */
const HAN_FUNCTION_WORDS = new Set([...zh, '是否']);
/** Particles and pronouns: never part of a query word, even when the whole query is one character. */
const HAN_PARTICLES = new Set([...'的了着是在和与及或把被也都就吗呢吧啊这那我你']);

/** English function words: "How do we…" must not light every "do" and "we" (nor "Do" in "Document"). */
const LATIN_STOP_WORDS = new Set([
  ...eng.map((word) => word.toLowerCase()),
  ...'a an and are as at be by can do does did for from how i in is it its of on or our the to we what when where which who why with you your'.split(
    ' ',
  ),
]);

function latinTerm(word: string): string | null {
  return word.length > 1 && !LATIN_STOP_WORDS.has(word.toLowerCase()) ? word : null;
}

/**
 * The words of an unspaced run holding Han. The segmenter splits a word it does not know into
 * single characters, and often the word it knows from a suffix (默认值 = 默认 + 值, 赵敏 = 赵 + 敏):
 * a character it left alone joins the word before it, and a lone leading character the word after
 * it, so the query word is lit whole (默认值, never 默认 of it). A character alone is a term only
 * when it is the whole query.
 */
function hanRunTerms(part: string, segmenter: Intl.Segmenter | null, wholeQuery: boolean): string[] {
  if (!segmenter) return [part];
  const words = [...segmenter.segment(part)].filter((segment) => segment.isWordLike).map((s) => s.segment);
  const terms: string[] = [];
  // The word being built, and whether it is still one lone character (which a following word takes in).
  let group = '';
  let groupIsOneLoneCharacter = false;
  const flush = () => {
    if ([...group].length > 1 || (wholeQuery && words.length === 1 && group && !HAN_PARTICLES.has(group)))
      terms.push(group);
    group = '';
    groupIsOneLoneCharacter = false;
  };
  for (const word of words) {
    if (!HAN.test(word)) {
      flush();
      const term = latinTerm(word);
      if (term) terms.push(term);
    } else if (HAN_FUNCTION_WORDS.has(word) || HAN_PARTICLES.has(word)) {
      flush();
    } else if ([...word].length === 1) {
      groupIsOneLoneCharacter = group === '';
      group += word;
    } else if (groupIsOneLoneCharacter) {
      group += word;
      groupIsOneLoneCharacter = false;
    } else {
      flush();
      group = word;
    }
  }
  flush();
  // Nothing but listed characters (分区时区 is 分 + 区 + 时 + 区 to the segmenter): the run without its particles.
  if (terms.length === 0 && words.length > 1) {
    for (const run of part.split(new RegExp(`[${[...HAN_PARTICLES].join('')}\\P{Script=Han}]+`, 'u')))
      if ([...run].length > 1) terms.push(run);
  }
  return terms;
}

export function highlightTerms(query: string): string[] {
  const terms = new Set<string>();
  const segmenter =
    typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('zh', { granularity: 'word' }) : null;
  const parts = query
    .split(/\s+/)
    .map((raw) => raw.replace(EDGE_PUNCTUATION, ''))
    .filter(Boolean);
  for (const part of parts) {
    if (HAN.test(part)) for (const term of hanRunTerms(part, segmenter, parts.length === 1)) terms.add(term);
    else {
      const term = latinTerm(part);
      if (term) terms.add(term);
    }
  }
  return [...terms].sort((a, b) => b.length - a.length);
}

export interface TextPiece {
  text: string;
  match: boolean;
}

export function splitByTerms(text: string, terms: string[]): TextPiece[] {
  if (terms.length === 0) return [{ text, match: false }];
  const pattern = new RegExp(`(${terms.map(termPattern).join('|')})`, 'giu');
  return text
    .split(pattern)
    .filter((piece) => piece !== '')
    .map((piece) => ({
      text: piece,
      match: terms.some((term) => term.toLowerCase() === piece.toLowerCase()),
    }));
}

/**
 * Han terms match anywhere (no spaces between words). A Latin term is a whole word, or the word
 * with an English ending the keyword search's stemmer also folds ("API" lights "APIs", "limit"
 * lights "limiting"), never the start of a longer word ("Raft" not in "Raftstore", "do" not in
 * "Document") nor its end ("limit" not in "unlimited").
 */
const LATIN_WORD = '[\\p{Script=Latin}\\p{N}]';

function termPattern(term: string): string {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (HAN.test(term)) return escaped;
  // Han characters are letters too, but "VPN" in "使用VPN连接" is still a word of its own.
  const start = /^[\p{L}\p{N}]/u.test(term) ? `(?<!${LATIN_WORD})` : '';
  const endings = [...term].length <= 3 ? 's|es' : 's|es|ed|ing';
  const end = /[\p{L}\p{N}]$/u.test(term) ? `(?=(?:${endings})?(?!${LATIN_WORD}))` : '';
  return `${start}${escaped}${end}`;
}
