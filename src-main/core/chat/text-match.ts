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

/**
 * How much each query term counts when matching a paragraph: term -> weight. `sameKey` maps the
 * forms of one key term to its first form, so they count once: "v7.4.0" is indexed as both "v740"
 * and "740", and a paragraph writing "v7.4.0" must not outscore one writing "7.4.0" for it.
 */
export type TermWeights = ReadonlyMap<string, number> & { readonly sameKey?: ReadonlyMap<string, string> };

/**
 * Distinct query terms present in the text, each counting its weight: by default longer terms
 * count more (a rough IDF stand-in); `termWeights` gives real IDF over a set of candidates.
 */
export function matchScore(text: string, terms: Set<string>, weights?: TermWeights): number {
  if (terms.size === 0) return 0;
  const present = new Set(analyze(text));
  const counted = new Set<string>();
  let score = 0;
  for (const term of terms) {
    if (!present.has(term)) continue;
    const key = weights?.sameKey?.get(term) ?? term;
    if (counted.has(key)) continue;
    counted.add(key);
    score += weights?.get(term) ?? Math.min(3, 1 + Math.floor(term.length / 4));
  }
  return score;
}

/**
 * IDF of each query term over candidate paragraphs: a term found in every paragraph (the product
 * name, the document title's words) tells them apart by nothing, a term found in one (an error
 * code, a configuration name) is what the question is about.
 */
export function termWeights(terms: Set<string>, paragraphs: readonly string[]): TermWeights {
  const df = new Map<string, number>();
  for (const paragraph of paragraphs) {
    const present = new Set(analyze(paragraph));
    for (const term of terms) if (present.has(term)) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = paragraphs.length;
  return new Map([...terms].map((term) => [term, Math.log(1 + (n + 1) / ((df.get(term) ?? 0) + 0.5))]));
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
export function bestSpanIndex(spans: TextSpan[], terms: Set<string>, weights?: TermWeights): number {
  let best = 0;
  let bestScore = -1;
  spans.forEach((span, index) => {
    const score = matchScore(span.text, terms, weights);
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
export function paragraphsWithHeadings(text: string): TextSpan[] {
  const spans = splitParagraphs(text);
  const joined: TextSpan[] = [];
  for (let i = 0; i < spans.length; i++) {
    let span = spans[i]!;
    // A heading joins the paragraph under it; a paragraph ending in a colon (or saying
    // "the following"/如下/以下) joins the list, table or code block it introduces ("你可以通过以下方式导出：" then the list); a list item joins its indented
    // body: none of them answers alone.
    while (
      spans[i + 1] &&
      (HEADING_ONLY.test(span.text) ||
        introducesBlock(span.text, spans[i + 1]!.text) ||
        continuesListItem(text, span, spans[i + 1]!))
    ) {
      const next = spans[++i]!;
      span = { text: text.slice(span.start, next.end), start: span.start, end: next.end };
    }
    joined.push(span);
  }
  return joined;
}

/** An indented paragraph after a list item is that item's body ("* Error Number: 8027" then its text). */
function continuesListItem(text: string, item: TextSpan, next: TextSpan): boolean {
  if (!/^(?:[-*+]|\d+[.)])\s/.test(item.text)) return false;
  const lineStart = text.lastIndexOf('\n', next.start - 1) + 1;
  return /^(?: {2,}|\t)$/.test(text.slice(lineStart, next.start));
}

function introducesBlock(paragraph: string, next: string): boolean {
  const introduces = /[:：]\s*$/.test(paragraph) || /\bfollowing\b|如下|以下/i.test(paragraph);
  return introduces && /^(?:[-*+]\s|\d+[.)]\s|\||```|~~~)/.test(next);
}

/** The paragraph of `text` that best matches the question (the whole text when it has one paragraph). */
export function bestParagraph(text: string, terms: Set<string>, weights?: TermWeights): TextSpan {
  const paragraphs = paragraphsWithHeadings(text);
  if (paragraphs.length === 0) return { text: text.trim(), start: 0, end: text.length };
  return paragraphs[bestSpanIndex(paragraphs, terms, weights)]!;
}
