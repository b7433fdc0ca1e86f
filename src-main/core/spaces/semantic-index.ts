/**
 * The semantic index: a vector for every chunk in one embedding space, built in the background
 * after the keyword index. A sync writes text and the keyword index only; each document it writes
 * while a space exists waits in `embedding_queue` (index/document-rows.ts queueForSemanticIndex),
 * and this builder takes documents off it in priority order (recently opened or modified first),
 * embeds their chunks batch by batch and writes each batch in one transaction with the queue's
 * update. A batch is therefore either stored and off the queue or not stored at all: after a crash
 * or kill -9 the builder resumes with the first chunk that has no vector, and a chunk whose vector
 * was stored is never sent to the model again. Search uses whatever vectors exist meanwhile.
 *
 * Failures: a batch the model refuses is split into its documents; a document refused alone is
 * tried again later (backoff per document, recorded in the queue), and stays searchable by keyword.
 * A provider that is down (every call fails) makes the builder wait and retry, saying why. So does
 * a disk without room for a batch's vectors (checked before the model is asked, disk-space.ts):
 * no document is blamed, keyword search goes on, and the build resumes once there is room.
 */
import type { Db } from '../db/database';
import { databaseHealth, type DatabaseHealth } from '../db/database-health';
import { chunkBytesEstimate } from '../db/disk-space';
import type { Embedder } from '../embedding/embedder';
import { isAbortError, toErrorData } from '../errors';
import { ensureAnnIndex, ANN_MIN_ROWS } from '../index/ann-index';
import { embeddingInput } from '../index/embedding-input';
import { spaceTable, vectorCast, vectorType, type SpaceRecord } from '../index/embedding-spaces';
import { vectorArrayParam } from '../index/vector-binary';
import type { Logger } from '../logging/logger';

type Queryable = Pick<Db, 'query' | 'exec'>;

/** Chunks per embedder call and per stored batch. */
export const FILL_BATCH_CHUNKS = 64;
/** Queued documents read at once, in priority order (the list is read again when used up or old). */
const PRIORITY_LIST_DOCUMENTS = 256;
const PRIORITY_LIST_MAX_AGE_MS = 10_000;
/** After a wake (a sync wrote, a document was opened), the list is read again at most this often. */
const WAKE_REREAD_MS = 1_000;
/** A document refused this many times no longer holds back a re-embed's switch to the new model. */
export const GIVE_UP_ATTEMPTS = 5;
/** Documents refused one after another before the builder takes it for the provider (down, key revoked). */
const PROVIDER_DOWN_AFTER = 3;
/**
 * Failures of the provider, not of the texts sent (openai-embedder.ts classify): unreachable, too
 * slow, the key or model refused, a quota or rate limit, a server error. No document is to blame,
 * so none is isolated or postponed: the builder waits and tries again.
 */
const PROVIDER_FAILURES: ReadonlySet<string> = new Set([
  'SOURCE_UNREACHABLE',
  'TIMEOUT',
  'AUTH_INVALID',
  'PERMISSION_DENIED',
  'MODEL_NOT_FOUND',
  'QUOTA_EXCEEDED',
  'RATE_LIMITED',
  'SOURCE_ERROR',
]);
/** Failures no document is to blame for: the provider's, and a disk without room for the vectors. */
const WAIT_FAILURES: ReadonlySet<string> = new Set([...PROVIDER_FAILURES, 'DISK_FULL']);
/** How a refusal for space ends its sentence ("Disk full: 12 MB free on /home; …"). */
const VECTORS_WAIT = 'the vectors wait until there is room; keyword search goes on.';
/** Waits after failed calls while the provider seems down: 2 s, 4 s, … up to a minute. */
const PROVIDER_RETRY_MS = [2_000, 4_000, 8_000, 16_000, 32_000, 60_000];

export interface MissingChunk {
  id: number;
  documentId: number;
  text: string;
}

/**
 * The next queued documents, most recently opened or modified first (a platform's own modified
 * time; documents without one by when they were indexed), skipping those waiting after a failure.
 */
