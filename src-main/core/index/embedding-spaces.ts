/**
 * Embedding spaces: one table per (provider, model, dimensions), `embeddings_<n>`, registered in
 * index_meta as the 'active' space (serves search) and an optional 'pending' one (being filled by
 * a re-embed). Vectors of two spaces live in two tables, so no query can ever mix them. With no
 * semantic model there is no space at all: keyword search only.
 *
 * Every document whose chunks lack a vector in the space being filled (the pending one, else the
 * active one) waits in `embedding_queue` (migration 011): a new space queues every document, the
 * store queues each document it writes while a space exists, and the semantic index
 * (spaces/semantic-index.ts) takes them off as it embeds them.
 */
import { CairnError } from '../errors';
import type { Db } from '../db/database';
import { spaceKey, type EmbeddingSpace } from '../embedding/embedder';

export interface SpaceRecord extends EmbeddingSpace {
  /** From embedding_space_seq; names the table. */
  id: number;
}

export interface SpaceState {
  active: SpaceRecord | null;
  pending: SpaceRecord | null;
}

type Queryable = Pick<Db, 'query' | 'exec'>;

const ACTIVE_KEY = 'embedding.active';
const PENDING_KEY = 'embedding.pending';
/** Set once the queue has been filled from the vectors that exist (data directories from before it). */
const QUEUE_KEY = 'embedding.queue';

/** pgvector's HNSW indexes `halfvec` up to 4,000 dimensions. */
export const MAX_DIMENSIONS = 4000;

/** The table holding one space's vectors. The id is an integer from a sequence, never user text. */
export function spaceTable(space: Pick<SpaceRecord, 'id'>): string {
  if (!Number.isSafeInteger(space.id) || space.id <= 0)
    throw new CairnError('INTERNAL', `Bad embedding space id ${space.id}.`);
  return `embeddings_${space.id}`;
}

/** pgvector's HNSW indexes `vector` up to 2,000 dimensions; wider spaces must use `halfvec`. */
const MAX_FULL_PRECISION_DIMENSIONS = 2000;

/**
 * Column type of a space. `vector` (float32) wherever HNSW allows it: in PGlite's WASM build
 * `halfvec` halves the disk but is slower at everything (exact scan 1.7x, HNSW build 6x,
 * HNSW insert 4.5x; docs/decisions/vector-index.md), having no hardware half-float conversion.
 */
export function vectorType(space: Pick<EmbeddingSpace, 'dimensions'>): 'vector' | 'halfvec' {
  return space.dimensions <= MAX_FULL_PRECISION_DIMENSIONS ? 'vector' : 'halfvec';
}

/** The SQL type a query vector is cast to for this space, e.g. `vector(1024)`. */
export function vectorCast(space: Pick<EmbeddingSpace, 'dimensions'>): string {
  return `${vectorType(space)}(${space.dimensions})`;
}

export function sameSpace(a: EmbeddingSpace | null, b: EmbeddingSpace | null): boolean {
  return a !== null && b !== null && spaceKey(a) === spaceKey(b);
}

export function describeSpace(space: EmbeddingSpace | null): string | null {
  return space ? spaceKey(space) : null;
}

function parseRecord(value: unknown): SpaceRecord | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (
    typeof v.id !== 'number' ||
    typeof v.provider !== 'string' ||
    typeof v.model !== 'string' ||
    typeof v.dimensions !== 'number'
  )
    return null;
  return { id: v.id, provider: v.provider, model: v.model, dimensions: v.dimensions };
}

export async function readSpaces(db: Queryable): Promise<SpaceState> {
  const rows = (
    await db.query<{ key: string; value: unknown }>('SELECT key, value FROM index_meta WHERE key = ANY($1)', [
      [ACTIVE_KEY, PENDING_KEY],
    ])
  ).rows;
  const byKey = new Map(rows.map((r) => [r.key, parseRecord(r.value)]));
  return { active: byKey.get(ACTIVE_KEY) ?? null, pending: byKey.get(PENDING_KEY) ?? null };
}

