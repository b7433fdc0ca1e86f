import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectHit } from '../connectors/connector';
import { openDatabase, type Db } from '../db/database';
import { ensureActiveSpace } from '../index/embedding-spaces';
import { CountingEmbedder, insertConnection, writeMarkdownDocument } from '../../testing/index-fixtures';
import { HybridSearch } from './hybrid-search';
import { retrieveFromIndex } from './index-retrieval';
import { prepareQuery } from './query-text';
import { searchFacets } from './search-facets';

let db: Db;
let search: HybridSearch;
const embedder = new CountingEmbedder();
const ids = new Map<string, number>();
const liveCalls: string[] = [];
const LIVE_HITS: DirectHit[] = [
  { externalId: 'l1', title: 'Deploy checklist (live)', snippet: 'deploy', url: null, knowledgeBase: 'Ops' },
  { externalId: 'l2', title: 'Deploy notes (live)', snippet: 'deploy', url: null, knowledgeBase: 'Finance' },
];

interface Doc {
  connection: string;
  kb: string;
  title: string;
  body: string;
  modified: string | null;
  tags?: string[];
}

// 40 documents in Engineering match "deploy checklist" far better than the one Finance document:
// a filter applied after ranking would find nothing in Finance.
const DOCS: Record<string, Doc> = {
  ...Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [
      `eng${i}`,
      {
        connection: 'wiki',
        kb: 'Engineering',
        title: `Deploy checklist ${i}`,
        body: `Deploy checklist: deploy to production, run the deploy checklist, deploy again. Step ${i}.`,
        modified: '2026-01-05T10:00:00Z',
      },
    ]),
  ),
  finance: {
    connection: 'wiki',
    kb: 'Finance',
    title: 'Quarterly budget',
    body: 'The quarterly budget review covers travel, hardware and the yearly audit. We deploy it once.',
    modified: '2025-06-01T00:00:00Z',
  },
  roadmap: {
    connection: 'notes',
    kb: 'notes',
    title: 'Roadmap',
    body: 'Roadmap for the deploy of the new search, with milestones.',
    modified: '2024-03-01T00:00:00Z',
    tags: ['项目/规划', 'Roadmap'],
  },
  draft: {
    connection: 'notes',
    kb: 'notes',
    title: 'Draft deploy memo',
    body: 'A draft memo about how we deploy.',
    modified: null,
    tags: ['#draft'],
  },
};

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
  await insertConnection(db, 'notes');
  await insertConnection(db, 'wiki', { platform: 'feishu' });
  await insertConnection(db, 'live', { platform: 'yuque', mode: 'direct' });
  for (const [externalId, doc] of Object.entries(DOCS)) {
    await writeMarkdownDocument(db, embedder, {
      connectionId: doc.connection,
      externalId,
      title: doc.title,
      markdown: doc.body,
      knowledgeBase: doc.kb,
      remoteUpdatedAt: doc.modified,
      ...(doc.tags ? { metadata: { tags: doc.tags } } : {}),
    });
  }
  for (const row of (
    await db.query<{ id: number; external_id: string }>('SELECT id, external_id FROM documents')
  ).rows)
    ids.set(row.external_id, Number(row.id));
  // The draft has no modified time of its own (like a Tencent IMA document): its indexed time stands in.
  await db.query(`UPDATE documents SET indexed_at = '2023-05-05T00:00:00Z' WHERE external_id = 'draft'`);
  search = new HybridSearch({
    db,
    queryEmbedder: () => embedder,
    directSources: () => [
      {
        connectionId: 'live',
        platform: 'yuque',
        knowledgeBaseFallback: 'live',
        search: async (query) => {
          liveCalls.push(query);
          return LIVE_HITS;
        },
      },
    ],
  });
});
afterAll(async () => {
  await db.close();
});

async function titles(filters: object, query = 'deploy checklist', k = 10): Promise<string[]> {
  const response = await search.search({ query, k, filters });
  return response.documents.map((d) => d.best.externalId).sort();
}