export async function queuedDocuments(db: Queryable, limit: number): Promise<number[]> {
  const rows = await db.query<{ document_id: string | number }>(
    `SELECT q.document_id FROM embedding_queue q JOIN documents d ON d.id = q.document_id
     WHERE q.retry_at IS NULL OR q.retry_at <= now()
     ORDER BY coalesce(greatest(d.opened_at, d.remote_updated_at), d.indexed_at) DESC, d.id DESC
     LIMIT ${Math.floor(limit)}`,
  );
  return rows.rows.map((r) => Number(r.document_id));
}

/** The chunks of `documentIds` with no vector in `space`, in the documents' order, at most `limit`. */
export async function missingChunks(
  db: Queryable,
  space: SpaceRecord,
  documentIds: readonly number[],
  limit: number,
): Promise<MissingChunk[]> {
  const rows = await db.query<{
    id: string | number;
    document_id: string | number;
    heading_path: string;
    content: string;
    title: string;
  }>(
    `SELECT c.id, c.document_id, c.heading_path, c.content, d.title
     FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.document_id = ANY($1::bigint[])
       AND NOT EXISTS (SELECT 1 FROM ${spaceTable(space)} e WHERE e.chunk_id = c.id)
     ORDER BY array_position($1::bigint[], c.document_id), c.ord
     LIMIT ${Math.floor(limit)}`,
    [documentIds],
  );
  return rows.rows.map((r) => ({
    id: Number(r.id),
    documentId: Number(r.document_id),
    text: embeddingInput({ title: r.title, headingPath: r.heading_path, text: r.content }),
  }));
}

/**
 * In one transaction: the vectors (of chunks a sync has not deleted meanwhile), then every one of
 * `documentIds` that has no chunk left without a vector leaves the queue. Returns the vectors stored.
 */
export async function storeVectors(
  db: Db,
  space: SpaceRecord,
  chunks: readonly MissingChunk[],
  vectors: readonly Float32Array[],
  documentIds: readonly number[],
): Promise<number> {
  return db.transaction(async (tx) => {
    let stored = 0;
    if (chunks.length > 0) {
      const param = await vectorArrayParam(tx, vectorType(space), space.dimensions, vectors);
      const inserted = await tx.query(
        `INSERT INTO ${spaceTable(space)} (chunk_id, connection_id, embedding)
         SELECT u.chunk_id, c.connection_id, u.embedding
         FROM unnest($1::bigint[], $2::${vectorCast(space)}[]) AS u(chunk_id, embedding)
           JOIN chunks c ON c.id = u.chunk_id
         ON CONFLICT (chunk_id) DO NOTHING`,
        [chunks.map((c) => c.id), param.value],
        param.options,
      );
      stored = inserted.affectedRows ?? 0;
    }
    await tx.query(
      `DELETE FROM embedding_queue q WHERE q.document_id = ANY($1::bigint[])
         AND NOT EXISTS (
           SELECT 1 FROM chunks c WHERE c.document_id = q.document_id
             AND NOT EXISTS (SELECT 1 FROM ${spaceTable(space)} e WHERE e.chunk_id = c.id))`,
      [documentIds],
    );
    return stored;
  });
}

/** A document the model refused: tried again after 1, 2, 4 … minutes (at most a day). */
export async function postpone(db: Queryable, documentId: number): Promise<void> {
  await db.query(
    `UPDATE embedding_queue SET attempts = attempts + 1,
       retry_at = now() + least(interval '1 day', interval '1 minute' * power(2, attempts))
     WHERE document_id = $1`,
    [documentId],
  );
}

/** How much choosing another model would embed (settings.reindexCost): every chunk of every document. */
export async function reindexCost(db: Queryable): Promise<{ documents: number; chunks: number }> {
  const row = await db.query<{ documents: number; chunks: number }>(
    'SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM chunks)::int AS chunks',
  );
  return row.rows[0] ?? { documents: 0, chunks: 0 };
}

export interface QueueState {
  /** Chunks of every document in the index. */
  total: number;
  /** Chunks of the queued documents (some of them may have a vector already: a document half done). */
  queued: number;
  /** Queued documents the model has refused at least once (each waits to be tried again). */
  failedDocuments: number;
  /** Queued documents that still hold back a switch to a new model (not given up). */
  blocking: number;
}