async function writeSlot(db: Queryable, key: string, record: SpaceRecord | null): Promise<void> {
  if (record === null) {
    await db.query('DELETE FROM index_meta WHERE key = $1', [key]);
    return;
  }
  await db.query(
    'INSERT INTO index_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, JSON.stringify(record)],
  );
}

/** Queues every document for the space being filled (inside the caller's transaction). */
async function queueEveryDocument(db: Queryable): Promise<void> {
  await db.query('INSERT INTO embedding_queue (document_id) SELECT id FROM documents ON CONFLICT DO NOTHING');
}

/** Queues the documents with a chunk that has no vector in `space` (after the fill target changed back to it). */
async function queueMissing(db: Queryable, space: SpaceRecord): Promise<void> {
  await db.query(
    `INSERT INTO embedding_queue (document_id)
     SELECT DISTINCT c.document_id FROM chunks c
     WHERE NOT EXISTS (SELECT 1 FROM ${spaceTable(space)} e WHERE e.chunk_id = c.id)
     ON CONFLICT DO NOTHING`,
  );
}

async function createSpaceTable(db: Queryable, space: EmbeddingSpace): Promise<SpaceRecord> {
  if (!Number.isInteger(space.dimensions) || space.dimensions < 1 || space.dimensions > MAX_DIMENSIONS) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `Embedding dimensions must be between 1 and ${MAX_DIMENSIONS}, got ${space.dimensions}.`,
    );
  }
  const id = Number(
    (await db.query<{ id: string | number }>("SELECT nextval('embedding_space_seq') AS id")).rows[0]?.id,
  );
  const record: SpaceRecord = {
    id,
    provider: space.provider,
    model: space.model,
    dimensions: space.dimensions,
  };
  // connection_id is copied from the chunk so the vector channel filters without a join.
  await db.exec(`CREATE TABLE ${spaceTable(record)} (
    chunk_id      bigint PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
    connection_id text NOT NULL,
    embedding     ${vectorCast(record)} NOT NULL
  )`);
  return record;
}

/**
 * Makes sure an active space exists. The first embedder ever configured becomes active; after
 * that a different embedder does not change the active space by itself: the caller sees
 * `matches: false` and starts a re-embed (`createPending` + reindex job).
 */
export async function ensureActiveSpace(
  db: Db,
  space: EmbeddingSpace,
): Promise<{ active: SpaceRecord; matches: boolean }> {
  return db.transaction(async (tx) => {
    const state = await readSpaces(tx);
    if (state.active) return { active: state.active, matches: sameSpace(state.active, space) };
    const active = await createSpaceTable(tx, space);
    await writeSlot(tx, ACTIVE_KEY, active);
    await queueEveryDocument(tx);
    return { active, matches: true };
  });
}

/** Registers (or reuses) the pending space for a re-embed. A pending space for another model is dropped. */
export async function createPendingSpace(db: Db, space: EmbeddingSpace): Promise<SpaceRecord> {
  return db.transaction(async (tx) => {
    const state = await readSpaces(tx);
    if (sameSpace(state.active, space))
      throw new CairnError('INVALID_ARGUMENT', `${spaceKey(space)} is already the active embedding space.`);
    if (state.pending && sameSpace(state.pending, space)) return state.pending;
    if (state.pending) await tx.exec(`DROP TABLE IF EXISTS ${spaceTable(state.pending)}`);
    const pending = await createSpaceTable(tx, space);
    await writeSlot(tx, PENDING_KEY, pending);
    // The queue now means "missing in the pending space": every document.
    await queueEveryDocument(tx);
    return pending;
  });
}

/**
 * Abandons a pending space (e.g. the user switched back before the re-embed finished). The queue
 * then means "missing in the active space" again: documents written during the re-embed went to
 * the pending space only, so they are queued for the active one.
 */
export async function discardPendingSpace(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const state = await readSpaces(tx);
    if (!state.pending) return;
    await tx.exec(`DROP TABLE IF EXISTS ${spaceTable(state.pending)}`);
    await writeSlot(tx, PENDING_KEY, null);
    await tx.query('DELETE FROM embedding_queue');
    if (state.active) await queueMissing(tx, state.active);
  });
}

