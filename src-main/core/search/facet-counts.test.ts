/** The filter bar's counts for one search (facet-counts.ts), on a real database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { ensureActiveSpace } from '../index/embedding-spaces';
import { CountingEmbedder, insertConnection, writeMarkdownDocument } from '../../testing/index-fixtures';
import type { FacetCounts, SearchFilters } from '@shared/models';
import { HybridSearch } from './hybrid-search';

let db: Db;
let search: HybridSearch;
const embedder = new CountingEmbedder();

const DOCS = [
  {
    id: 'e1',
    connection: 'wiki',
    kb: 'Engineering',
    body: 'How we deploy the search service.',
    tags: ['ops'],
  },
  { id: 'e2', connection: 'wiki', kb: 'Engineering', body: 'Deploy checklist for the release.' },
  { id: 'e3', connection: 'wiki', kb: 'Engineering', body: 'Rollback after a failed deploy.' },
  { id: 'f1', connection: 'wiki', kb: 'Finance', body: 'The deploy budget for next year.' },
  {
    id: 'n1',
    connection: 'notes',
    kb: 'notes',
    body: 'A memo about the deploy freeze.',
    tags: ['draft', 'ops'],
  },
  { id: 'n2', connection: 'notes', kb: 'notes', body: 'Holiday plans for the team.', tags: ['draft'] },
  { id: 'p1', connection: 'notes', kb: 'Personal', body: '春节假期安排。', tags: ['假期'] },
];

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
  await insertConnection(db, 'notes');
  await insertConnection(db, 'wiki', { platform: 'feishu' });
  for (const doc of DOCS)
    await writeMarkdownDocument(db, embedder, {
      connectionId: doc.connection,
      externalId: doc.id,
      title: doc.id,
      markdown: doc.body,
      knowledgeBase: doc.kb,
      ...(doc.tags ? { metadata: { tags: doc.tags } } : {}),
    });
  // Words only: in an index this small every document is among the 30 nearest in meaning, so the
  // vector channel would make every document a match.
  search = new HybridSearch({ db, queryEmbedder: () => null });
});
afterAll(async () => {
  await db.close();
});

/** The counts the shown documents give (k=50 shows every candidate of this small index). */
async function tally(filters: SearchFilters = {}): Promise<FacetCounts> {
  const response = await search.search({ query: 'deploy', k: 50, filters });
  expect(response.documents.length).toBe(response.totalDocuments);
  const counts: FacetCounts = { connections: {}, platforms: {}, knowledgeBases: {}, tags: {} };
  const add = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1);
  for (const { best } of response.documents) {
    add(counts.connections, best.connectionId);
    add(counts.platforms, best.platform);
    add(counts.knowledgeBases, best.knowledgeBase);
    for (const tag of DOCS.find((doc) => doc.id === best.externalId)?.tags ?? []) add(counts.tags, tag);
  }
  return counts;
}

describe('filter counts for a search', () => {
  it('counts the documents the query matches, not the whole index, and only when asked', async () => {
    expect((await search.search({ query: 'deploy' })).facetCounts).toBeUndefined();
    const response = await search.search({ query: 'deploy', facetCounts: true });
    expect(response.facetCounts).toEqual(await tally());
    expect(response.facetCounts?.connections).toEqual({ wiki: 4, notes: 1 });
    // A knowledge base and a tag the index holds but no matching document has are not counted.
    const index = await search.facets();
    expect(index.knowledgeBases.map((kb) => kb.name)).toContain('Personal');
    expect(index.tags.map((tag) => tag.tag)).toContain('假期');
    expect(response.facetCounts?.knowledgeBases['Personal']).toBeUndefined();
    expect(response.facetCounts?.tags['假期']).toBeUndefined();
  });

  it('leaves a field’s own filter out of its counts, and applies the others', async () => {
    const byConnection = await search.search({
      query: 'deploy',
      filters: { connectionIds: ['notes'] },
      facetCounts: true,
    });
    const notesOnly = await tally({ connectionIds: ['notes'] });
    expect(byConnection.facetCounts).toEqual({
      ...notesOnly,
      // Ticking wiki as well would add its 4: counted without the connection filter.
      connections: (await tally()).connections,
    });
    expect(byConnection.facetCounts?.connections['wiki']).toBe(4);

    const byKbAndTag = await search.search({
      query: 'deploy',
      filters: { knowledgeBases: ['Engineering'], tags: ['ops'] },
      facetCounts: true,
    });
    expect(byKbAndTag.documents.map((d) => d.best.externalId)).toEqual(['e1']);
    expect(byKbAndTag.facetCounts).toEqual({
      ...(await tally({ knowledgeBases: ['Engineering'], tags: ['ops'] })),
      knowledgeBases: (await tally({ tags: ['ops'] })).knowledgeBases,
      tags: (await tally({ knowledgeBases: ['Engineering'] })).tags,
    });
    expect(byKbAndTag.facetCounts?.knowledgeBases).toEqual({ Engineering: 1, notes: 1 });
  });
});
