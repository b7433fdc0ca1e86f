/**
 * The search catalogue (search/search-catalog.ts) keeps the connections' names too: a search
 * resolves the names a person or an AI tool types (`cairn search --connection Notes`) and names the
 * connections in its response. So a rename must tell it to read again, like a change of mode.
 */
export const sql = /* sql */ `
DROP TRIGGER connections_search_catalog ON connections;
CREATE TRIGGER connections_search_catalog
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, platform, mode, name ON connections
  FOR EACH STATEMENT EXECUTE FUNCTION notify_search_catalog();
`;