/**
 * Keyword search only (no semantic model chosen): drops every space's vectors and the queue. The
 * keyword index holds everything searchable, so nothing else changes. Returns the spaces dropped.
 */
export async function dropEverySpace(db: Db): Promise<SpaceRecord[]> {
  return db.transaction(async (tx) => {
    const state = await readSpaces(tx);
    const dropped = [state.active, state.pending].filter((space) => space !== null);
    for (const space of dropped) await tx.exec(`DROP TABLE IF EXISTS ${spaceTable(space)}`);
    await writeSlot(tx, ACTIVE_KEY, null);
    await writeSlot(tx, PENDING_KEY, null);
    await tx.query('DELETE FROM embedding_queue');
    return dropped;
  });
}

/**
 * Spaces of the built-in lexical embedder (provider 'builtin'), which versions before the keyword
 * default wrote for every chunk, are dropped (issue #26: it never changed a top-10, and cost most
 * of the index). Nothing searchable goes: every chunk keeps its keyword text, no document is
 * re-indexed. A semantic re-embed that was filling a pending space beside it takes over at once,
 * serving the vectors it has; the queue already meant "missing in that space".
 */
export async function retireLexicalSpaces(db: Db): Promise<SpaceRecord[]> {
  return db.transaction(async (tx) => {
    const state = await readSpaces(tx);
    const lexical = (space: SpaceRecord | null): space is SpaceRecord => space?.provider === 'builtin';
    const retired = [state.active, state.pending].filter(lexical);
    if (retired.length === 0) return [];
    for (const space of retired) await tx.exec(`DROP TABLE IF EXISTS ${spaceTable(space)}`);
    const survivor = [state.pending, state.active].find((space) => space !== null && !lexical(space)) ?? null;
    await writeSlot(tx, ACTIVE_KEY, survivor);
    await writeSlot(tx, PENDING_KEY, null);
    await tx.query('DELETE FROM embedding_queue');
    if (survivor) await queueMissing(tx, survivor);
    return retired;
  });
}

/**
 * The first start with the queue (migration 011) queues whatever the space being filled lacks: a
 * data directory from before it may be half way through a re-embed. Once; cheap afterwards.
 */
export async function queueMissingOnce(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const done = await tx.query('SELECT 1 FROM index_meta WHERE key = $1', [QUEUE_KEY]);
    if (done.rows.length > 0) return;
    const state = await readSpaces(tx);
    const target = state.pending ?? state.active;
    if (target) await queueMissing(tx, target);
    await tx.query('INSERT INTO index_meta (key, value) VALUES ($1, $2)', [QUEUE_KEY, JSON.stringify(1)]);
  });
}

/** Inside the caller's transaction: pending becomes active, the old active table is dropped. */
export async function promotePendingSpace(tx: Queryable, expected: SpaceRecord): Promise<void> {
  const state = await readSpaces(tx);
  if (!state.pending || state.pending.id !== expected.id)
    throw new CairnError('CANCELLED', 'The pending embedding space changed during the re-embed.');
  if (state.active) await tx.exec(`DROP TABLE IF EXISTS ${spaceTable(state.active)}`);
  await writeSlot(tx, ACTIVE_KEY, state.pending);
  await writeSlot(tx, PENDING_KEY, null);
}

/** The registered space (active or pending) matching `space`, or a clear error. */
export async function resolveWritableSpace(db: Queryable, space: EmbeddingSpace): Promise<SpaceRecord> {
  const state = await readSpaces(db);
  if (state.active && sameSpace(state.active, space)) return state.active;
  if (state.pending && sameSpace(state.pending, space)) return state.pending;
  throw new CairnError(
    'EMBEDDING_FAILED',
    `Vectors from ${spaceKey(space)} cannot be stored: the index serves ${describeSpace(state.active) ?? 'no space'}${state.pending ? ` and is re-embedding into ${spaceKey(state.pending)}` : ''}.`,
  );
}
