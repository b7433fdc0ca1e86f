/** Which parts of a text to mark for a query. Chinese has no spaces, so Han runs are segmented into words. */
const HAN = /\p{Script=Han}/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

/** Question words and particles: marking them would light up half of any Chinese text. */
const HAN_STOP_WORDS = new Set([
  '什么',
  '怎么',
  '怎样',
  '如何',
  '为什么',
  '哪些',
  '哪个',
  '是否',
  '可以',
  '需要',
  '我们',
  '你们',
  '他们',
  '这个',
  '那个',
  '一个',
]);

/**
 * Han words of a run: the segmenter's multi-character words, and runs of single characters it
 * could not join (a name like 赵敏 comes out as 赵 + 敏) put back together. A lone character is
 * kept only when it is the whole query.
 */
function hanTerms(part: string, segmenter: Intl.Segmenter | null): string[] {
  if (!segmenter) return [part];
  const words = [...segmenter.segment(part)]
    .filter((segment) => segment.isWordLike)
    .map((segment) => segment.segment);
  if (words.length === 1) return words;
  const terms: string[] = [];
  let singles = '';
  const flush = () => {
    if ([...singles].length > 1) terms.push(singles);
    singles = '';
  };
  for (const word of words) {
    if ([...word].length === 1 && HAN.test(word)) singles += word;
    else {
      flush();
      if (!HAN_STOP_WORDS.has(word) && ([...word].length > 1 || !HAN.test(word))) terms.push(word);
    }
  }
  flush();
  return terms;
}

/** English function words: "How do we…" must not light every "do" and "we" (nor "Do" in "Document"). */
const LATIN_STOP_WORDS = new Set(
  'a an and are as at be by can do does did for from how i in is it its of on or our the to we what when where which who why with you your'.split(
    ' ',
  ),
);

export function highlightTerms(query: string): string[] {
  const terms = new Set<string>();
  const segmenter =
    typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('zh', { granularity: 'word' }) : null;
  for (const raw of query.split(/\s+/)) {
    const part = raw.replace(EDGE_PUNCTUATION, '');
    if (!part) continue;
    if (HAN.test(part)) for (const term of hanTerms(part, segmenter)) terms.add(term);
    else if (part.length > 1 && !LATIN_STOP_WORDS.has(part.toLowerCase())) terms.add(part);
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
 * Han terms match anywhere (no spaces between words). A Latin term starts a word, and a short one
 * (three letters or fewer) is the whole word or its plural: "API" lights "APIs" but "do" never the
 * start of "Document"; a longer one may end inside a word ("limit" lights "limiting").
 */
const LATIN_WORD = '[\\p{Script=Latin}\\p{N}]';

function termPattern(term: string): string {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (HAN.test(term)) return escaped;
  // Han characters are letters too, but "VPN" in "使用VPN连接" is still a word of its own.
  const start = /^[\p{L}\p{N}]/u.test(term) ? `(?<!${LATIN_WORD})` : '';
  const end = [...term].length <= 3 ? `(?=(?:s|es)?(?!${LATIN_WORD}))` : '';
  return `${start}${escaped}${end}`;
}
