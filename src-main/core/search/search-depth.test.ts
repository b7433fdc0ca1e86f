/**
 * More results than the channels' default depth (#27 item 9, "Show more" to 50): 55 notes all hold
 * the query's word, one passage each, keyword search only (the app's default).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
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
