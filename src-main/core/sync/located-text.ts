/**
 * Text that arrives in located parts (PDF pages, slides, sheet row groups) becomes one normalised
 * document plus the offset where each part starts. Each part is chunked on its own, so a passage
 * never straddles two pages and its card can say "p. 12" (merging a short page into the next
 * would make every citation of it "pp. 11–12"). Parts are normalised one by one (never the
 * joined text), so the offsets are exact.
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

/** Chunks each part on its own; offsets point into the joined content, ords run across parts. */
export function chunkLocated(located: LocatedText, chunk: (markdown: string) => Chunk[]): Chunk[] {
  const chunks: Chunk[] = [];
  located.marks.forEach((mark, index) => {
    const end = index + 1 < located.marks.length ? located.marks[index + 1]!.offset : located.content.length;
    for (const piece of chunk(located.content.slice(mark.offset, end)))
      chunks.push({
        ...piece,
        ord: chunks.length,
        charStart: piece.charStart + mark.offset,
        charEnd: piece.charEnd + mark.offset,
        location: mark.location,
      });
  });
  return chunks;
}
