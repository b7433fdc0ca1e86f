/**
 * Where each chunk sits in its original file (src-shared/models.ts ChunkLocation: a PDF page
 * range, a slide range, a sheet's rows), so a source card can say "p. 12" and "Open original"
 * can open that page. jsonb rather than a page column: slides and sheet rows are locations too,
 * and only the UI interprets them. Null for formats without one (Markdown, platform documents).
 */
export const sql = /* sql */ `
ALTER TABLE chunks ADD COLUMN location jsonb;
`;
