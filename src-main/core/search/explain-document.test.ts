import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentExplanation, ExplainRequest } from '@shared/models';
import { openDatabase, type Db } from '../db/database';
import { ensureActiveSpace } from '../index/embedding-spaces';
import { CountingEmbedder, insertConnection, writeMarkdownDocument } from '../../testing/index-fixtures';
import { findDocumentTitles, resolveExplainTarget } from './explain-document';
import { HybridSearch, type HybridSearchOptions } from './hybrid-search';

let db: Db;
let search: HybridSearch;
const embedder = new CountingEmbedder();
const ids = new Map<string, number>();

const DOCS: Record<
  string,
  { connection: string; title: string; markdown: string; kb?: string; tags?: string[]; edited?: string }
> = {
  install: {
    connection: 'wiki',
    title: 'Install guide',
    markdown: 'To install Cairn on Linux, download the AppImage and run it. Updates arrive automatically.',
    edited: '2026-01-10T00:00:00Z',
  },
  upgrade: {
    connection: 'wiki',
    title: 'Upgrade notes',
    markdown: 'Before you upgrade Cairn on Linux, back up the data folder. Then install the new AppImage.',
    edited: '2026-03-01T00:00:00Z',
  },
  windows: {
    connection: 'wiki',
    title: 'Windows setup',
    markdown: 'On Windows, run the installer and follow its steps to install Cairn.',
    kb: 'Platforms',
    edited: '2025-06-01T00:00:00Z',
  },
  travel: {
    connection: 'notes',
    title: '差旅报销流程',
    markdown: '员工出差回来后，在系统中提交报销单，附上发票，经理审批后财务付款。',
    tags: ['finance'],
  },
  handbook: {
    connection: 'wiki',
    title: 'Sprocket handbook',
    markdown: Array.from(
      { length: 6 },
      (_, i) => `# Part ${i}\n\n${'Sprocket calibration needs care. '.repeat(40)}${i}`,
    ).join('\n\n'),
  },
  legacy: { connection: 'old', title: 'Old install notes', markdown: 'Install the old version from the CD.' },
};

function searchWith(options: Partial<HybridSearchOptions> = {}): HybridSearch {
  return new HybridSearch({
    db,
    queryEmbedder: (space) => (space.model === embedder.space.model ? embedder : null),
    ...options,
  });
}

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
  await insertConnection(db, 'wiki', { platform: 'feishu' });
  await insertConnection(db, 'notes');
  await insertConnection(db, 'old', { platform: 'yuque' });
  for (const [externalId, doc] of Object.entries(DOCS)) {
    await writeMarkdownDocument(db, embedder, {
      connectionId: doc.connection,
      externalId,
      title: doc.title,
      markdown: doc.markdown,
      knowledgeBase: doc.kb ?? 'KB',
      remoteUpdatedAt: doc.edited ?? null,
      ...(doc.tags ? { metadata: { tags: doc.tags } } : {}),
    });
  }
  for (const row of (
    await db.query<{ id: number; external_id: string }>('SELECT id, external_id FROM documents')
  ).rows)
    ids.set(row.external_id, Number(row.id));
  await db.query("UPDATE connections SET mode = 'direct' WHERE id = 'old'");
  search = searchWith();
});
afterAll(async () => {
  await db.close();
});

const explain = (request: Omit<ExplainRequest, 'document'>, externalId: string, on = search) =>
  on.explain({ ...request, document: ids.get(externalId)! });

const kinds = (explanation: DocumentExplanation) => explanation.reasons.map((reason) => reason.kind);

describe('explain: a shown document', () => {
  it('has the rank it is shown at, and the channel ranks its passages show (the ranking and the explanation agree)', async () => {
    for (const query of ['install cairn on linux', 'sprocket calibration', '报销 发票', 'appimage']) {
      const response = await search.search({ query, k: 10 });
      expect(response.documents.length).toBeGreaterThan(0);
      for (const [at, document] of response.documents.entries()) {
        const explanation = await search.explain({ query, k: 10, document: document.best.documentId! });
        const passages = [document.best, ...document.more];
        const best = (channel: 'keyword' | 'vector') => {
          const ranks = passages.flatMap((hit) =>
            hit.ranks[channel] === undefined ? [] : [hit.ranks[channel]],
          );
          return ranks.length > 0 ? Math.min(...ranks) : null;
        };
        expect({
          query,
          title: explanation.document.title,
          outcome: explanation.outcome,
          shownRank: explanation.shownRank,
          rank: explanation.rank,
          keyword: explanation.keyword.rank,
          vector: explanation.vector.rank,
          passage: explanation.bestPassage?.chunkId,
          fused: explanation.fusedScore,
        }).toEqual({
          query,
          title: document.best.title,
          outcome: 'shown',
          shownRank: at + 1,
          rank: at + 1,
          keyword: best('keyword'),
          vector: best('vector'),
          passage: Number(document.best.key.slice('chunk:'.length)),
          fused: document.best.score,
        });
      }
    }
  });

  it('names the analysed query words it holds and lacks, with its scores', async () => {
    const explanation = await explain({ query: 'install cairn on windows' }, 'install');
    // Words as the keyword index holds them (stemmed), with the word as typed.
    expect(explanation.words).toEqual([
      { word: 'instal', typed: 'install', found: true },
      { word: 'cairn', found: true },
      { word: 'window', typed: 'windows', found: false },
    ]);
    expect(explanation.keyword.score).toBeGreaterThan(0);
    expect(explanation.vector.score).toBeGreaterThan(0);
    expect(explanation.summary).toMatch(/It holds install, cairn; it lacks windows\./);
  });

  it('says how many of its passages the per-document cap left out', async () => {
    const explanation = await explain({ query: 'sprocket calibration' }, 'handbook');
    expect(explanation.outcome).toBe('shown');
    expect(explanation.reasons).toEqual([{ kind: 'per-document-cap', dropped: 3, max: 3 }]);
  });
});

