/**
 * More results than the channels' default depth (#27 item 9, "Show more" to 50): 55 notes all hold
 * the query's word, one passage each, keyword search only (the app's default); then a semantic
 * model whose matches share no word with the query, which only the vector channel finds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import type { EmbedResult, Embedder } from '../embedding/embedder';
import { ensureActiveSpace } from '../index/embedding-spaces';
import { insertConnection, writeMarkdownDocument } from '../../testing/index-fixtures';
import { CHANNEL_DEPTH } from './channel-scope';
import { HybridSearch } from './hybrid-search';

const NOTES = 55;
let db: Db;
let search: HybridSearch;

beforeAll(async () => {
  db = await openDatabase();
  await insertConnection(db, 'notes');
  for (let n = 1; n <= NOTES; n++) {
    // Fewer restarts in a longer note: BM25 ranks the notes apart instead of all alike.
    const markdown = `# Runbook ${n}\n\nRestart the queue workers.${' Check the logs first.'.repeat(n % 7)}\n`;
    await writeMarkdownDocument(db, null, {
      connectionId: 'notes',
      externalId: `runbook-${n}.md`,
      title: `Runbook ${n}`,
      markdown,
      metadata: { tags: n % 2 === 0 ? ['ops'] : [] },
      // One day apart: runbook 55 is the newest.
      remoteUpdatedAt: new Date(Date.UTC(2025, 0, n)).toISOString(),
    });
  }
  search = new HybridSearch({ db, queryEmbedder: () => null });
});
afterAll(async () => {
  await db.close();
});

const titlesOf = (response: Awaited<ReturnType<HybridSearch['search']>>) =>
  response.documents.map((document) => document.best.title);

describe('past the first page', () => {
  it('the first page counts what its candidates hold and says more may match', async () => {
    const page = await search.search({ query: 'restart', facetCounts: true });
    expect(page.documents).toHaveLength(10);
    expect(page.totalDocuments).toBe(CHANNEL_DEPTH);
    expect(page.moreMayMatch).toBe(true);
  });

  it('50 asked for: 50 shown, every match counted, the first page’s order kept ahead', async () => {
    const first = titlesOf(await search.search({ query: 'restart' }));
    const firstThirty = (await search.search({ query: 'restart', k: CHANNEL_DEPTH })).documents.map(
      (document) => document.best.title,
    );
    const more = await search.search({ query: 'restart', k: 50, facetCounts: true });
    expect(more.documents).toHaveLength(50);
    expect(titlesOf(more).slice(0, 10)).toEqual(first);
    expect(titlesOf(more).slice(0, CHANNEL_DEPTH)).toEqual(firstThirty);
    expect(new Set(titlesOf(more)).size).toBe(50);
    expect(more.totalDocuments).toBe(NOTES);
    expect(more.moreMayMatch).toBeUndefined();
    expect(more.facetCounts?.tags).toEqual({ ops: Math.floor(NOTES / 2) });
  });

  it('newest first is the newest of every match, not of the 30 most relevant', async () => {
    const newest = await search.search({ query: 'restart', sort: 'modified' });
    expect(titlesOf(newest)).toEqual(Array.from({ length: 10 }, (_, i) => `Runbook ${NOTES - i}`));
  });
});

/**
 * A stand-in for a semantic model: text about looking after a vehicle ("upkeep", or the query's
 * "maintenance") lies near one direction, half a degree further from it per number in the text, so
 * the nearest order is known; any other text lies at a right angle.
 */
class UpkeepEmbedder implements Embedder {
  readonly space = { provider: 'test', model: 'upkeep-meaning', dimensions: 3 };

  async embed(texts: string[]): Promise<EmbedResult> {
    return { vectors: texts.map((text) => this.vector(text)), tokens: 0, calls: 1 };
  }

  vector(text: string): Float32Array {
    if (!/upkeep|maintenance/i.test(text)) return Float32Array.from([0, 0, 1]);
    const radians = (Number(/\d+/.exec(text)?.[0] ?? 0) * 0.5 * Math.PI) / 180;
    return Float32Array.from([Math.cos(radians), Math.sin(radians), 0]);
  }
}

