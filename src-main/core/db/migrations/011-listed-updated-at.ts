/**
 * A platform's modified time as the latest listing reported it, kept when it is newer than the
 * indexed copy's (remote_updated_at) and the copy could not be read again yet (the fetch failed or
 * was deferred): a search result then says its source changed since (search/freshness.ts).
 */
export const sql = /* sql */ `
ALTER TABLE documents ADD COLUMN listed_updated_at timestamptz;
`;
