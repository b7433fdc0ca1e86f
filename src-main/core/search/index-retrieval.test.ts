/**
 * The statement the app runs for every search (index-retrieval.ts), on a real PGlite with real
 * text written by the real store (analyzer, chunker), and on vectors whose exact order is known.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { ensureActiveSpace, spaceTable, type SpaceRecord } from '../index/embedding-spaces';
import { toVectorLiteral } from '../index/vector-literal';
import {
  CountingEmbedder,
  insertBigAndSmall,
  insertConnection,
  writeMarkdownDocument,
} from '../../testing/index-fixtures';
import { CHANNEL_DEPTH, connectionScope, type ChannelScope } from './channel-scope';
import { FRAME_QUERY_WEIGHT, retrieveFromIndex, type IndexRetrievalInput } from './index-retrieval';
import { keywordMatches } from './keyword-scan';
import { prepareQuery } from './query-text';
import { RRF_K, reciprocalRankFusion } from './rrf';
import { EXACT_SCOPE_DOCUMENTS } from './vector-channel';

describe('retrieveFromIndex on documents', () => {
  let db: Db;
  let space: SpaceRecord;
  const embedder = new CountingEmbedder();
  /** Chunk ids by document external id. */
  const chunksOf = new Map<string, number[]>();
  const documentIdOf = new Map<string, number>();

  const DOCS = [
    {
      id: 'travel',
      connection: 'notes',
      kb: '财务',
      title: '差旅报销流程',
      text: '员工出差回来后，在系统中提交报销单，附上发票，经理审批后财务付款。',
    },
    {
      id: 'invoice',
      connection: 'notes',
      kb: '财务',
      title: '发票规范',
      text: '发票抬头必须写公司全称，报销时发票原件和电子发票都可以。',
    },
    {
      id: 'weekly',
      connection: 'notes',
      kb: '行政',
      title: '周报模板',
      text: '每周五提交工作报告，写清本周进展和下周计划。',
    },
    {
      id: 'channel',
      connection: 'wiki',
      kb: 'TiKV',
      title: 'TiKV channel full',
      text: 'TiKV channel full: the raftstore channel is full. 原因是 Raftstore 线程繁忙。',
    },
    {
      id: 'channel-alert',
      connection: 'wiki',
      kb: 'TiKV',
      title: 'Channel alerts',
      text: 'When the TiKV channel is full for long, the alert fires; a full channel means TiKV is busy.',
    },
    {
      id: 'faq',
      connection: 'wiki',
      kb: 'FAQ',
      title: '常见问题',
      text: '原因一：网络问题。原因二：配置不一致。原因三：端口被占用。这些原因最常见。',
    },
    {
      id: 'install',
      connection: 'wiki',
      kb: 'Guides',
      title: 'Install guide',
      text: 'To install Cairn on Linux, download the AppImage and run it. Updates arrive automatically.',
    },
    {
      id: 'magic',
      connection: 'archive',
      kb: 'Old',
      title: 'Old words',
      text: 'The xyzzy incantation opened the 报销 archive in the old adventure.',
    },
  ];

  beforeAll(async () => {
    db = await openDatabase();
    space = (await ensureActiveSpace(db, embedder.space)).active;
    for (const connection of ['notes', 'wiki', 'archive']) await insertConnection(db, connection);
    for (const doc of DOCS)
      await writeMarkdownDocument(db, embedder, {
        connectionId: doc.connection,
        externalId: doc.id,
        title: doc.title,
        knowledgeBase: doc.kb,
        markdown: doc.text,
        url: `https://example.test/${doc.id}`,
      });
    const rows = await db.query<{ id: number; document_id: number; external_id: string }>(
      'SELECT c.id, c.document_id, d.external_id FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY c.id',
    );
    for (const row of rows.rows) {
      chunksOf.set(row.external_id, [...(chunksOf.get(row.external_id) ?? []), Number(row.id)]);
      documentIdOf.set(row.external_id, Number(row.document_id));
    }
  });
  afterAll(async () => {
    await db.close();
  });

  const chunk = (externalId: string) => chunksOf.get(externalId)![0]!;
  const namesOf = (ids: number[]) =>
    ids.map((id) => [...chunksOf].find(([, chunks]) => chunks.includes(id))![0]);

  /** The app's input for a typed query, as HybridSearch builds it. */
  function input(
    text: string,
    scope: ChannelScope | null = null,
    vector: Partial<NonNullable<IndexRetrievalInput['vector']>> | null = {},
  ): IndexRetrievalInput {
    const query = prepareQuery(text)!;
    return {
      query,
      scope,
      vector: vector && {
        space,
        queryVector: embedder.vector(query.text),
        ...vector,
      },
    };
  }

  it('ranks Chinese keyword hits by BM25 and returns the row of every hit either channel found', async () => {
    const found = await retrieveFromIndex(db, input('报销 发票'));
    expect(namesOf(found.keyword).slice(0, 2).sort()).toEqual(['invoice', 'travel']);
    // Every chunk that holds 报销 or 发票, and none that does not.
    expect(namesOf(found.keyword).sort()).toEqual(['invoice', 'magic', 'travel']);
    expect(found.vectorSpace).toEqual(space);
    expect(found.vector.length).toBeGreaterThan(0);
    for (const id of [...found.keyword, ...found.vector]) expect(found.rows.has(id)).toBe(true);
    const travel = DOCS[0]!;
    expect(found.rows.get(chunk('travel'))).toMatchObject({
      id: chunk('travel'),
      vector_rank: expect.anything(),
      content: travel.text,
      heading_path: '',
      char_start: 0,
      char_end: travel.text.length,
      location: null,
      document_id: documentIdOf.get('travel'),
      external_id: 'travel',
      title: travel.title,
      knowledge_base: '财务',
      url: 'https://example.test/travel',
      connection_id: 'notes',
    });
  });

  it('ranks the vector channel by exact cosine distance among its candidates', async () => {
    const query = '提交报销单 发票';
    const found = await retrieveFromIndex(db, input(query));
    const queryVector = embedder.vector(prepareQuery(query)!.text);
    const all = await db.query<{ chunk_id: number; embedding: string }>(
      `SELECT chunk_id, embedding::text FROM ${spaceTable(space)}`,
    );
    const similarity = (literal: string) => {
      const v = JSON.parse(literal) as number[];
      return v.reduce((sum, x, i) => sum + x * queryVector[i]!, 0);
    };
    const exact = all.rows
      .map((row) => ({ id: Number(row.chunk_id), score: similarity(row.embedding) }))
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .map((row) => row.id);
    // Eight chunks: the HNSW walk's 30 hold them all, so the ranking is the exact one.
    expect(found.vector).toEqual(exact);
  });

  it('fuses the content and frame-word scans at FRAME_QUERY_WEIGHT: frame words order content hits, never lead', async () => {
    const text = 'TiKV channel full 是什么原因';
    const query = prepareQuery(text)!;
    expect([query.keywordText, query.frameKeywordText]).toEqual([
      'tikv channel full',
      'tikv channel full 是 什么 原因 是什 么原',
    ]);
    const found = await retrieveFromIndex(db, input(text));
    // The same ranking as the two scans checked and fused apart (what the one statement replaces).
    const content = await keywordMatches(db, query.keywordText, null);
    const framed = await keywordMatches(db, query.frameKeywordText, null);
    const fused = reciprocalRankFusion({ content: content.map(String), framed: framed.map(String) }, RRF_K, {
      framed: FRAME_QUERY_WEIGHT,
    }).map((item) => Number(item.key));
    expect(found.keyword).toEqual(fused);
    // The FAQ full of 原因 holds no content word: it follows every content hit.
    expect(namesOf(content).sort()).toEqual(['channel', 'channel-alert']);
    expect(namesOf(found.keyword)).toEqual([...namesOf(content), 'faq']);
  });

  it('finds no keyword hit when the content words occur nowhere, however common its frame words', async () => {
    const found = await retrieveFromIndex(db, input('火星基地 是什么原因'));
    expect(found.keyword).toEqual([]);
    // Without the frame tier (the rule ablation's switch) 原因 alone finds the FAQ.
    const untiered = await retrieveFromIndex(db, input('火星基地 是什么原因'), {
      frameTier: false,
      documentRanking: false,
    });
    expect(namesOf(untiered.keyword)).toContain('faq');
  });

  it('finds the pages holding some of the query words when another occurs nowhere (no "No results")', async () => {
    // "xyzzy" is in the archive only; 报销 is everywhere in notes.
    const everywhere = await retrieveFromIndex(db, input('xyzzy 报销'));
    expect(namesOf(everywhere.keyword)[0]).toBe('magic');
    const notes = await retrieveFromIndex(db, input('xyzzy 报销', connectionScope(['notes'])));
    expect(namesOf(notes.keyword).sort()).toEqual(['invoice', 'travel']);
    // A word nobody wrote beside a common one: the common one still finds its pages.
    expect(namesOf((await retrieveFromIndex(db, input('plugh 报销'))).keyword).sort()).toEqual([
      'invoice',
      'magic',
      'travel',
    ]);
    expect((await retrieveFromIndex(db, input('plugh'))).keyword).toEqual([]);
  });

  it('searches only the scope: connections, then documents (a knowledge base filter), in both channels', async () => {
    const wiki = await retrieveFromIndex(db, input('TiKV channel full 报销', connectionScope(['wiki'])));
    const connectionOf = (id: number) => wiki.rows.get(id)!.connection_id;
    expect(wiki.keyword.length).toBeGreaterThan(0);
    expect(new Set([...wiki.keyword, ...wiki.vector].map(connectionOf))).toEqual(new Set(['wiki']));

    const finance = [documentIdOf.get('travel')!, documentIdOf.get('invoice')!];
    expect(finance.length).toBeLessThanOrEqual(EXACT_SCOPE_DOCUMENTS);
    const kb = await retrieveFromIndex(
      db,
      input('报销 发票', { connectionIds: ['notes'], documentIds: finance }),
    );
    expect(namesOf(kb.keyword).sort()).toEqual(['invoice', 'travel']);
    expect(namesOf(kb.vector).sort()).toEqual(['invoice', 'travel']);
  });

  it('returns nothing for an empty scope, a query nobody matches, and no vector when there is none', async () => {
    for (const scope of [connectionScope([]), { connectionIds: null, documentIds: [] }])
      expect(await retrieveFromIndex(db, input('报销', scope))).toEqual({
        vector: [],
        vectorSpace: space,
        keyword: [],
        keywordFull: false,
        rows: new Map(),
      });
    // Nothing shares a word with it, and every vector is less similar than the floor.
    const nothing = await retrieveFromIndex(db, input('zzqqvv', null, { minSimilarity: 0.99 }));
    expect([nothing.keyword, nothing.vector, nothing.rows.size]).toEqual([[], [], 0]);
    // The embedder had no vector for it: the keyword channel alone.
    const keywordOnly = await retrieveFromIndex(
      db,
      input('报销', null, { queryVector: Promise.resolve(null) }),
    );
    expect([keywordOnly.vectorSpace, keywordOnly.vector, keywordOnly.keyword.length > 0]).toEqual([
      null,
      [],
      true,
    ]);
    const noVector = await retrieveFromIndex(db, input('报销', null, null));
    expect([noVector.vectorSpace, noVector.vector]).toEqual([null, []]);
  });
});