describe('past the first page with a semantic model', () => {
  /** More than the first page's 30 chunks, all within 30 degrees of the query (similarity > 0.86). */
  const PARAPHRASES = 60;
  /** Not one of them holds a word of it: only the vector channel finds them. */
  const QUERY = 'car maintenance';
  const fleet = (n: number) => n % 4 !== 0;
  let semanticDb: Db;
  let semantic: HybridSearch;

  beforeAll(async () => {
    semanticDb = await openDatabase();
    const embedder = new UpkeepEmbedder();
    await ensureActiveSpace(semanticDb, embedder.space);
    await insertConnection(semanticDb, 'garage');
    await insertConnection(semanticDb, 'garden');
    for (let n = 1; n <= PARAPHRASES; n++)
      await writeMarkdownDocument(semanticDb, embedder, {
        connectionId: 'garage',
        externalId: `upkeep-${n}.md`,
        title: `Vehicle upkeep ${n}`,
        markdown: `# Vehicle upkeep ${n}\n\nRotate the tyres and top up the oil.\n`,
        metadata: { tags: fleet(n) ? ['fleet'] : [] },
        // The further in meaning, the newer: the newest lie past the nearest 30.
        remoteUpdatedAt: new Date(Date.UTC(2025, 0, n)).toISOString(),
      });
    // Another connection, far in meaning, so that a connection filter scopes the channel.
    for (let n = 1; n <= 5; n++)
      await writeMarkdownDocument(semanticDb, embedder, {
        connectionId: 'garden',
        externalId: `garden-${n}.md`,
        title: `Garden ${n}`,
        markdown: `# Garden ${n}\n\nWater the roses at dusk.\n`,
      });
    semantic = new HybridSearch({
      db: semanticDb,
      queryEmbedder: (space) => (space.model === embedder.space.model ? embedder : null),
      // The garden notes, at a right angle, are not matches.
      minVectorSimilarity: () => 0.5,
    });
  });
  afterAll(async () => {
    await semanticDb.close();
  });

  const upkeep = (numbers: number[]) => numbers.map((n) => `Vehicle upkeep ${n}`);
  const nearest = (count: number, keep: (n: number) => boolean = () => true) =>
    upkeep(Array.from({ length: PARAPHRASES }, (_, i) => i + 1).filter(keep)).slice(0, count);

  it('the first page ranks the vector channel’s 30 chunks, as before', async () => {
    const page = await semantic.search({ query: QUERY });
    expect(titlesOf(page)).toEqual(nearest(10));
    expect(page.totalDocuments).toBe(CHANNEL_DEPTH);
  });

  it('Show more reaches the matches only the vectors find past the first 30', async () => {
    const more = await semantic.search({ query: QUERY, k: 50 });
    expect(titlesOf(more)).toEqual(nearest(50));
    expect(more.totalDocuments).toBe(PARAPHRASES);
  });

  it('scoped by a connection, Show more goes as deep', async () => {
    const garage = await semantic.search({ query: QUERY, k: 50, filters: { connectionIds: ['garage'] } });
    expect(titlesOf(garage)).toEqual(nearest(50));
  });

  it('scoped to a few documents (every chunk of them scored exactly), Show more goes as deep', async () => {
    const tagged = await semantic.search({ query: QUERY, k: 50, filters: { tags: ['fleet'] } });
    expect(titlesOf(tagged)).toEqual(nearest(50, fleet));
    expect(tagged.documents.length).toBeGreaterThan(CHANNEL_DEPTH);
  });

  it('newest first is the newest of every semantic match, not of the nearest 30', async () => {
    const newest = await semantic.search({ query: QUERY, sort: 'modified' });
    expect(titlesOf(newest)).toEqual(upkeep(Array.from({ length: 10 }, (_, i) => PARAPHRASES - i)));
  });
});
