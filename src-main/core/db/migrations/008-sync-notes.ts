/**
 * What a run did not index without failing: deferred documents (the platform's request limit or
 * quota stopped the run before them; the next sync takes them) and skipped items (kinds Cairn
 * cannot turn into text, counted per kind). The run keeps the per-document notes; the connection
 * keeps the last run's counts, so its card can say "1,800 documents wait for the next sync" and
 * "12 sheets skipped" without loading the run.
 */
export const sql = /* sql */ `
ALTER TABLE sync_runs ADD COLUMN notes jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE sync_runs ADD COLUMN skipped_kinds jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE connections ADD COLUMN sync_deferred integer NOT NULL DEFAULT 0;
ALTER TABLE connections ADD COLUMN sync_skipped jsonb NOT NULL DEFAULT '{}'::jsonb;
`;
