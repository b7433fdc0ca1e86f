/**
 * Re-embeds the whole index into a new embedding space in the background while the active space
 * keeps serving search; then flips atomically and drops the old table.
 *
 * Syncs keep writing during the job (into the active space). Their chunks are caught up: the fill
 * loop always embeds "chunks missing from the pending table", it runs again after the HNSW build,
 * and the flip transaction embeds whatever is still missing before switching, so no chunk is
 * left without a vector in the new space. PGlite runs one statement at a time, so nothing can
 * write between that last check and the flip.
 */
import type { ReindexStatus } from '@shared/models';
import type { Db } from '../db/database';
import { spaceKey, type Embedder } from '../embedding/embedder';
import { throwIfAborted } from '../errors';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';
import { ensureAnnIndex } from '../index/ann-index';
import { embeddingInput } from '../index/embedding-input';
import {
  createPendingSpace,
  promotePendingSpace,
  readSpaces,
  spaceTable,
  vectorCast,
  vectorType,
  type SpaceRecord,
} from '../index/embedding-spaces';
import { vectorArrayParam } from '../index/vector-binary';

type Queryable = Pick<Db, 'query' | 'exec'>;

export interface ReindexOptions {
  db: Db;
  /** The embedder of the new space. */
  embedder: Embedder;
  /** Chunks per embedder call. @default 64 */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (status: ReindexStatus) => void;
  logger?: Logger;
}

interface MissingChunk {
  id: string | number;
  heading_path: string;
  content: string;
  title: string;
}

/** How much a change of embedding model would re-embed (settings.reindexCost). */
export async function reindexCost(db: Queryable): Promise<{ documents: number; chunks: number }> {
  const row = await db.query<{ documents: number; chunks: number }>(
    'SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM chunks)::int AS chunks',
  );
  return row.rows[0] ?? { documents: 0, chunks: 0 };
}

async function missingChunks(
  db: Queryable,
  pending: SpaceRecord,
  limit: number | null,
): Promise<MissingChunk[]> {
  const rows = await db.query<MissingChunk>(
    `SELECT c.id, c.heading_path, c.content, d.title
     FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE NOT EXISTS (SELECT 1 FROM ${spaceTable(pending)} p WHERE p.chunk_id = c.id)
     ORDER BY c.id ${limit === null ? '' : `LIMIT ${Math.floor(limit)}`}`,
  );
  return rows.rows;
}

async function embedInto(
  db: Queryable,
  pending: SpaceRecord,
  embedder: Embedder,
  chunks: MissingChunk[],
  signal?: AbortSignal,
): Promise<number> {
  if (chunks.length === 0) return 0;
  const { vectors } = await embedder.embed(
    chunks.map((c) => embeddingInput({ title: c.title, headingPath: c.heading_path, text: c.content })),
    { kind: 'document', signal },
  );
  const param = await vectorArrayParam(db, vectorType(pending), pending.dimensions, vectors);
  // The JOIN skips chunks a sync deleted while we were embedding them.
  await db.query(
    `INSERT INTO ${spaceTable(pending)} (chunk_id, connection_id, embedding)
     SELECT u.chunk_id, c.connection_id, u.embedding
     FROM unnest($1::bigint[], $2::${vectorCast(pending)}[]) AS u(chunk_id, embedding) JOIN chunks c ON c.id = u.chunk_id
     ON CONFLICT (chunk_id) DO NOTHING`,
    [chunks.map((c) => Number(c.id)), param.value],
    param.options,
  );
  return chunks.length;
}

/**
 * The flip: in ONE transaction, embeds the chunks still missing from the pending space (written
 * by a sync since the last fill) and makes it active. Returns how many chunks it embedded.
 */
export async function catchUpAndPromote(
  db: Db,
  pending: SpaceRecord,
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<number> {
  return db.transaction(async (tx) => {
    const late = await missingChunks(tx, pending, null);
    const embedded = await embedInto(tx, pending, embedder, late, signal);
    await promotePendingSpace(tx, pending);
    return embedded;
  });
}

/**
 * Fills the pending space for `embedder.space` (created or resumed), then makes it active.
 * Cancelling leaves the pending space half-filled; running again resumes where it stopped.
 */
export async function runReindex(options: ReindexOptions): Promise<{ embedded: number }> {
  const { db, embedder, signal } = options;
  const logger = options.logger ?? silentLogger();
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const pending = await createPendingSpace(db, embedder.space);
  const { active } = await readSpaces(db);
  let embedded = 0;

  const report = async (running: boolean) => {
    if (!options.onProgress) return;
    const counts = await db.query<{ done: number; total: number }>(
      `SELECT (SELECT count(*) FROM ${spaceTable(pending)})::int AS done, (SELECT count(*) FROM chunks)::int AS total`,
    );
    const { done = 0, total = 0 } = counts.rows[0] ?? {};
    options.onProgress({
      running,
      done,
      total,
      activeSpace: active ? spaceKey(active) : '',
      pendingSpace: running ? spaceKey(pending) : null,
    });
  };

  const fill = async () => {
    for (;;) {
      throwIfAborted(signal);
      const batch = await missingChunks(db, pending, batchSize);
      if (batch.length === 0) return;
      embedded += await embedInto(db, pending, embedder, batch, signal);
      await report(true);
    }
  };

  await report(true);
  await fill();
  throwIfAborted(signal);
  await ensureAnnIndex(db, pending);
  await fill();
  throwIfAborted(signal);
  embedded += await catchUpAndPromote(db, pending, embedder, signal);
  logger.info('re-embed finished', { space: spaceKey(pending), embedded });
  if (options.onProgress) {
    const { chunks } = await reindexCost(db);
    options.onProgress({
      running: false,
      done: chunks,
      total: chunks,
      activeSpace: spaceKey(pending),
      pendingSpace: null,
    });
  }
  return { embedded };
}
