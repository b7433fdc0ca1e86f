/** Which parts of a text to mark for a query. Chinese has no spaces, so Han runs are segmented into words. */
const HAN = /\p{Script=Han}/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

export function highlightTerms(query: string): string[] {
  const terms = new Set<string>();
  const segmenter =
    typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('zh', { granularity: 'word' }) : null;
  for (const raw of query.split(/\s+/)) {
    const part = raw.replace(EDGE_PUNCTUATION, '');
    if (!part) continue;
    if (HAN.test(part) && segmenter) {
      const words = [...segmenter.segment(part)]
        .filter((segment) => segment.isWordLike)
        .map((segment) => segment.segment);
      // Single Han characters (的, 是…) would light up half the text; keep them only when they are the whole query.
      for (const word of words) if ([...word].length > 1 || words.length === 1) terms.add(word);
    } else if (part.length > 1 || HAN.test(part)) {
      terms.add(part);
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
  const pattern = new RegExp(
    `(${terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`,
    'giu',
  );
  return text
    .split(pattern)
    .filter((piece) => piece !== '')
    .map((piece) => ({
      text: piece,
      match: terms.some((term) => term.toLowerCase() === piece.toLowerCase()),
    }));
}