describe('retrieveFromIndex: the vector channel on vectors of known order', () => {
  let db: Db;
  let space: SpaceRecord;
  /** Chunk ids by connection, in insertion order (insertBigAndSmall). */
  let ids: { big: number[]; small: number[] };
  /** A 2-d direction per chunk, so the exact order is known: chunk i at angle i degrees from the x axis. */
  const angleOf = new Map<number, number>();

  beforeAll(async () => {
    db = await openDatabase();
    ids = await insertBigAndSmall(db);
    space = (await ensureActiveSpace(db, { provider: 'test', model: 'angles', dimensions: 2 })).active;
    const all = [...ids.big, ...ids.small];
    await db.query(
      `INSERT INTO ${spaceTable(space)} (chunk_id, connection_id, embedding)
       SELECT id, connection_id, v::vector(2) FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, connection_id, v)`,
      [
        all,
        all.map((id) => (ids.small.includes(id) ? 'small' : 'big')),
        all.map((id, i) => {
          angleOf.set(id, i % 180);
          const radians = ((i % 180) * Math.PI) / 180;
          return toVectorLiteral([Math.cos(radians), Math.sin(radians)]);
        }),
      ],
    );
  });
  afterAll(async () => {
    await db.close();
  });

  const x = Float32Array.from([1, 0]);
  const exactOrder = (candidates: number[]) =>
    [...candidates].sort((a, b) => angleOf.get(a)! - angleOf.get(b)! || a - b).slice(0, CHANNEL_DEPTH);
  const retrieve = (keywordText: string, scope: ChannelScope | null, minSimilarity?: number) =>
    retrieveFromIndex(db, {
      query: { keywordText, frameKeywordText: '' },
      scope,
      vector: { space, queryVector: x, minSimilarity },
    });

  it('ranks by exact cosine distance beside the keyword hits', async () => {
    const all = [...angleOf.keys()];
    expect((await retrieve('', null)).vector).toEqual(exactOrder(all));
    const withKeyword = await retrieve('omega', null);
    expect(withKeyword.keyword).toEqual([ids.small[2]]);
    expect(withKeyword.vector).toEqual(exactOrder(all));
  });

  it('applies the connection filter and the similarity floor to every candidate', async () => {
    const small = await retrieve('alpha', connectionScope(['small']));
    expect(small.vector).toEqual(exactOrder(ids.small));
    // The keyword top list grew (120, 480, 1,920) until it held small's matches below big's 600.
    expect(small.keyword).toEqual([ids.small[0], ids.small[2]]);
    // cos(angle) >= 0.9 keeps angles up to 25 degrees.
    const near = await retrieve('', null, 0.9);
    expect(near.vector.length).toBeGreaterThan(0);
    expect(near.vector.every((id) => angleOf.get(id)! <= 25)).toBe(true);
  });

  it('scores every chunk of a small document scope exactly', async () => {
    const [smallDocument] = (
      await db.query<{ id: number }>(`SELECT id FROM documents WHERE connection_id = 'small'`)
    ).rows;
    const found = await retrieve('alpha', { connectionIds: null, documentIds: [Number(smallDocument!.id)] });
    expect(found.vector).toEqual(exactOrder(ids.small));
    expect(found.keyword).toEqual([ids.small[0], ids.small[2]]);
  });
});