describe('explain: a document not shown', () => {
  it('below the top k: its rank among all candidates, the same rank a longer page shows it at', async () => {
    const query = 'install cairn linux';
    const all = await search.search({ query, k: 50 });
    const last = all.documents.at(-1)!;
    const explanation = await search.explain({ query, k: 1, document: last.best.documentId! });
    expect(all.documents.length).toBeGreaterThan(1);
    expect(explanation).toMatchObject({
      outcome: 'ranked-lower',
      shownRank: null,
      rank: all.documents.length,
    });
    expect(explanation.reasons.at(-1)).toEqual({
      kind: 'top-k',
      rank: all.documents.length,
      k: 1,
      total: all.documents.length,
    });
    expect(explanation.summary).toContain(
      `ranked ${all.documents.length === 2 ? '2nd' : `${all.documents.length}`}`,
    );
  });

  it('names each filter that leaves it out, tested on its own', async () => {
    const explanation = await explain(
      {
        query: 'install windows',
        filters: { knowledgeBases: ['KB'], platforms: ['folder'], modifiedAfter: '2026-01-01' },
      },
      'windows',
    );
    expect(explanation.outcome).toBe('not-found');
    expect(explanation.reasons).toEqual([
      { kind: 'filter', filter: 'platform', value: 'folder' },
      { kind: 'filter', filter: 'knowledgeBase', value: 'KB' },
      { kind: 'filter', filter: 'modified', value: 'from 2026-01-01' },
    ]);
    const tagged = await explain({ query: '报销', filters: { tags: ['travel'] } }, 'travel');
    expect(tagged.reasons).toEqual([{ kind: 'filter', filter: 'tag', value: 'travel' }]);
  });

  it('says a connection searched live is not in the local index', async () => {
    const explanation = await explain({ query: 'install old version' }, 'legacy');
    expect(explanation.reasons).toEqual([{ kind: 'connection-live', connectionName: 'old' }]);
  });

  it('names the tail rule that drops matches in meaning when no passage holds a query word', async () => {
    // At vector weight 0 (the built-in lexical embedder), matches in meaning only follow keyword hits.
    const tail = searchWith({ vectorWeight: () => 0 });
    // A word no page holds beside one that occurs: the page holding 报销 is found.
    const found = await explain({ query: 'xyzzy 报销' }, 'travel', tail);
    expect(found.outcome).toBe('shown');
    expect(found.words).toEqual([
      { word: 'xyzzi', typed: 'xyzzy', found: false },
      { word: '报销', found: true },
    ]);
    // Its characters, in an order no page holds: no keyword hit, so the vector match is dropped.
    const explanation = await explain({ query: '销报 xyzzy' }, 'travel', tail);
    expect(explanation.outcome).toBe('not-found');
    expect(explanation.reasons).toEqual([{ kind: 'no-query-words' }, { kind: 'vector-tail' }]);
    expect(explanation.vector.rank).toBe(1);
  });

  it('names the similarity floor with the document’s similarity, and a document without the words', async () => {
    const floored = searchWith({ minVectorSimilarity: () => 0.99 });
    const explanation = await explain({ query: '报销 发票' }, 'install', floored);
    expect(kinds(explanation)).toEqual(['no-query-words', 'similarity-floor']);
    const floor = explanation.reasons[1] as { similarity: number; floor: number };
    expect(floor.floor).toBe(0.99);
    expect(floor.similarity).toBe(explanation.vector.score);
    expect(floor.similarity).toBeLessThan(0.99);
    expect(explanation.bestPassage?.text).toBe(DOCS.install!.markdown);
  });

  it('names the query operators: an excluded word, a missing exact phrase', async () => {
    const excluded = await explain({ query: 'install cairn -windows' }, 'windows');
    expect(excluded.outcome).toBe('not-found');
    expect(excluded.reasons).toEqual([{ kind: 'excluded', word: 'windows' }]);
    const phrase = await explain({ query: '"back up the data folder" install' }, 'install');
    expect(phrase.reasons).toEqual([{ kind: 'phrase-missing', phrase: 'back up the data folder' }]);
  });

  it('says the vector channel did not run when the space has no embedder', async () => {
    const wordsOnly = searchWith({ queryEmbedder: () => null });
    const explanation = await explain({ query: 'appimage' }, 'install', wordsOnly);
    expect(explanation.vector).toMatchObject({ ran: false, rank: null, score: null });
    expect(kinds(explanation)).toEqual(['no-vector']);
    expect(explanation.outcome).toBe('shown');
  });
});

describe('naming the document', () => {
  it('by id, "d<id>", exact title in any case, or the one title containing the text', async () => {
    const id = ids.get('upgrade')!;
    for (const named of [id, String(id), `d${id}`, 'upgrade NOTES', 'Upgrade no'])
      expect((await resolveExplainTarget(db, named)).id).toBe(id);
  });

  it('refuses a name that matches several titles, listing them, and one that matches none', async () => {
    await expect(resolveExplainTarget(db, 'in')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/documents match "in": .*Name one by its id/),
    });
    await expect(resolveExplainTarget(db, 'no such title')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('offers titles as you type: exact, then starting with the text, then shortest', async () => {
    const titles = await findDocumentTitles(db, 'install');
    expect(titles.map((t) => t.title)).toEqual(['Install guide', 'Old install notes']);
    expect((await findDocumentTitles(db, '报销')).map((t) => t.title)).toEqual(['差旅报销流程']);
  });
});
