/**
 * Document metadata from front matter (aliases, tags, summary: core/text/clean-markdown.ts),
 * searchable through the first chunk's keyword text and kept here for filters (a tag filter: the
 * GIN index answers `metadata->'tags' ? 'x'`). `analysis_version` is the index's version of the
 * cleaning, chunking and analysis that produced a document's rows: a document below the app's
 * ANALYSIS_VERSION (core/index/analysis-version.ts) is fetched and rewritten by its next sync
 * even when its revision and content are unchanged. Rows from before this migration are 0.
 */
export const sql = /* sql */ `
ALTER TABLE documents ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE documents ADD COLUMN analysis_version integer NOT NULL DEFAULT 0;
CREATE INDEX documents_metadata_tags ON documents USING gin ((metadata -> 'tags'));
`;
