/**
 * What text stands for a chunk, in one place for every writer (sync, re-embed): the document
 * title and heading path give a chunk its context ("Install" under "Guide > Linux"), which both
 * the embedder and the keyword channel need to match questions that name the document.
 */
import { toSearchText } from '../text/analyzer';
import type { DocumentMetadata } from '../text/clean-markdown';

export interface ChunkContext {
  title: string;
  headingPath: string;
  text: string;
}

/** The text given to the embedder for a chunk (kind 'document'). */
export function embeddingInput(chunk: ChunkContext): string {
  return [chunk.title.trim(), chunk.headingPath.trim(), chunk.text.trim()]
    .filter((part) => part.length > 0)
    .join('\n\n');
}

/**
 * The analysed keyword text stored in `chunks.search_text`: the analysis of the embedder's input
 * (the same tokens as title, heading path and text analysed apart, since whitespace only separates),
 * so an embedder that analyses its input anyway can hand it back (EmbedResult.keywordTexts).
 */
export function keywordInput(chunk: ChunkContext & { metadata?: string }): string {
  return withKeywordExtras(toSearchText(embeddingInput(chunk)), chunk);
}

/**
 * A chunk's keyword text (keywordInput's analysis of the embedder's input, or the embedder's own
 * EmbedResult.keywordTexts) with what only the keyword channel gets: the chunk's own headings once
 * more (a field boost BM25 over one column cannot express: in a reference page of many small
 * sections, the one headed `tidb_mem_quota_query` defines it, the others only mention it) and its
 * document's metadata text.
 */
export function withKeywordExtras(searchText: string, chunk: { text: string; metadata?: string }): string {
  const parts = [searchText];
  const headings = chunk.text.match(HEADING_LINES);
  if (headings) parts.push(toSearchText(headings.join('\n')));
  if (chunk.metadata) parts.push(toSearchText(chunk.metadata));
  return parts.filter(Boolean).join(' ');
}

const HEADING_LINES = /^ {0,3}#{1,6}[ \t]+.+$/gm;

/** The searchable text of a document's front matter metadata: tags, aliases, summary. */
export function metadataText(metadata: DocumentMetadata | undefined): string {
  if (!metadata) return '';
  return [...(metadata.tags ?? []), ...(metadata.aliases ?? []), metadata.summary ?? ''].join('\n').trim();
}
