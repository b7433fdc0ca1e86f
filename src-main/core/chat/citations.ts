/**
 * After an answer is streamed, its [n] markers are checked against the sources actually given:
 * valid ones are normalised to plain [n] and become source cards; a marker that points to no
 * source is removed (and reported), so the UI never shows a link to nothing.
 */
import { headingPathAt } from '@shared/heading-at';
import type { SourceCard } from '@shared/models';
import { sectionUrl } from '../search/search-hits';
import type { PromptSource } from './prompt-builder';
import { matchScore, paragraphsWithHeadings, queryTerms, termWeights, type TextSpan } from './text-match';

export interface CitationCheck {
  /** The answer with valid markers as [n][m] and invalid ones removed. */
  text: string;
  /** Valid source numbers, in order of first use. */
  cited: number[];
  /** Numbers that pointed to no source, in order of appearance. */
  dropped: number[];
}

/**
 * A marker: [1], [1, 2], [1-3], [1][2], full-width ［１］ or 【1】, optionally "[source 1]".
 * Not followed by "(" so Markdown links like [1](https://...) stay links.
 */
const MARKER =
  /[[［【]\s*(?:(?:source|src|来源|资料)\s*)?([0-9０-９]+(?:\s*(?:[,，、;；]|[-–—~～])\s*[0-9０-９]+)*)\s*[\]］】](?![(（])/giu;
/** Code is left alone: `arr[0]` is an index, not a citation. */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
/** Ranges wider than this are read as two numbers, not expanded ("[1-2024]" is no citation list). */
const MAX_RANGE = 20;

export function validateCitations(text: string, sourceCount: number): CitationCheck {
  const cited: number[] = [];
  const dropped: number[] = [];
  let out = '';
  let last = 0;
  for (const code of text.matchAll(CODE)) {
    out += checkProse(text.slice(last, code.index), sourceCount, cited, dropped) + code[0];
    last = code.index + code[0].length;
  }
  out += checkProse(text.slice(last), sourceCount, cited, dropped);
  return { text: out, cited, dropped };
}

function checkProse(prose: string, sourceCount: number, cited: number[], dropped: number[]): string {
  let out = '';
  let last = 0;
  for (const match of prose.matchAll(MARKER)) {
    const before = prose.slice(last, match.index);
    last = match.index + match[0].length;
    const valid: number[] = [];
    for (const n of parseList(match[1]!)) {
      if (n >= 1 && n <= sourceCount) {
        if (!valid.includes(n)) valid.push(n);
        if (!cited.includes(n)) cited.push(n);
      } else {
        dropped.push(n);
      }
    }
    if (valid.length > 0) {
      out += before + valid.map((n) => `[${n}]`).join('');
    } else {
      // The whole marker goes, with the space before it, so "fast [7]." reads "fast." (unless
      // another marker follows: "agree [0][3]" reads "agree [3]").
      const nextIsMarker = /^[[［【]/.test(prose.slice(last));
      out += nextIsMarker ? before : before.replace(/[ \t]+$/, '');
    }
  }
  return out + prose.slice(last);
}

function parseList(list: string): number[] {
  const ascii = list.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  const numbers: number[] = [];
  for (const part of ascii.split(/\s*[,，、;；]\s*/)) {
    const range = /^(\d+)\s*[-–—~～]\s*(\d+)$/.exec(part);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (to >= from && to - from <= MAX_RANGE) for (let n = from; n <= to; n++) numbers.push(n);
      else numbers.push(from, to);
    } else if (part) {
      numbers.push(Number(part));
    }
  }
  return numbers;
}

/**
 * The answer's words that cite source `n`: for each [n], the sentence it closes (back to the
 * previous sentence end; "… 96MiB [1]。" and "… 96MiB。[1]" alike).
 */
function claimsCiting(answer: string, n: number): string {
  const claims: string[] = [];
  const marker = `[${n}]`;
  for (let at = answer.indexOf(marker); at !== -1; at = answer.indexOf(marker, at + marker.length)) {
    const before = answer.slice(0, at).replace(/(?:\[\d+\]|[\s。！？!?.])+$/u, '');
    claims.push(/[^。！？!?\n]*$/u.exec(before)![0]);
  }
  return claims.join('\n');
}

/**
 * The paragraph of a source the answer used. Before the answer, a source's paragraph is the one
 * that best matches the question; once the model has cited it, the sentences citing [n] say which
 * paragraph they came from: "Region 分裂的阈值由 region-split-size 决定 [1]" used the
 * region-split-size block, though the question matched the region-max-size block beside it as
 * well (#27 item 7). Only paragraphs the model was shown compete (its excerpt), and the question's
 * paragraph is kept unless another matches the citing sentences strictly better.
 */
export function paragraphUsedByAnswer(source: PromptSource, answer: string): TextSpan {
  const terms = queryTerms(claimsCiting(answer, source.n));
  if (terms.size === 0) return source.paragraph;
  const shown = paragraphsWithHeadings(source.hit.text).filter((paragraph) =>
    source.excerpt.includes(paragraph.text),
  );
  if (shown.length < 2) return source.paragraph;
  const weights = termWeights(
    terms,
    shown.map((paragraph) => paragraph.text),
  );
  let best = source.paragraph;
  let bestScore = matchScore(source.paragraph.text, terms, weights);
  for (const paragraph of shown) {
    const score = matchScore(paragraph.text, terms, weights);
    if (score > bestScore) [best, bestScore] = [paragraph, score];
  }
  return best;
}

const PREVIEW_CHARS = 600;

/** What the UI shows for a source, with enough to open the exact paragraph. */
export function toSourceCard(source: PromptSource): SourceCard {
  const { hit, paragraph } = source;
  // Chunk text is source.slice(charStart, charEnd), so the paragraph's own offsets can be derived;
  // when the hit text is not the exact slice (a snippet), the chunk's offsets are kept.
  const exactSlice =
    hit.charStart !== null && hit.charEnd !== null && hit.charEnd - hit.charStart === hit.text.length;
  const preview =
    paragraph.text.length > PREVIEW_CHARS
      ? `${paragraph.text.slice(0, PREVIEW_CHARS).trimEnd()}…`
      : paragraph.text;
  return {
    n: source.n,
    title: hit.title,
    platform: hit.platform,
    knowledgeBase: hit.knowledgeBase,
    connectionId: hit.connectionId,
    documentId: hit.documentId,
    externalId: hit.externalId,
    // Labelled and linked by the paragraph's own nearest heading: a merged chunk's path names only
    // what its sections share.
    url: sectionUrl(
      { url: hit.url, platform: hit.platform, heading_path: hit.headingPath, content: hit.text },
      paragraph.start,
    ),
    headingPath: headingPathAt(hit.text, paragraph.start, hit.headingPath),
    paragraph: preview || hit.text.slice(0, PREVIEW_CHARS),
    charStart: exactSlice ? hit.charStart! + paragraph.start : hit.charStart,
    charEnd: exactSlice ? hit.charStart! + paragraph.end : hit.charEnd,
    ...(hit.location ? { location: hit.location } : {}),
    ...(hit.freshness ? { freshness: hit.freshness } : {}),
  };
}

/** Cards of the sources the answer cites, in source order. */
export function citedCards(cards: SourceCard[], cited: number[]): SourceCard[] {
  const wanted = new Set(cited);
  return cards.filter((card) => wanted.has(card.n));
}
