/**
 * What every search reads before its channels (the connections' modes and the active embedding
 * space) is kept between searches (search/search-catalog.ts). These triggers tell it when to read
 * again: a NOTIFY on `cairn_search_catalog` after any statement that adds, removes or re-modes a
 * connection or writes index_meta (where the active space is registered). Postgres sends it at
 * commit and never for a rolled-back transaction, whichever code path wrote, so no writer has to
 * remember to invalidate anything. A sync's status updates do not touch `mode` and fire nothing.
 */
export const sql = /* sql */ `
CREATE FUNCTION notify_search_catalog() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cairn_search_catalog', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
CREATE TRIGGER connections_search_catalog
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, platform, mode ON connections
  FOR EACH STATEMENT EXECUTE FUNCTION notify_search_catalog();
CREATE TRIGGER index_meta_search_catalog
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE ON index_meta
  FOR EACH STATEMENT EXECUTE FUNCTION notify_search_catalog();
`;
