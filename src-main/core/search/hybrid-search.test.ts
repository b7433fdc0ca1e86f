import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { CairnError } from '../errors';
import { ensureActiveSpace } from '../index/embedding-spaces';
import { CountingEmbedder, insertConnection, writeMarkdownDocument } from '../../testing/index-fixtures';
import type { DirectSearchSource } from './direct-channel';
import { HybridSearch } from './hybrid-search';

let db: Db;
let search: HybridSearch;
const embedder = new CountingEmbedder();

const DOCS: Record<string, { connection: string; title: string; markdown: string }> = {
  travel: {
    connection: 'notes',
    title: '差旅报销流程',
    markdown: '员工出差回来后，在系统中提交报销单，附上发票，经理审批后财务付款。',
  },
  report: {
    connection: 'notes',
    title: '周报模板',
    markdown: '每周五提交工作报告，写清本周进展和下周计划。',
  },
  install: {
    connection: 'wiki',
    title: 'Install guide',
    markdown: 'To install Cairn on Linux, download the AppImage and run it. Updates arrive automatically.',
  },
  budget: {
    connection: 'wiki',
    title: 'Budget policy',
    markdown: 'Travel expenses above 500 need a manager approval before booking.',
  },
  legacy: { connection: 'old', title: '旧报销制度', markdown: '旧的报销制度已经废止，请参考新流程。' },
  // Six sections that all mention the same term: one document must not fill the page.
  handbook: {
    connection: 'wiki',
    title: 'Sprocket handbook',
    markdown: Array.from(
      { length: 6 },
      (_, i) => `# Part ${i}\n\n${'Sprocket calibration needs care. '.repeat(40)}${i}`,
    ).join('\n\n'),
  },
};

function source(connectionId: string, search: DirectSearchSource['search']): DirectSearchSource {
  return { connectionId, platform: 'yuque', knowledgeBaseFallback: 'Old wiki', search };
}

let direct: DirectSearchSource[] = [];

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
  await insertConnection(db, 'notes');
  await insertConnection(db, 'wiki', { platform: 'feishu' });
  await insertConnection(db, 'old', { platform: 'yuque' });
  for (const [externalId, doc] of Object.entries(DOCS)) {
    await writeMarkdownDocument(db, embedder, {
      connectionId: doc.connection,
      externalId,
      title: doc.title,
      markdown: doc.markdown,
      url: `https://example.test/${externalId}`,
    });
  }
  // 'old' was indexed, then switched to direct: its index stays on disk but must not be searched.
  await db.query("UPDATE connections SET mode = 'direct' WHERE id = 'old'");
  search = new HybridSearch({
    db,
    queryEmbedder: (space) => (space.model === embedder.space.model ? embedder : null),
    directSources: () => direct,
    directTimeoutMs: { yuque: 100 },
  });
});
afterAll(async () => {
  await db.close();
});

async function chunkCount(externalId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.external_id = $1',
    [externalId],
  );
  return rows.rows[0]?.n ?? 0;
}

