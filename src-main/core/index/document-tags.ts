/**
 * Front matter tags as stored in documents.metadata (migration 6), for a tag filter: the tags
 * of the index with their document counts, and the documents carrying one. The GIN index on
 * `metadata -> 'tags'` answers the `?` test.
 */
import type { Db } from '../db/database';

type Queryable = Pick<Db, 'query'>;

export async function listTags(
  db: Queryable,
  connectionIds: string[] | null = null,
): Promise<{ tag: string; documents: number }[]> {
  const rows = await db.query<{ tag: string; documents: string | number }>(
    `SELECT t.tag, count(*) AS documents
     FROM documents d, jsonb_array_elements_text(
       CASE WHEN jsonb_typeof(d.metadata -> 'tags') = 'array' THEN d.metadata -> 'tags' ELSE '[]'::jsonb END) AS t(tag)
     WHERE $1::text[] IS NULL OR d.connection_id = ANY($1::text[])
     GROUP BY t.tag ORDER BY count(*) DESC, t.tag`,
    [connectionIds],
  );
  return rows.rows.map((r) => ({ tag: r.tag, documents: Number(r.documents) }));
}

export async function documentsWithTag(db: Queryable, tag: string): Promise<number[]> {
  const rows = await db.query<{ id: string | number }>(
    `SELECT id FROM documents WHERE metadata -> 'tags' ? $1 ORDER BY id`,
    [tag],
  );
  return rows.rows.map((r) => Number(r.id));
}
