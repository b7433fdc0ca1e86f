/**
 * Text that arrives in located parts (PDF pages, slides, sheet row groups) becomes one normalised
 * document plus the offset where each part starts, and each chunk then learns the location of
 * the parts it covers: "p. 12", or "pp. 12–13" for a passage across a page break.
 * Parts are normalised one by one (never the joined text), so the offsets are exact.
 */
import type { ChunkLocation } from '@shared/models';
import type { Chunk } from '../chunking/chunker';
import type { LocatedPart } from '../connectors/connector';
import { normalizeText } from '../text/normalize';

export interface LocatedText {
  content: string;
  /** Where each part's text starts in `content`, in increasing order. */
  marks: { offset: number; location: ChunkLocation | null }[];
}

const PART_SEPARATOR = '\n\n';

export function joinLocatedParts(parts: LocatedPart[]): LocatedText {
  let content = '';
  const marks: LocatedText['marks'] = [];
  for (const part of parts) {
    const text = normalizeText(part.markdown).replace(/^\s+/, '');
    if (!text) continue;
    if (content) content += PART_SEPARATOR;
    marks.push({ offset: content.length, location: part.location });
    content += text;
  }
  return { content, marks };
}

/** The location at `offset`: that of the last part starting at or before it. */
function locationAt(marks: LocatedText['marks'], offset: number): ChunkLocation | null {
  let low = 0;
  let high = marks.length - 1;
  let found: ChunkLocation | null = null;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const mark = marks[mid]!;
    if (mark.offset <= offset) {
      found = mark.location;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** One location covering a passage that starts in `first` and ends in `last` (same kind), else `first`. */
export function spanLocation(first: ChunkLocation | null, last: ChunkLocation | null): ChunkLocation | null {
  if (!first || !last || first.kind !== last.kind) return first ?? last;
  if (first.kind === 'page' && last.kind === 'page') {
    const end = last.endPage ?? last.page;
    return end > first.page ? { kind: 'page', page: first.page, endPage: end } : { ...first };
  }
  if (first.kind === 'slide' && last.kind === 'slide') {
    const end = last.endSlide ?? last.slide;
    return end > first.slide ? { kind: 'slide', slide: first.slide, endSlide: end } : { ...first };
  }
  if (first.kind === 'rows' && last.kind === 'rows' && first.sheet === last.sheet)
    return { ...first, lastRow: Math.max(first.lastRow, last.lastRow) };
  return first;
}

/** Sets each chunk's `location` from the parts its text covers. */
export function locateChunks(chunks: Chunk[], marks: LocatedText['marks']): Chunk[] {
  if (marks.length === 0) return chunks;
  return chunks.map((chunk) => ({
    ...chunk,
    location: spanLocation(
      locationAt(marks, chunk.charStart),
      locationAt(marks, Math.max(chunk.charStart, chunk.charEnd - 1)),
    ),
  }));
}
