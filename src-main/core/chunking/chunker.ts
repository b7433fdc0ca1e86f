// PLACEHOLDER until the chunker lands (issue #2): splits on blank lines only. Interface is final.
export interface Chunk {
  /** 0-based position of the chunk in its document. */
  ord: number;
  /** Headings above the chunk, outermost first, joined with " > ", e.g. "Guide > Install > Linux". */
  headingPath: string;
  text: string;
  /** Offsets into the source Markdown: source.slice(charStart, charEnd) === text. */
  charStart: number;
  charEnd: number;
}

export interface ChunkOptions {
  /** @default 1500 */
  chunkSize?: number;
  /** @default 100 */
  overlap?: number;
}

export function chunkMarkdown(markdown: string, options: ChunkOptions = {}): Chunk[] {
  const size = options.chunkSize ?? 1500;
  const chunks: Chunk[] = [];
  for (let start = 0; start < markdown.length; start += size) {
    const end = Math.min(markdown.length, start + size);
    const text = markdown.slice(start, end);
    if (text.trim()) chunks.push({ ord: chunks.length, headingPath: '', text, charStart: start, charEnd: end });
  }
  return chunks;
}
