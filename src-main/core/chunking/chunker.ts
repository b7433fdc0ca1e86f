// Hand-written rather than @langchain/textsplitters 1.0.2 (MarkdownTextSplitter, evaluated): it returns
// neither character offsets (only line ranges, and it trims text) nor heading paths, splits on "\n## " even
// inside code fences, knows no CJK sentence ends, emits heading-only crumbs, and needs @langchain/core.
// mdast-util-from-markdown gives offsets but took ~10 s on 5 MB here and lacks tables: see markdown-blocks.ts.
import type { ChunkLocation } from '@shared/models';
import { CairnError } from '../errors';
import { BoundaryScorer } from './boundaries';
import { scanMarkdownBlocks, type MarkdownBlock } from './markdown-blocks';
import { attachBodilessHeadings, buildSections, commonHeadingPath, joinHeadingPath } from './sections';
import { splitLongRange } from './split-long-range';

export interface Chunk {
  /** 0-based position of the chunk in its document. */
  ord: number;
  /** Headings above the chunk, outermost first, joined with " > ", e.g. "Guide > Install > Linux". */
  headingPath: string;
  text: string;
  /**
   * Offsets into the source Markdown: source.slice(charStart, charEnd) === text, except that a
   * piece of a table too long for one chunk starts with the table's header row and delimiter
   * (`tableHeader`, then a line break) so that each piece reads as a table.
   */
  charStart: number;
  charEnd: number;
  /** Page, slide or rows of the original file, set after chunking where the format has them (sync/located-text.ts). */
  location?: ChunkLocation | null;
  /** The repeated header of a split table's later piece (text starts with it); absent otherwise. */
  tableHeader?: string;
}

export interface ChunkOptions {
  /**
   * Largest chunk, in UTF-16 code units (JavaScript string length).
   * @default 1500
   */
  chunkSize?: number;
  /**
   * Characters repeated between consecutive pieces of one section that is longer than `chunkSize`
   * (moved by up to a quarter of itself to start on a word). Must be smaller than `chunkSize`.
   * @default 100, or a quarter of `chunkSize` when that is smaller
   */
  overlap?: number;
}

interface PendingGroup {
  start: number;
  end: number;
  firstPath: string[];
  bodyPaths: string[][];
}

/**
 * Splits Markdown into chunks for indexing and citation. Sections (heading to next heading) that
 * fit stay whole; adjacent small sections are merged while they fit; a section longer than
 * `chunkSize` is cut at block, sentence (incl. 。！？；), line, clause or word edges with overlap.
 * Fenced code and tables that fit in a chunk are never cut. Pure and linear in the input length.
 *
 * A merged chunk's heading path is the part shared by all its sections' paths ("Guide > Install"
 * for "Install > Linux" + "Install > macOS"): it stays true for every character of the chunk,
 * whereas the first section's path would mislabel the rest of it.
 *
 * @example chunkMarkdown('# Guide\n\n## Install\n\nRun it.')
 * // [{ ord: 0, headingPath: 'Guide > Install', text: '# Guide\n\n## Install\n\nRun it.', charStart: 0, charEnd: 28 }]
 */
export function chunkMarkdown(markdown: string, options: ChunkOptions = {}): Chunk[] {
  const { chunkSize, overlap } = resolveOptions(options);
  const blocks = scanMarkdownBlocks(markdown);
  const sections = attachBodilessHeadings(buildSections(blocks));
  const scorer = new BoundaryScorer(markdown, blocks, chunkSize);
  const chunks: Chunk[] = [];

  const tables = blocks.filter((block) => block.kind === 'table');
  const emit = (start: number, end: number, path: string[]): void => {
    const [trimmedStart, trimmedEnd] = trimRange(markdown, start, end);
    if (trimmedStart >= trimmedEnd) return;
    const text = markdown.slice(trimmedStart, trimmedEnd);
    const tableHeader = headerOfTableContinuing(markdown, tables, trimmedStart, chunkSize);
    chunks.push({
      ord: chunks.length,
      headingPath: joinHeadingPath(path),
      text: tableHeader ? `${tableHeader}\n${text}` : text,
      charStart: trimmedStart,
      charEnd: trimmedEnd,
      ...(tableHeader ? { tableHeader } : {}),
    });
  };

  let group: PendingGroup | undefined;
  const flush = (): void => {
    if (group)
      emit(
        group.start,
        group.end,
        group.bodyPaths.length > 0 ? commonHeadingPath(group.bodyPaths) : group.firstPath,
      );
    group = undefined;
  };

  for (const section of sections) {
    const [start, end] = trimRange(markdown, section.start, section.end);
    if (start >= end) continue;
    const bodyPaths = section.hasBody ? [section.headingPath] : [];
    if (end - start > chunkSize) {
      flush();
      for (const piece of splitLongRange(markdown, start, end, { chunkSize, overlap }, scorer))
        emit(piece.start, piece.end, section.headingPath);
    } else if (group && end - group.start <= chunkSize) {
      group.end = end;
      group.bodyPaths.push(...bodyPaths);
    } else {
      flush();
      group = { start, end, firstPath: section.headingPath, bodyPaths };
    }
  }
  flush();
  return chunks;
}

/**
 * The largest chunk text for a chunk size, whatever the document's structure: a piece of the
 * source is at most `chunkSize`, and a split table's repeated header (at most half a chunk, plus
 * its line break) may come on top. A header longer than that (a table 20,000 columns wide has a
 * header of ~200 KB) is not repeated: every piece carrying it made chunks of 170 KB.
 */
export function chunkCeiling(chunkSize: number): number {
  return chunkSize + maxTableHeader(chunkSize) + 1;
}

function maxTableHeader(chunkSize: number): number {
  return Math.floor(chunkSize / 2);
}

/**
 * The header row and delimiter row of the table that `start` falls inside (past its header), or
 * undefined: a piece of a split table repeats them so that it still reads as a table, when they
 * fit in half a chunk.
 */
function headerOfTableContinuing(
  source: string,
  tables: readonly MarkdownBlock[],
  start: number,
  chunkSize: number,
): string | undefined {
  // Tables are in source order: the last one starting before `start` is the only candidate.
  let low = 0;
  let high = tables.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (tables[middle]!.start < start) low = middle;
    else high = middle - 1;
  }
  const table = tables[low];
  if (!table || !(start > table.start && start < table.end)) return undefined;
  const firstBreak = source.indexOf('\n', table.start);
  const secondBreak = firstBreak === -1 ? -1 : source.indexOf('\n', firstBreak + 1);
  if (secondBreak === -1 || start <= secondBreak) return undefined;
  const header = source.slice(table.start, secondBreak).trimEnd();
  return header.length <= maxTableHeader(chunkSize) ? header : undefined;
}

function resolveOptions(options: ChunkOptions): { chunkSize: number; overlap: number } {
  const chunkSize = options.chunkSize ?? 1500;
  const overlap = options.overlap ?? Math.min(100, Math.floor(chunkSize / 4));
  if (!Number.isInteger(chunkSize) || chunkSize < 2) {
    throw new CairnError('INVALID_ARGUMENT', `chunkSize must be an integer of at least 2, got ${chunkSize}.`);
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= chunkSize) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `overlap must be an integer from 0 to chunkSize - 1, got ${overlap}.`,
    );
  }
  return { chunkSize, overlap };
}

function trimRange(source: string, start: number, end: number): [number, number] {
  let from = start;
  let to = end;
  while (from < to && /\s/.test(source[from]!)) from++;
  while (to > from && /\s/.test(source[to - 1]!)) to--;
  return [from, to];
}