/** Cheap counts from the documents table and the queue (no scan of chunks or vectors). */
export async function queueState(db: Queryable): Promise<QueueState> {
  const rows = await db.query<{ total: number; queued: number; failed: number; blocking: number }>(
    `SELECT (SELECT coalesce(sum(chunk_count), 0) FROM documents)::int AS total,
            (SELECT coalesce(sum(d.chunk_count), 0) FROM embedding_queue q JOIN documents d ON d.id = q.document_id)::int AS queued,
            (SELECT count(*) FROM embedding_queue WHERE attempts > 0)::int AS failed,
            (SELECT count(*) FROM embedding_queue WHERE attempts < ${GIVE_UP_ATTEMPTS})::int AS blocking`,
  );
  const row = rows.rows[0];
  return {
    total: row?.total ?? 0,
    queued: row?.queued ?? 0,
    failedDocuments: row?.failed ?? 0,
    blocking: row?.blocking ?? 0,
  };
}

export interface FillProgress {
  /** Building now: not paused, not stopped, not waiting after a failure, not finished. */
  running: boolean;
  done: number;
  total: number;
  chunksPerSecond: number | null;
  etaSeconds: number | null;
  failedDocuments: number;
  error: string | null;
}

export interface SemanticIndexBuilderOptions {
  db: Db;
  logger: Logger;
  /** Called often (every batch); the caller throttles what it forwards. */
  onProgress: (progress: FillProgress) => void;
  /**
   * The queue holds nothing more to do now (every queued document is done, given up or waiting to
   * be retried): the caller may switch a re-embed's space into service. Errors are logged.
   */
  onCaughtUp?: (space: SpaceRecord, state: QueueState) => Promise<void>;
  /** Applied to error messages shown in the status (a provider may quote a credential back). */
  redact?: (text: string) => string;
  /** @default FILL_BATCH_CHUNKS */
  batchChunks?: number;
  /** Waits between failed calls (tests shorten them). @default 2 s doubling to a minute */
  retryDelaysMs?: readonly number[];
  /** Whether a batch's vectors fit on the volume (tests). @default databaseHealth(db) */
  health?: Pick<DatabaseHealth, 'ensureSpace'>;
}

interface Run {
  space: SpaceRecord;
  embedder: Embedder;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The background loop that fills one space with one embedder (start/stop as the configuration and
 * the pause switch say). It sleeps while there is nothing to do and wakes when told documents were
 * queued (a sync wrote) or opened.
 */
export class SemanticIndexBuilder {
  private run: Run | null = null;
  private wakeUp: (() => void) | null = null;
  private wakeRequested = false;
  private idleWaiters: (() => void)[] = [];
  private busy = false;
  private progress: FillProgress = {
    running: false,
    done: 0,
    total: 0,
    chunksPerSecond: null,
    etaSeconds: null,
    failedDocuments: 0,
    error: null,
  };

  constructor(private readonly options: SemanticIndexBuilderOptions) {}

  /** The space being filled, or null. */
  get target(): SpaceRecord | null {
    return this.run?.space ?? null;
  }

  /** Starts filling `space` (stopping a fill of another space or with another embedder first). */
  async start(space: SpaceRecord, embedder: Embedder): Promise<void> {
    if (this.run && this.run.space.id === space.id && this.run.embedder === embedder) return this.wake();
    await this.stop();
    const controller = new AbortController();
    const run: Run = { space, embedder, controller, done: Promise.resolve() };
    run.done = this.loop(run).catch((error: unknown) => {
      if (!isAbortError(error)) this.options.logger.error('the semantic index stopped', { error });
    });
    this.run = run;
  }

  /** Stops the loop (the current batch is abandoned: it was not stored, so nothing is lost). */
  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.run = null;
    run.controller.abort();
    this.wake();
    await run.done;
    this.setIdle();
    this.publish({ running: false });
  }

  /** Documents were queued or opened: look at the queue again (now, or after the current batch). */
  wake(): void {
    this.wakeRequested = true;
    if (!this.wakeUp) return;
    // Busy from now on, not from when the loop resumes: a whenIdle() right after the wake (a sync
    // that just finished) waits for the queue to be looked at. A wait after a failure is not
    // wakeable (wakeUp is null then), so it never holds whenIdle() for the retry delay.
    this.busy = true;
    this.wakeUp();
  }

