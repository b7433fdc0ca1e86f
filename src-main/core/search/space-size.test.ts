import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { annIndexName } from '../index/ann-index';
import { ensureActiveSpace, spaceTable, type SpaceRecord } from '../index/embedding-spaces';
import { PgDocumentStore } from '../index/pg-document-store';
import { CountingEmbedder, insertConnection, writeMarkdownDocument } from '../../testing/index-fixtures';
import { HybridSearch } from './hybrid-search';
import { SpaceSizes, estimateVectors } from './space-size';
import { LEXICAL_MAX, LEXICAL_MIN, lexicalCandidateCount, vectorTuning } from '../models/search-tuning';

let db: Db;
let store: PgDocumentStore;
let space: SpaceRecord;
const embedder = new CountingEmbedder();
let written = 0;

async function addNotes(count: number): Promise<void> {
  for (let i = 0; i < count; i++, written++)
    await writeMarkdownDocument(store, embedder, {
      connectionId: 'notes',
      externalId: `note-${written}`,
      title: `Note ${written}`,
      markdown: `Glaze firing log ${written}: the kiln reached cone ${written % 12}.`,
    });
}

async function countRows(): Promise<number> {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spaceTable(space)}`)).rows[0]!.n;
}

beforeAll(async () => {
  db = await openDatabase();
  space = (await ensureActiveSpace(db, embedder.space)).active;
  store = new PgDocumentStore(db);
  await insertConnection(db, 'notes');
});
afterAll(async () => {
  await db.close();
});

describe('the size of an embedding space (space-size.ts)', () => {
  it('is read again once it is older than 30 s, and HybridSearch sizes the lexical candidates by it', async () => {
    // First, while the planner has never measured the table: the size is then a count.
    await addNotes(30);
    let now = 0;
    const sizes = new SpaceSizes(db, () => now);
    const before = await sizes.vectors(space);
    await addNotes(5);
    now = 29_000;
    expect(await sizes.vectors(space)).toBe(before);
    now = 31_000;
    expect(await sizes.vectors(space)).toBe(await estimateVectors(db, space));
    expect(await sizes.vectors(space)).toBeGreaterThan(before);

    const asked: number[] = [];
    const search = new HybridSearch({
      db,
      queryEmbedder: () => embedder,
      lexicalCandidates: (_space, vectors) => {
        asked.push(vectors);
        return 300;
      },
    });
    const { hits } = await search.search({ query: 'kiln glaze firing' });
    expect(hits.length).toBeGreaterThan(0);
    expect(asked).toEqual([await estimateVectors(db, space)]);
  });

  it('counts a space the planner has not measured, and estimates one it has', async () => {
    expect(await estimateVectors(db, space)).toBe(await countRows());
    // CREATE INDEX (how every bulk sync ends) records the row density the estimate scales.
    await db.exec(
      `CREATE INDEX ${annIndexName(space)} ON ${spaceTable(space)} USING hnsw (embedding vector_cosine_ops)`,
    );
    expect(await estimateVectors(db, space)).toBe(await countRows());
    await db.exec(`DROP INDEX ${annIndexName(space)}`);
  });
});

describe('lexical candidates by size (search-tuning.ts)', () => {
  it('grow with a built-in space between their floor and cap; semantic spaces get none', () => {
    expect(lexicalCandidateCount(0)).toBe(LEXICAL_MIN);
    expect(lexicalCandidateCount(10_000)).toBe(300);
    expect(lexicalCandidateCount(50_000)).toBe(1500);
    expect(lexicalCandidateCount(100_000)).toBe(3000);
    expect(lexicalCandidateCount(1_000_000)).toBe(LEXICAL_MAX);
    const builtin = vectorTuning({ provider: 'builtin', model: 'cairn-hash-v1', dimensions: 1024 });
    expect(builtin.lexicalCandidates(100_000)).toBe(3000);
    const remote = vectorTuning({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 1536 });
    expect(remote.lexicalCandidates(100_000)).toBe(0);
  });
});
