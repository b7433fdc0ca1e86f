/** Indexed documents as the preview, listings and MCP read them. */
import type { Platform } from './connections';

/** One chunk of an indexed document: where it sits in the document's Markdown. */
export interface DocumentChunkView {
  id: number;
  /** 0-based position in the document. */
  ord: number;
  headingPath: string;
  /** Offsets into `DocumentView.markdown`: `markdown.slice(charStart, charEnd)` is the chunk's text. */
  charStart: number;
  charEnd: number;
}

/** A document's front matter as the index keeps it (searchable, never body text). */
export interface DocumentMetadataView {
  title?: string;
  tags?: string[];
  aliases?: string[];
  summary?: string;
}

/** A heading (or title) from an indexed document, offered as a search to try or a question to ask. */
export interface DocumentTopic {
  text: string;
  documentId: number;
  /** The document it comes from. */
  title: string;
}

/** A document as the index holds it (`documents.get`): the in-app preview and MCP's fetch read it. */
export interface DocumentView {
  id: number;
  connectionId: string;
  externalId: string;
  title: string;
  platform: Platform;
  knowledgeBase: string;
  url: string | null;
  /** When the platform (or the file system) last changed it, when known. */
  updatedAt: string | null;
  indexedAt: string;
  /**
   * The Markdown the index holds (what was chunked and searched: site-generator markup and front
   * matter removed, core/text/clean-markdown.ts), not the platform's live copy.
   */
  markdown: string;
  /** Front matter metadata (tags for a tag filter, aliases, summary); {} when the document had none. */
  metadata: DocumentMetadataView;
  /** In document order. */
  chunks: DocumentChunkView[];
}

/** A document in a listing (`documents.list`): what MCP resources and listings show, without its text. */
export type DocumentSummary = Omit<DocumentView, 'markdown' | 'chunks'> & { chunkCount: number };

export interface DocumentPage {
  documents: DocumentSummary[];
  /** How many documents match in all (the page is `documents`). */
  total: number;
}