describe('search filters', () => {
  it('applies a knowledge base filter inside both channels: the one Finance document is found', async () => {
    const query = prepareQuery('deploy checklist')!;
    const finance = ids.get('finance')!;
    const financeChunk = Number(
      (await db.query<{ id: number }>('SELECT id FROM chunks WHERE document_id = $1', [finance])).rows[0]!.id,
    );
    // Unfiltered, neither channel's top 30 reaches it: a post-filter would come back empty.
    const { active } = await import('../index/embedding-spaces').then((m) => m.readSpaces(db));
    const retrieve = (scope: { connectionIds: null; documentIds: number[] } | null) =>
      retrieveFromIndex(db, {
        query,
        scope,
        vector: { space: active!, queryVector: embedder.vector(query.text) },
      });
    const unfiltered = await retrieve(null);
    expect(unfiltered.keyword).not.toContain(financeChunk);
    expect(unfiltered.vector).not.toContain(financeChunk);
    const filtered = await retrieve({ connectionIds: null, documentIds: [finance] });
    expect([filtered.keyword, filtered.vector]).toEqual([[financeChunk], [financeChunk]]);

    const response = await search.search({
      query: 'deploy checklist',
      k: 5,
      filters: { knowledgeBases: ['Finance'] },
    });
    expect(
      response.documents.map((d) => [d.best.externalId, d.best.ranks.keyword, d.best.ranks.vector]),
    ).toEqual([
      ['finance', 1, 1],
      ['l2', undefined, undefined],
    ]);
  });

  it('filters by tag (CJK, any case, with or without "#"), date, platform and connection, all at once', async () => {
    expect(await titles({ tags: ['项目/规划'] })).toEqual(['roadmap']);
    expect(await titles({ tags: ['#ROADMAP', 'draft'] })).toEqual(['draft', 'roadmap']);
    expect(await titles({ modifiedAfter: '2025-01-01', modifiedBefore: '2025-12-31T23:59:59Z' })).toEqual([
      'finance',
    ]);
    // A document without its own modified time is dated by when it was indexed.
    expect(await titles({ modifiedBefore: '2024-01-01' })).toEqual(['draft']);
    expect(await titles({ platforms: ['folder'] })).toEqual(['draft', 'roadmap']);
    expect(await titles({ connectionIds: ['notes'], tags: ['draft'] })).toEqual(['draft']);
    expect(await titles({ platforms: ['feishu'], tags: ['roadmap'] })).toEqual([]);
    // An empty list does not filter.
    expect(await titles({ platforms: [], tags: [] }, 'deploy checklist', 50)).toEqual(
      await titles({}, 'deploy checklist', 50),
    );
  });

  it('skips live sources a date or tag filter cannot apply to, and says so', async () => {
    liveCalls.length = 0;
    const dated = await search.search({ query: 'deploy', filters: { modifiedAfter: '2026-01-01' } });
    expect(liveCalls).toEqual([]);
    expect(dated.liveSkipped).toEqual([
      {
        connectionId: 'live',
        filters: ['modified'],
        message: 'live was not searched: its live search cannot filter by modified date.',
      },
    ]);
    expect(dated.documents.every((d) => d.best.source === 'index')).toBe(true);
    const tagged = await search.search({
      query: 'deploy',
      filters: { tags: ['draft'], modifiedBefore: '2030-01-01' },
    });
    expect(tagged.liveSkipped).toEqual([
      {
        connectionId: 'live',
        filters: ['modified', 'tags'],
        message: 'live was not searched: its live search cannot filter by modified date or tag.',
      },
    ]);
    expect(tagged.connectionNamesById).toMatchObject({ live: 'live', notes: 'notes' });
    // A platform filter that excludes the live source is no gap: it was not asked for.
    const folders = await search.search({
      query: 'deploy',
      filters: { platforms: ['folder'], tags: ['draft'] },
    });
    expect(folders.liveSkipped).toBeUndefined();
    const plain = await search.search({ query: 'deploy', k: 50 });
    expect(plain.liveSkipped).toBeUndefined();
    expect(
      plain.documents
        .filter((d) => d.best.source === 'direct')
        .map((d) => d.best.externalId)
        .sort(),
    ).toEqual(['l1', 'l2']);
  });

  it('resolves names as typed: connections by id or name in any case, knowledge bases loosely', async () => {
    await db.query("UPDATE connections SET name = 'Team Wiki' WHERE id = 'wiki'");
    try {
      expect(await titles({ connectionNames: ['team wiki'], knowledgeBaseNames: ['FIN'] })).toEqual([
        'finance',
      ]);
      // Names join the exact values: notes by id, Finance by part of its name.
      expect(
        await titles({
          connectionIds: ['notes'],
          connectionNames: ['Team Wiki'],
          knowledgeBaseNames: ['nance'],
        }),
      ).toEqual(['finance']);
      expect(await titles({ connectionNames: ['notes', 'wiki'], knowledgeBases: ['notes'] })).toEqual([
        'draft',
        'roadmap',
      ]);
      const named = await search.search({ query: 'budget', filters: { connectionNames: ['TEAM WIKI'] } });
      expect(named.connectionNamesById).toEqual({ wiki: 'Team Wiki' });
    } finally {
      await db.query("UPDATE connections SET name = 'wiki' WHERE id = 'wiki'");
    }
  });

  it('says which names match nothing, with the names there are', async () => {
    const cases: [object, string][] = [
      [{ connectionNames: ['nope'] }, 'No connection named "nope". Connections: notes, wiki, live.'],
      [
        { knowledgeBaseNames: ['nope'] },
        'No knowledge base named "nope". Knowledge bases: "Engineering", "notes", "Finance".',
      ],
      [
        { platforms: ['dingtalk'] },
        'No connection of platform "dingtalk". Connections: notes (folder), wiki (feishu), live (yuque).',
      ],
    ];
    for (const [filters, message] of cases)
      await expect(search.search({ query: 'deploy', filters } as never)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message,
      });
  });

  it('refuses malformed filters with a plain reason', async () => {
    const cases: [object, RegExp][] = [
      [{ modifiedAfter: 'last week' }, /modifiedAfter must be an ISO 8601 date/],
      [{ modifiedBefore: '2026-02-30' }, /modifiedBefore must be an ISO 8601 date/],
      [{ modifiedAfter: '2026-03-01', modifiedBefore: '2026-02-01' }, /must be earlier than/],
      [{ platforms: ['notion'] }, /"notion" is not a platform/],
      [{ tags: 'roadmap' }, /tags must be a list of strings/],
    ];
    for (const [filters, message] of cases)
      await expect(search.search({ query: 'deploy', filters } as never)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(message),
      });
  });

  it('lists the facets with document counts and the modified range', async () => {
    const facets = await searchFacets(db);
    expect(facets).toEqual({
      connections: [
        { id: 'wiki', name: 'wiki', platform: 'feishu', mode: 'rag', documents: 41 },
        { id: 'notes', name: 'notes', platform: 'folder', mode: 'rag', documents: 2 },
        { id: 'live', name: 'live', platform: 'yuque', mode: 'direct', documents: 0 },
      ],
      platforms: [
        { platform: 'feishu', documents: 41 },
        { platform: 'folder', documents: 2 },
        { platform: 'yuque', documents: 0 },
      ],
      knowledgeBases: [
        { name: 'Engineering', documents: 40, connectionIds: ['wiki'] },
        { name: 'notes', documents: 2, connectionIds: ['notes'] },
        { name: 'Finance', documents: 1, connectionIds: ['wiki'] },
      ],
      tags: [
        { tag: '#draft', documents: 1 },
        { tag: 'Roadmap', documents: 1 },
        { tag: '项目/规划', documents: 1 },
      ],
      modified: { oldest: '2023-05-05T00:00:00.000Z', newest: '2026-01-05T10:00:00.000Z' },
    });
  });
});
