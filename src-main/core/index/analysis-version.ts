/**
 * The version of what indexing derives from a document's text: markup cleaning and front matter
 * (core/text/clean-markdown.ts), chunking (core/chunking) and keyword analysis (core/text). Raise
 * it with any change that alters stored chunks or `chunks.search_text`: every document written
 * under a lower version is then re-fetched and rewritten by its connection's next sync (see
 * change-detection.ts), so an upgraded app never searches text analysed the old way for longer
 * than one sync. Version 1: cleaned Markdown, front matter metadata, whole identifiers, table
 * headers repeated in split tables (docs/decisions/retrieval-on-real-documents.md).
 */
export const ANALYSIS_VERSION = 1;
