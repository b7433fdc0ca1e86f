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
  const text = toSearchText(embeddingInput(chunk));
  return chunk.metadata ? `${text} ${toSearchText(chunk.metadata)}`.trim() : text;
}

/** A chunk's keyword text with its document's metadata text analysed after it (none: unchanged). */
export function withMetadata(searchText: string, metadata: string): string {
  return metadata ? `${searchText} ${toSearchText(metadata)}`.trim() : searchText;
}

/** The searchable text of a document's front matter metadata: tags, aliases, summary. */
export function metadataText(metadata: DocumentMetadata | undefined): string {
  if (!metadata) return '';
  return [...(metadata.tags ?? []), ...(metadata.aliases ?? []), metadata.summary ?? ''].join('\n').trim();
}
