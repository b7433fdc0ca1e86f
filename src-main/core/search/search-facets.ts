/**
 * What the filter bar offers (SearchFacets): two aggregate queries over `documents`, never the
 * chunks, so the cost follows the number of documents. Only documents that search reads count:
 * a direct-mode connection's index stays on disk but is searched live, so its count is 0.
 */
import type { ConnectionMode, Platform, SearchFacets } from '@shared/models';
import type { Db } from '../db/database';
import { listTags } from '../index/document-tags';
import { MODIFIED_AT } from './search-filters';

type Queryable = Pick<Db, 'query'>;

interface GroupRow {
  id: string;
  name: string;
  platform: Platform;
  mode: ConnectionMode;
  knowledge_base: string | null;
  documents: string | number;
  oldest: Date | string | null;
  newest: Date | string | null;
}

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

export async function searchFacets(db: Queryable): Promise<SearchFacets> {
  // One row per (connection, knowledge base); a connection without documents still has its row.
  const rows = (
    await db.query<GroupRow>(
      `SELECT k.id, k.name, k.platform, k.mode, g.knowledge_base, COALESCE(g.documents, 0) AS documents, g.oldest, g.newest
       FROM connections k LEFT JOIN (
         SELECT d.connection_id, d.knowledge_base, count(*) AS documents,
                min(${MODIFIED_AT}) AS oldest, max(${MODIFIED_AT}) AS newest
         FROM documents d GROUP BY d.connection_id, d.knowledge_base
       ) g ON g.connection_id = k.id AND k.mode = 'rag'
       ORDER BY k.id, g.knowledge_base`,
    )
  ).rows;
  const connections = new Map<string, SearchFacets['connections'][number]>();
  const platforms = new Map<Platform, number>();
  const knowledgeBases = new Map<string, { documents: number; connectionIds: Set<string> }>();
  let oldest: string | null = null;
  let newest: string | null = null;
  for (const row of rows) {
    const documents = Number(row.documents);
    const connection = connections.get(row.id) ?? {
      id: row.id,
      name: row.name,
      platform: row.platform,
      mode: row.mode,
      documents: 0,
    };
    connection.documents += documents;
    connections.set(row.id, connection);
    platforms.set(row.platform, (platforms.get(row.platform) ?? 0) + documents);
    if (documents > 0 && row.knowledge_base) {
      const kb = knowledgeBases.get(row.knowledge_base) ?? { documents: 0, connectionIds: new Set() };
      kb.documents += documents;
      kb.connectionIds.add(row.id);
      knowledgeBases.set(row.knowledge_base, kb);
    }
    const first = iso(row.oldest);
    const last = iso(row.newest);
    if (first && (!oldest || first < oldest)) oldest = first;
    if (last && (!newest || last > newest)) newest = last;
  }
  const ragIds = [...connections.values()].filter((c) => c.mode === 'rag').map((c) => c.id);
  // Most documents first (what a filter is most often about), then by name: a stable order.
  return {
    connections: [...connections.values()].sort(
      (a, b) => b.documents - a.documents || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
    ),
    platforms: [...platforms]
      .map(([platform, documents]) => ({ platform, documents }))
      .sort((a, b) => b.documents - a.documents || a.platform.localeCompare(b.platform)),
    knowledgeBases: [...knowledgeBases]
      .map(([name, kb]) => ({ name, documents: kb.documents, connectionIds: [...kb.connectionIds] }))
      .sort((a, b) => b.documents - a.documents || a.name.localeCompare(b.name)),
    tags: ragIds.length > 0 ? await listTags(db, ragIds) : [],
    modified: oldest && newest ? { oldest, newest } : null,
  };
}