describe('HybridSearch', () => {
  it('at vector weight 0 orders by the keyword channel and keeps vector-only hits as a tail', async () => {
    const keywordFirst = new HybridSearch({
      db,
      queryEmbedder: (space) => (space.model === embedder.space.model ? embedder : null),
      vectorWeight: () => 0,
    });
    const { hits } = await keywordFirst.search({ query: 'install travel 报销', k: 10 });
    const firstVectorOnly = hits.findIndex((hit) => hit.ranks.keyword === undefined);
    const keywordRanks = hits
      .filter((hit) => hit.ranks.keyword !== undefined)
      .map((hit) => hit.ranks.keyword);
    expect({
      tailStartsAfterKeywordHits: firstVectorOnly === -1 || firstVectorOnly === keywordRanks.length,
      keywordRanks,
    }).toEqual({
      tailStartsAfterKeywordHits: true,
      keywordRanks: [...keywordRanks].sort((a, b) => a! - b!),
    });
    expect(keywordRanks.length).toBeGreaterThan(1);
    expect(hits.length).toBeGreaterThan(keywordRanks.length);
  });

  it('keeps at most three chunks of one document, its best ones', async () => {
    const response = await search.search({ query: 'sprocket calibration', k: 10 });
    const handbook = response.hits.filter((hit) => hit.externalId === 'handbook');
    expect({ chunksOfHandbook: await chunkCount('handbook'), shown: handbook.length }).toEqual({
      chunksOfHandbook: 6,
      shown: 3,
    });
  });

  it('lists each document once, ranked by its best chunk, its other chunks under it, and k counts documents', async () => {
    const response = await search.search({ query: 'sprocket calibration install', k: 2 });
    // Passages: the handbook's chunks crowd out every other document.
    expect(response.hits.map((hit) => hit.externalId)).toEqual(['handbook', 'handbook']);
    const [handbook, second] = response.documents;
    expect(response.documents).toHaveLength(2);
    expect(handbook!.best).toEqual(response.hits[0]);
    expect(handbook!.more.map((hit) => hit.externalId)).toEqual(['handbook', 'handbook']);
    expect(handbook!.more[0]).toEqual(response.hits[1]);
    const scores = [handbook!.best, ...handbook!.more].map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(second).toMatchObject({ best: { externalId: 'install' }, more: [] });
  });

  it('finds a 2-character Chinese word through the keyword channel and fills every hit field', async () => {
    const response = await search.search({ query: '报销' });
    const top = response.hits[0];
    expect(top).toEqual({
      key: expect.stringMatching(/^chunk:\d+$/),
      source: 'index',
      connectionId: 'notes',
      platform: 'folder',
      documentId: expect.any(Number),
      externalId: 'travel',
      title: '差旅报销流程',
      knowledgeBase: 'KB',
      url: 'https://example.test/travel',
      headingPath: '',
      text: DOCS.travel!.markdown,
      charStart: 0,
      charEnd: DOCS.travel!.markdown.length,
      score: expect.any(Number),
      ranks: { vector: expect.any(Number), keyword: 1 },
      // No modified time from this source; synced when it was written (no sync has completed).
      freshness: { editedAt: null, syncedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
    // The direct-mode connection's indexed '旧报销制度' never comes back from the index.
    expect(response.hits.map((h) => h.externalId)).not.toContain('legacy');
    expect(response.warnings).toEqual([]);
  });

  it('ranks an English query and filters by connection', async () => {
    const all = await search.search({ query: 'how do I install on linux' });
    expect(all.hits[0]).toMatchObject({ externalId: 'install', ranks: { keyword: 1 } });
    const onlyNotes = await search.search({ query: 'how do I install on linux', connectionIds: ['notes'] });
    expect(new Set(onlyNotes.hits.map((h) => h.connectionId))).toEqual(new Set(['notes']));
    expect(await search.search({ query: 'install', connectionIds: [] })).toMatchObject({ hits: [] });
  });

  it('fuses live direct-mode results and turns failures and timeouts into warnings', async () => {
    direct = [
      source('old', async (query, { limit }) =>
        [
          {
            externalId: 'y1',
            title: `Live: ${query}`,
            snippet: '新报销流程见此',
            url: 'https://yuque.test/y1',
            knowledgeBase: '',
          },
        ].slice(0, limit),
      ),
      { ...source('slow', () => new Promise(() => {})), platform: 'yuque' },
      source('broken', async () => {
        throw new CairnError('AUTH_EXPIRED', 'Token expired.');
      }),
    ];
    try {
      const response = await search.search({ query: '报销', k: 5 });
      const live = response.hits.find((h) => h.source === 'direct');
      expect(live).toMatchObject({
        key: 'direct:old:y1',
        connectionId: 'old',
        platform: 'yuque',
        documentId: null,
        title: 'Live: 报销',
        knowledgeBase: 'Old wiki',
        text: '新报销流程见此',
        ranks: { direct: 1 },
      });
      expect(response.hits.filter((h) => h.source === 'index').length).toBeGreaterThan(0);
      // A live hit is a document of its own, kept among the documents as among the passages.
      expect(response.documents.find((d) => d.best.source === 'direct')).toEqual({ best: live, more: [] });
      expect(response.warnings).toEqual([
        { connectionId: 'slow', error: { code: 'TIMEOUT', message: 'No answer within 100 ms.' } },
        { connectionId: 'broken', error: { code: 'AUTH_EXPIRED', message: 'Token expired.' } },
      ]);
      // Filtering by connection applies to direct sources too.
      const filtered = await search.search({ query: '报销', connectionIds: ['notes'] });
      expect(filtered.warnings).toEqual([]);
      expect(filtered.hits.every((h) => h.connectionId === 'notes')).toBe(true);
    } finally {
      direct = [];
    }
  });

  it('turns a source that throws synchronously or answers junk into a warning or clean hits, never a failed search', async () => {
    direct = [
      source('sync-throw', () => {
        throw new CairnError('SOURCE_ERROR', 'Thrown before any promise.');
      }),
      source(
        'junk',
        async () =>
          [
            null,
            {
              externalId: 7,
              title: null,
              snippet: 'NUL\u0000 and a lone \ud800 half',
              url: undefined,
              knowledgeBase: undefined,
            },
          ] as never,
      ),
    ];
    try {
      const response = await search.search({ query: '报销', k: 20 });
      expect(response.warnings).toEqual([
        {
          connectionId: 'sync-throw',
          error: { code: 'SOURCE_ERROR', message: 'Thrown before any promise.' },
        },
      ]);
      const live = response.hits.filter((h) => h.source === 'direct');
      expect(live).toMatchObject([
        {
          key: 'direct:junk:7',
          externalId: '7',
          title: '7',
          text: 'NUL and a lone \uFFFD half',
          url: null,
          knowledgeBase: 'Old wiki',
        },
      ]);
    } finally {
      direct = [];
    }
  });

  it('names the connections it mentions, and says when there is no connection at all', async () => {
    const response = await search.search({ query: '报销 install' });
    const mentioned = new Set(response.hits.map((hit) => hit.connectionId));
    expect(Object.keys(response.connectionNamesById ?? {}).sort()).toEqual([...mentioned].sort());
    expect(response.connectionNamesById?.['notes']).toBe('notes');
    expect(response.noConnections).toBeUndefined();

    const empty = await openDatabase();
    try {
      const nothing = await new HybridSearch({ db: empty, queryEmbedder: () => embedder }).search({
        query: '报销',
      });
      expect(nothing).toEqual({
        hits: [],
        documents: [],
        warnings: [],
        noConnections: true,
        tookMs: expect.any(Number),
      });
    } finally {
      await empty.close();
    }
  });

  it('answers bad queries without throwing', async () => {
    const queries: unknown[] = [
      '',
      '    ',
      '!!!???。。，，',
      '😀🎉🚀',
      '\u0000\u0007',
      '\ud800报销',
      'x'.repeat(10_000),
      '报销 '.repeat(3_000),
      undefined,
      42,
    ];
    const results = [];
    for (const query of queries) results.push((await search.search({ query: query as string })).hits.length);
    expect(results.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(results[5]).toBeGreaterThan(0);
    expect(results.slice(8)).toEqual([0, 0]);
    const long = await search.search({ query: '报销 '.repeat(3_000) });
    expect(long.hits[0]?.externalId).toBe('travel');
  });

  it('clamps k to a sane range', async () => {
    expect((await search.search({ query: '流程 install budget report', k: 1 })).hits).toHaveLength(1);
    expect((await search.search({ query: '流程 install budget report', k: -5 })).hits).toHaveLength(1);
    // NaN falls back to the default 10, more than there are candidates: 4 small documents plus the handbook's best 3 chunks.
    expect((await search.search({ query: '流程 install budget report', k: Number.NaN })).hits.length).toBe(7);
  });

  it('embeds a repeated query once (the last query vectors are kept per space)', async () => {
    const before = embedder.calls;
    const first = await search.search({ query: 'sprocket calibration care' });
    const again = await search.search({ query: 'sprocket calibration care' });
    expect(embedder.calls - before).toBe(1);
    expect(again.hits.map((h) => h.key)).toEqual(first.hits.map((h) => h.key));
  });
});
