/**
 * Which paragraph of a passage best matches a question: shared by the prompt builder (trim around
 * it), the source cards (preview it) and the extractive answer (quote it). Uses the same analyzer
 * as the keyword index so CJK and Latin text match the same way search does.
 */
import { analyze } from '../text/analyzer';
import { queryTerms as analyzeQueryTerms } from '../text/query-terms';

export interface TextSpan {
  text: string;
  /** Offsets into the passage the span came from. */
  start: number;
  end: number;
}

/**
 * The question's content terms (function words such as 的/怎么/what/how left out, by the same
 * lists as search: core/text/stop-words.ts); its question-frame words (原因, 作用) only when it has
 * nothing else.
 */
export function queryTerms(question: string): Set<string> {
  const terms = analyzeQueryTerms(question);
  return new Set(terms.content.length > 0 ? terms.content : terms.frame);
}

/** Distinct query terms present in the text, longer terms counting more (a rough IDF stand-in). */
export function matchScore(text: string, terms: Set<string>): number {
  if (terms.size === 0) return 0;
  const present = new Set(analyze(text));
  let score = 0;
  for (const term of terms) if (present.has(term)) score += Math.min(3, 1 + Math.floor(term.length / 4));
  return score;
}

/** Blank-line separated paragraphs, with offsets; a passage without blank lines is one paragraph. */
export function splitParagraphs(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  const pattern = /[^\n]*\S[^\n]*(?:\n(?![ \t]*\n)[^\n]*)*/g;
  for (const match of text.matchAll(pattern)) {
    const raw = match[0];
    const start = match.index + (raw.length - raw.trimStart().length);
    const trimmed = raw.trim();
    if (trimmed) spans.push({ text: trimmed, start, end: start + trimmed.length });
  }
  return spans;
}

/** Sentences ending in Latin or CJK punctuation (or a line break), with offsets. */
export function splitSentences(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  // A period followed by a non-space ("1.5", "e.g.x") stays inside the sentence.
  for (const match of text.matchAll(/(?:[^。！？!?.\n]|\.(?!\s|$))+(?:[。！？!?]+|\.+|\n|$)/gu)) {
    const raw = match[0];
    const start = match.index + (raw.length - raw.trimStart().length);
    const trimmed = raw.trim();
    if (trimmed) spans.push({ text: trimmed, start, end: start + trimmed.length });
  }
  return spans;
}

/** The index of the best-matching span; the first one on a tie (earlier text is usually the lead). */
export function bestSpanIndex(spans: TextSpan[], terms: Set<string>): number {
  let best = 0;
  let bestScore = -1;
  spans.forEach((span, index) => {
    const score = matchScore(span.text, terms);
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

const HEADING_ONLY = /^#{1,6}[ \t][^\n]*$/;

/**
 * Paragraphs where a heading standing alone is joined to the paragraph under it: a heading names
 * the passage but is not one, and a source card that shows only "# 报销流程" shows nothing.
 */
function paragraphsWithHeadings(text: string): TextSpan[] {
  const spans = splitParagraphs(text);
  const joined: TextSpan[] = [];
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const next = spans[i + 1];
    if (next && HEADING_ONLY.test(span.text)) {
      joined.push({ text: text.slice(span.start, next.end), start: span.start, end: next.end });
      i++;
    } else {
      joined.push(span);
    }
  }
  return joined;
}

/** The paragraph of `text` that best matches the question (the whole text when it has one paragraph). */
export function bestParagraph(text: string, terms: Set<string>): TextSpan {
  const paragraphs = paragraphsWithHeadings(text);
  if (paragraphs.length === 0) return { text: text.trim(), start: 0, end: text.length };
  return paragraphs[bestSpanIndex(paragraphs, terms)]!;
}