  /** Resolves once the loop has nothing to do now: caught up, stopped, or waiting after a failure. */
  whenIdle(): Promise<void> {
    if (!this.run || !this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The latest progress (counts as of the last batch). */
  current(): FillProgress {
    return { ...this.progress };
  }

  /** Refreshes the counts from the database (between batches the builder keeps them itself). */
  async refresh(): Promise<FillProgress> {
    const state = await queueState(this.options.db);
    this.publish({
      done: state.total - state.queued,
      total: state.total,
      failedDocuments: state.failedDocuments,
    });
    return this.current();
  }

  private publish(patch: Partial<FillProgress>): void {
    this.progress = { ...this.progress, ...patch };
    const remaining = this.progress.total - this.progress.done;
    this.progress.etaSeconds =
      this.progress.running && this.progress.chunksPerSecond && remaining > 0
        ? Math.round(remaining / this.progress.chunksPerSecond)
        : null;
    this.options.onProgress(this.current());
  }

  private setBusy(): void {
    this.busy = true;
  }

  private setIdle(): void {
    this.busy = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Sleeps until `ms` passed (null: no limit), the loop is stopped, or (when `wakeable`) it is
   * woken. Waits after a failure are not cut short by a wake: a sync's progress must not make the
   * builder hammer a provider that is down.
   */
  private sleep(run: Run, ms: number | null, wakeable: boolean): Promise<void> {
    if ((wakeable && this.wakeRequested) || run.controller.signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = ms === null ? null : setTimeout(finish, ms);
      const onAbort = () => finish();
      run.controller.signal.addEventListener('abort', onAbort, { once: true });
      if (wakeable) this.wakeUp = finish;
      function finish() {
        if (timer) clearTimeout(timer);
        run.controller.signal.removeEventListener('abort', onAbort);
        resolve();
      }
    }).finally(() => {
      this.wakeUp = null;
    });
  }

  /** Waits doing nothing (idle for whenIdle), then reports running again unless stopped. */
  private async idleFor(run: Run, ms: number | null, wakeable: boolean): Promise<void> {
    this.setIdle();
    await this.sleep(run, ms, wakeable);
    this.setBusy();
    if (!run.controller.signal.aborted) this.publish({ running: true });
  }

  private async loop(run: Run): Promise<void> {
    const { db, logger } = this.options;
    // Batches of the model's own request size, that many in flight; each is stored as it is answered.
    const batchChunks = Math.max(
      1,
      run.embedder.batching?.size ?? this.options.batchChunks ?? FILL_BATCH_CHUNKS,
    );
    const concurrency = Math.max(1, run.embedder.batching?.concurrency ?? 1);
    const retryDelays = this.options.retryDelaysMs ?? PROVIDER_RETRY_MS;
    const health = this.options.health ?? databaseHealth(db);
    const signal = run.controller.signal;
    let priority: number[] = [];
    let priorityReadAt = -Infinity;
    let failures = 0;
    /** The documents of a refused batch, each tried alone next to find the one the model refuses. */
    let suspects: number[] = [];
    let annChecked = false;
    let rate: number | null = null;
    this.setBusy();
    this.publish({ running: true, error: null });
    while (!signal.aborted) {
      const age = performance.now() - priorityReadAt;
      if (
        priority.length === 0 ||
        age > PRIORITY_LIST_MAX_AGE_MS ||
        (this.wakeRequested && age > WAKE_REREAD_MS)
      ) {
        this.wakeRequested = false;
        priority = await queuedDocuments(db, PRIORITY_LIST_DOCUMENTS);
        priorityReadAt = performance.now();
        const state = await queueState(db);
        this.publish({
          done: state.total - state.queued,
          total: state.total,
          failedDocuments: state.failedDocuments,
        });
        if (priority.length === 0) {
          // Caught up: a re-embed may switch to its new space, then sleep until woken.
          this.publish({ running: false, chunksPerSecond: rate });
          if (this.options.onCaughtUp)
            await this.options
              .onCaughtUp(run.space, state)
              .catch((error: unknown) =>
                logger.error('switching to the new embedding space failed', { error }),
              );
          // Documents waiting to be retried are looked at again within a minute.
          if (!signal.aborted) await this.idleFor(run, state.queued > 0 ? 60_000 : null, true);
          continue;
        }
      }
      const isolating = suspects.length > 0;
      const documents = isolating ? suspects.slice(0, 1) : priority.slice(0, batchChunks * concurrency);
      const limit = batchChunks * concurrency;
      const chunks = await missingChunks(db, run.space, documents, limit);
      // The LIMIT cuts in document order: the documents before the last one returned have no chunk
      // left without a vector after this round; when nothing was cut, none of them has.
      const cut = chunks.length === limit ? documents.indexOf(chunks.at(-1)!.documentId) : documents.length;
      const batches: MissingChunk[][] = [];
      for (let start = 0; start < chunks.length; start += batchChunks)
        batches.push(chunks.slice(start, start + batchChunks));
      const started = performance.now();
      const outcomes = await Promise.all(
        batches.map(async (batch) => {
          try {
            // Room for the vectors before the model is paid to compute them.
            health.ensureSpace(chunkBytesEstimate(batch.length, run.space.dimensions), VECTORS_WAIT);
            const { vectors } = await run.embedder.embed(
              batch.map((c) => c.text),
              { kind: 'document', signal },
            );
            if (vectors.length !== batch.length)
              throw new Error(`The model returned ${vectors.length} vectors for ${batch.length} texts.`);
            // Stored at once: a batch answered is never asked again, whatever happens to the others.
            const batchDocuments = [...new Set(batch.map((c) => c.documentId))];
            return {
              stored: await storeVectors(db, run.space, batch, vectors, batchDocuments),
              error: null,
              documents: batchDocuments,
            };
          } catch (error) {
            return { stored: 0, error, documents: [...new Set(batch.map((c) => c.documentId))] };
          }
        }),
      );
      if (signal.aborted) break;
      const stored = outcomes.reduce((sum, o) => sum + o.stored, 0);
      const refused = outcomes.filter((o) => o.error !== null && !isAbortError(o.error));
      if (refused.length === 0) {
        // Documents with no chunk left to embed (all done before, or by this round) leave the queue.
        const finished = documents.slice(0, Math.max(0, cut));
        await storeVectors(db, run.space, [], [], finished);
        if (isolating) {
          if (cut === documents.length) suspects.shift();
          priority = priority.filter((id) => !finished.includes(id));
        } else priority = priority.slice(cut);
      }
      const seconds = (performance.now() - started) / 1000;
      if (stored > 0 && seconds > 0)
        rate = rate === null ? stored / seconds : rate * 0.8 + (stored / seconds) * 0.2;
      this.publish({
        running: true,
        done: Math.min(this.progress.done + stored, this.progress.total),
        chunksPerSecond: rate,
      });
      if (!annChecked && this.progress.done >= ANN_MIN_ROWS) {
        annChecked = true;
        if ((await ensureAnnIndex(db, run.space)) === 'built')
          logger.info('built the vector index', { space: run.space.id });
      }
      if (refused.length === 0) {
        failures = 0;
        if (this.progress.error) this.publish({ error: null });
        continue;
      }
      const message = this.redact(toErrorData(refused[0]!.error).message);
      const inRefused = [...new Set(refused.flatMap((o) => o.documents ?? []))];
      logger.warn('embedding failed', { documents: inRefused.length, failures, error: message });
      this.publish({ error: message });
      if (refused.every((o) => WAIT_FAILURES.has(toErrorData(o.error).code)))
        failures = Math.max(failures, PROVIDER_DOWN_AFTER);
      else if (!isolating && inRefused.length > 1) {
        // Find the document the model refuses: each one alone next, at once.
        suspects = inRefused;
        continue;
      }
      if (failures < PROVIDER_DOWN_AFTER) {
        // One document refused while others were embedded: it waits (backoff recorded in the
        // queue), the others go on.
        failures += 1;
        const document = isolating ? suspects.shift()! : inRefused[0]!;
        await postpone(db, document);
        priority = priority.filter((id) => id !== document);
        continue;
      }
      // Refused again and again: the provider, not a document (down, key revoked). Wait, penalise nobody.
      this.publish({ running: false });
      const wait = retryDelays[Math.min(failures - PROVIDER_DOWN_AFTER, retryDelays.length - 1)] ?? 60_000;
      failures += 1;
      await this.idleFor(run, wait, false);
    }
    this.setIdle();
  }

  private redact(text: string): string {
    return this.options.redact ? this.options.redact(text) : text;
  }
}
