/**
 * The filter bar's counts for one search (SearchResponse.facetCounts): how many of the documents
 * the query matches hold each connection, platform, knowledge base and tag, instead of the whole
 * index's counts (#27 item 9). A field's counts leave its own filter out (the usual faceted-search
 * rule: a ticked value must not make its siblings read 0 when ticking them would add documents);
 * the caller runs the search once more without that field's filter for each field that has one.
 * Live (direct-mode) hits are not counted: the index's facets count them 0 too (search-facets.ts).
 */
import type { FacetCounts, Platform, SearchFilters, SearchRequest } from '@shared/models';
import type { Db } from '../db/database';

type Queryable = Pick<Db, 'query'>;

export type FacetField = keyof FacetCounts;

/** The request keys each counted field is filtered by. */
const FIELD_FILTERS: Record<FacetField, (keyof SearchFilters)[]> = {
  connections: ['connectionIds', 'connectionNames'],
  platforms: ['platforms'],
  knowledgeBases: ['knowledgeBases', 'knowledgeBaseNames'],
  tags: ['tags'],
};

export const FACET_FIELDS = Object.keys(FIELD_FILTERS) as FacetField[];

/** Whether the request filters by this field (an empty list does not filter). */
export function filtersBy(request: SearchRequest, field: FacetField): boolean {
  if (field === 'connections' && request.connectionIds !== undefined) return true;
  return FIELD_FILTERS[field].some((key) => {
    const value = request.filters?.[key];
    return Array.isArray(value) && value.length > 0;
  });
}

/** The same search without this field's filter (one page: only its candidates are counted). */
export function withoutFieldFilter(request: SearchRequest, field: FacetField): SearchRequest {
  const filters = { ...request.filters };
  for (const key of FIELD_FILTERS[field]) delete filters[key];
  const { connectionIds, sort: _sort, ...rest } = request;
  return {
    ...rest,
    k: 1,
    filters,
    ...(field !== 'connections' && connectionIds !== undefined ? { connectionIds } : {}),
  };
}

/** Counts every field over one search's candidate documents (`documentOrder`'s `document:<id>` keys). */
export async function countFacets(
  db: Queryable,
  documentOrder: readonly string[],
  chunks: ReadonlyMap<
    number,
    { document_id: string | number; connection_id: string; knowledge_base: string; platform: Platform }
  >,
): Promise<FacetCounts> {
  const ids = new Set(
    documentOrder
      .filter((key) => key.startsWith('document:'))
      .map((key) => Number(key.slice('document:'.length))),
  );
  const byDocument = new Map<number, { connection_id: string; knowledge_base: string; platform: Platform }>();
  for (const row of chunks.values()) {
    const id = Number(row.document_id);
    if (ids.has(id) && !byDocument.has(id)) byDocument.set(id, row);
  }
  const counts: FacetCounts = { connections: {}, platforms: {}, knowledgeBases: {}, tags: {} };
  const add = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1);
  for (const row of byDocument.values()) {
    add(counts.connections, row.connection_id);
    add(counts.platforms, row.platform);
    if (row.knowledge_base) add(counts.knowledgeBases, row.knowledge_base);
  }
  if (byDocument.size > 0) {
    const tagged = await db.query<{ tag: string; documents: string | number }>(
      `SELECT t.tag, count(*) AS documents
       FROM documents d, jsonb_array_elements_text(
         CASE WHEN jsonb_typeof(d.metadata -> 'tags') = 'array' THEN d.metadata -> 'tags' ELSE '[]'::jsonb END) AS t(tag)
       WHERE d.id = ANY($1::bigint[])
       GROUP BY t.tag`,
      [[...byDocument.keys()]],
    );
    for (const row of tagged.rows) counts.tags[row.tag] = Number(row.documents);
  }
  return counts;
}
