/**
 * Incremental sync of one connection: list → detect changes → fetch only new/changed → normalise
 * and hash (unchanged hash: touch only) → chunk → embed (batched across documents) → write each
 * document atomically → delete what is gone upstream (only after a COMPLETE listing) → optimize.
 * A failing document is recorded and the run goes on; a cancelled or failed run leaves every
 * document in its last good state, and the next run retries whatever did not land.
 */
import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import type {
  DocumentError,
  DocumentNote,
  SyncCounters,
  SyncPhase,
  SyncProgress,
  SyncRunView,
} from '@shared/models';
import type { AppErrorData } from '@shared/errors';
import { chunkMarkdown, type Chunk } from '../chunking/chunker';
import { joinHeadingPath } from '../chunking/sections';
import {
  DEFERRING_CODES,
  type Connector,
  type DocumentNotice,
  type DocumentRef,
  type ListingReport,
} from '../connectors/connector';
import type { Db } from '../db/database';
import { accessGate } from '../db/access-gate';
import { databaseHealth, type DatabaseHealth } from '../db/database-health';
import { DOCUMENT_BYTES_ESTIMATE, chunkBytesEstimate, diskFullError } from '../db/disk-space';
import { spaceKey, type Embedder } from '../embedding/embedder';
import { CairnError, isAbortError, throwIfAborted, toErrorData } from '../errors';
import type { DocumentStore, StoredDocumentState } from '../index/document-store';
import { resolveWritableSpace, sameSpace } from '../index/embedding-spaces';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';
import { goneUpstream, newerListings, planChanges } from './change-detection';
import { EmbedBatcher } from './embed-batcher';
import { embedDocument } from './document-embedding';
import { offloadEmbedder } from './offload-embedder';
import { WriteBatcher } from './write-batcher';
import { contentHash, normalizeText } from '../text/normalize';
import { chunkLocated, joinLocatedParts } from './located-text';
import { carriedFailures, carriedPartialNotes, ListingCollector, stillFailing } from './listing-report';
import { cleanMarkdown } from '../text/clean-markdown';
import { ANALYSIS_VERSION } from '../index/analysis-version';
import { assertSyncable, emptyCounters, finishRun, startRun, type FinishedRun } from './sync-runs';
import type { SyncLock } from './sync-lock';

export interface SyncEngineOptions {
  db: Db;
  store: DocumentStore;
  lock: SyncLock;
  logger?: Logger;
  /** @default chunkMarkdown */
  chunk?: (markdown: string) => Chunk[];
  /**
   * Documents in flight (fetch, then embed). Platform caps still apply inside each connector; a
   * remote embedder needs many documents in flight to fill its batches (bench: 48 chunks/s at 4,
   * 169 at 32 against a 100 ms endpoint). @default 16
   */
  fetchConcurrency?: number;
  /** Inputs per embedder call. @default 64 */
  embedBatchSize?: number;
  /** Documents written per transaction (group commit; a failed group is retried one by one). @default 32 */
  writeBatchDocuments?: number;
  /** Documents to fetch from which an in-process embedder runs in a worker thread (offload-embedder.ts). @default 250 */
  workerMinDocuments?: number;
  /**
   * Applied to every error message the run records: platforms may quote a credential back, and
   * run records reach the UI. @default keeps messages as they are
   */
  redact?: (text: string) => string;
  /** Free space and the database's state (tests). @default databaseHealth(db) */
  health?: Pick<DatabaseHealth, 'ensureSpace'>;
}

export interface SyncRequest {
  connectionId: string;
  connector: Connector;
  /** The embedder of the index's active space. */
  embedder: Embedder;
  /**
   * The active space's embedder NOW. A re-embed can flip the active space while this sync runs and
   * retire the space `embedder` writes into: a write refused after a flip is embedded again with
   * this and written into the new space, and later documents use it directly. @default none: such writes fail
   */
  currentEmbedder?: () => Promise<Embedder>;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}

interface RunContext {
  counters: SyncCounters;
  errors: DocumentError[];
  notes: DocumentNote[];
  skippedKinds: Record<string, number>;
  timings: Record<string, number>;
}

/** Notes kept in memory per run (the stored run keeps fewer): a source of 100k skipped files stays bounded. */
const MAX_NOTES = 1000;

/** What embeds and writes the documents of one run; `embedder` changes when a re-embed flips the active space mid-run. */
interface Pipeline {
  embedder: Embedder;
  batchers: Map<string, EmbedBatcher>;
  writer: WriteBatcher;
  batcherFor(embedder: Embedder): EmbedBatcher;
}

const MAX_TITLE_CHARS = 500;

/**
 * The run error of a run whose every document failed. When they all failed the same way (one code and
 * reason, e.g. a permission the app lacks), the first one's sentence says why, and its reason goes
 * with it so the card can name it in the UI language.
 */
function allFailed(errors: DocumentError[], failed: number): AppErrorData {
  const failures = errors.filter((error) => !error.skipped);
  const first = failures[0];
  const alike =
    first && failures.every((error) => error.code === first.code && error.reason === first.reason);
  if (!first || !alike) return { code: 'DOCUMENT_FAILED', message: `All ${failed} documents failed.` };
  return {
    code: 'DOCUMENT_FAILED',
    message: `All ${failed} documents failed the same way (first: "${first.title}": ${first.message})`,
    ...(first.reason
      ? { details: { reason: first.reason, ...(first.params ? { params: first.params } : {}) } }
      : {}),
  };
}

/** A `{ name: value }` of strings: the params an error's details name for the UI. */
function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === 'string')
  );
}

/** A title as stored: one line, bounded. HTML in it stays text (the UI never renders it as markup). */
function cleanTitle(title: unknown, fallback: string): string {
  const text = typeof title === 'string' ? normalizeText(title).replace(/\s+/g, ' ').trim() : '';
  return Array.from(text || fallback)
    .slice(0, MAX_TITLE_CHARS)
    .join('');
}

export class SyncEngine {
  private readonly logger: Logger;

  constructor(private readonly options: SyncEngineOptions) {
    this.logger = options.logger ?? silentLogger();
  }

  /** What a run records about a failure, with credentials a platform echoed taken out. */
  private errorData(error: unknown): AppErrorData {
    const data = toErrorData(error);
    return this.options.redact ? { ...data, message: this.options.redact(data.message) } : data;
  }

  /** Runs a sync to the end. Throws ALREADY_SYNCING at once if one runs for this connection. */
  async run(request: SyncRequest): Promise<SyncRunView> {
    return (await this.start(request)).done;
  }

  /** Claims the connection and records the run, then syncs in the background. */
  async start(request: SyncRequest): Promise<{ runId: number; done: Promise<SyncRunView> }> {
    const { db, lock } = this.options;
    await assertSyncable(db, request.connectionId);
    const release = await lock.acquire(request.connectionId);
    let claimed: Awaited<ReturnType<typeof startRun>>;
    try {
      claimed = await startRun(db, request.connectionId);
    } catch (error) {
      await release();
      throw error;
    }
    const { runId, previousStatus } = claimed;
    const context: RunContext = {
      counters: emptyCounters(),
      errors: [],
      notes: [],
      skippedKinds: {},
      timings: {},
    };
    const done = this.execute(request, runId, context)
      .catch((error: unknown): FinishedRun => {
        // An unexpected failure (e.g. the database) still closes the run with what it did.
        const cancelled = request.signal?.aborted === true || isAbortError(error);
        if (!cancelled) this.logger.error('sync failed', { connectionId: request.connectionId, error });
        return {
          ...context,
          status: cancelled ? 'cancelled' : 'failed',
          error: cancelled ? null : this.errorData(error),
        };
      })
      .then(async (run) => {
        await this.endBulkWrite(request.connectionId);
        return finishRun(db, request.connectionId, runId, run, previousStatus);
      })
      .finally(release);
    return { runId, done };
  }

  /** Write-time index settings never outlive the run (optimize() ends them, but a cancel skips it). */
  private async endBulkWrite(connectionId: string): Promise<void> {
    try {
      await this.options.store.endBulkWrite?.();
    } catch (error) {
      this.logger.warn('ending the bulk write mode failed', { connectionId, error });
    }
  }

  private async execute(request: SyncRequest, runId: number, context: RunContext): Promise<FinishedRun> {
    const { store } = this.options;
    const { connectionId, connector, embedder, signal } = request;
    const started = performance.now();
    const { counters, errors, notes, skippedKinds, timings } = context;
    let chunksWritten = 0;
    let wrote = false;
    const listed: DocumentRef[] = [];
    let documentsDone = 0;
    const emit = (phase: SyncPhase, done: number, total: number) =>
      request.onProgress?.({
        connectionId,
        runId,
        phase,
        documentsDone: done,
        documentsTotal: total,
        chunksWritten,
        errors: errors.length,
      });
    // A cancelled run reports how far it got, not every document as done.
    const finish = (status: FinishedRun['status'], error: AppErrorData | null): FinishedRun => {
      timings.totalMs = Math.round(performance.now() - started);
      emit('done', status === 'cancelled' ? documentsDone : listed.length, listed.length);
      return { status, counters, errors, notes, skippedKinds, error, timings };
    };
    const note = (entry: DocumentNote) => {
      if (notes.length < MAX_NOTES) notes.push(entry);
    };

    // 1. List. A listing that breaks off still lets us index what it gave, but deletes nothing;
    // neither does one that went on without a part it could not list (a gap).
    emit('listing', 0, 0);
    const listedIds = new Set<string>();
    const collector = new ListingCollector();
    let listingError: AppErrorData | null = null;
    let listingBroken = false;
    // Gaps of a platform listing (a failed call for a part of it), with the call's error: the run's
    // error, and nothing is deleted. A folder's unreadable parts go to the collector, by prefix.
    const gaps: AppErrorData[] = [];
    const report: ListingReport = {
      skipped: (item) => {
        // A file left out on purpose is listed with its reason (errors); a kind of item with no
        // text API is counted per kind and noted.
        if (item.kind === undefined) return collector.skipped(item);
        counters.skipped += 1;
        skippedKinds[item.kind] = (skippedKinds[item.kind] ?? 0) + 1;
        note({
          externalId: item.externalId,
          title: cleanTitle(item.title, item.externalId),
          status: 'skipped',
          kind: item.kind,
          reason: item.message,
        });
      },
      incomplete: (gap) => {
        if (gap.error === undefined) return collector.incomplete(gap);
        if (isAbortError(gap.error)) return;
        const data = this.errorData(gap.error);
        gaps.push({
          ...data,
          message: `${gap.message}: ${data.message} Everything else was synced; nothing was deleted this time.`,
        });
        this.logger.warn('part of the source could not be listed', {
          connectionId,
          what: gap.message,
          error: data,
        });
      },
    };
    try {
      for await (const ref of connector.list(signal, report)) {
        throwIfAborted(signal);
        if (
          !ref ||
          typeof ref.externalId !== 'string' ||
          ref.externalId.length === 0 ||
          listedIds.has(ref.externalId)
        )
          continue;
        listedIds.add(ref.externalId);
        listed.push(ref);
        if (listed.length % 200 === 0) emit('listing', 0, listed.length);
      }
    } catch (error) {
      if (isAbortError(error) || signal?.aborted) return finish('cancelled', null);
      listingError = this.errorData(error);
      listingBroken = true;
      this.logger.warn('listing failed; nothing will be deleted this run', {
        connectionId,
        error: listingError,
      });
    }
    timings.listMs = Math.round(performance.now() - started);
    counters.seen = listed.length;
    if (listingError && listed.length === 0) return finish('failed', listingError);
    // Skipped on purpose: recorded with the reason, not failures. Unlisted parts: a partial run.
    for (const item of collector.skippedItems) errors.push(item);
    counters.skipped += collector.skippedItems.length;
    errors.push(...collector.gapErrors());
    const gapSummary = collector.gapSummary();
    if (gapSummary && !listingError) listingError = { code: 'PERMISSION_DENIED', message: gapSummary };

    // 2. Detect.
    emit('detecting', 0, listed.length);
    const states = await store.listStates(connectionId);
    const plan = planChanges(listed, states);
    // Said before anything is fetched or written when the changed documents would not fit (DISK_FULL).
    if (plan.toFetch.length > 0)
      this.health.ensureSpace(
        plan.toFetch.length * DOCUMENT_BYTES_ESTIMATE,
        `${plan.toFetch.length.toLocaleString('en')} changed documents were not synced; the index is unchanged.`,
      );
    await store.noteListedTimes?.(connectionId, newerListings(plan.toFetch, states));
    counters.unchanged = plan.unchanged.length;
    documentsDone = plan.unchanged.length;
    // What the platform held back from a document stays said while the document is not read again.
    const heldBack = await carriedPartialNotes(this.options.db, connectionId);
    for (const ref of plan.unchanged) {
      const previous = heldBack.get(ref.externalId);
      if (previous) note({ ...previous, title: cleanTitle(ref.title, ref.externalId) });
    }
    // A permanent failure (the file's content) at the revision the file still has is not retried.
    const carried = await carriedFailures(this.options.db, connectionId);
    const planned = plan.toFetch.length;
    plan.toFetch = plan.toFetch.filter((ref) => {
      const previous = stillFailing(ref, carried);
      if (!previous) return true;
      this.recordFailure(context, { ...previous, title: cleanTitle(ref.title, ref.externalId) });
      documentsDone += 1;
      return false;
    });

    // 3. Fetch → normalise → chunk → embed → write, each document on its own. When the platform
    // says stop (its request limit or quota), the document that met it and every one not yet
    // fetched are deferred: not failed, not written, so the next sync plans them again. Fetches in
    // flight are stopped; documents already fetched still land.
    const fetchStarted = performance.now();
    let deferral: AppErrorData | null = null;
    // A write refused for want of space stops the run: nothing more is fetched or written.
    let diskFull: AppErrorData | null = null;
    const stopFetching = new AbortController();
    const fetchSignal = signal ? AbortSignal.any([signal, stopFetching.signal]) : stopFetching.signal;
    setMaxListeners(plan.toFetch.length + 10, fetchSignal);
    const defer = (ref: DocumentRef, reason: AppErrorData) => {
      counters.deferred += 1;
      note({
        externalId: ref.externalId,
        title: cleanTitle(ref.title, ref.externalId),
        status: 'deferred',
        reason: reason.message,
      });
    };
    if (plan.toFetch.length > 0) {
      // Fails the run up front (EMBEDDING_FAILED) when a re-embed has retired this embedder's space.
      await resolveWritableSpace(this.options.db, embedder.space);
      await store.prepareBulkWrite?.(embedder.space, plan.toFetch.length);
      const offloaded = await offloadEmbedder(embedder, plan.toFetch.length, {
        minDocuments: this.options.workerMinDocuments,
        logger: this.logger,
      });
      const batchers = new Map<string, EmbedBatcher>();
      const pipeline: Pipeline = {
        embedder: offloaded.embedder,
        batchers,
        writer: new WriteBatcher(store, {
          maxDocuments: this.options.writeBatchDocuments,
          searching: () => accessGate(this.options.db).busy,
        }),
        batcherFor: (target) => {
          const key = spaceKey(target.space);
          let found = batchers.get(key);
          if (!found)
            batchers.set(
              key,
              (found = new EmbedBatcher(target, { maxBatch: this.options.embedBatchSize, signal })),
            );
          return found;
        },
      };
      const queue = new PQueue({ concurrency: Math.max(1, this.options.fetchConcurrency ?? 16) });
      // p-queue holds one abort listener per queued document until it starts; on the caller's
      // signal that trips Node's leak warning (10 listeners) on every sync of 11+ changed documents.
      const queueSignal = signal ? AbortSignal.any([signal]) : undefined;
      if (queueSignal) setMaxListeners(plan.toFetch.length + 10, queueSignal);
      emit('fetching', documentsDone, listed.length);
      const tasks = plan.toFetch.map((ref) => {
        let running: Promise<void> | null = null;
        return queue
          .add(
            () =>
              (running = (async () => {
                if (diskFull) throw new CairnError('DISK_FULL', diskFull.message);
                if (deferral) return defer(ref, deferral);
                const outcome = await this.syncDocument(
                  request,
                  ref,
                  states.get(ref.externalId),
                  pipeline,
                  fetchSignal,
                );
                if (outcome.notice)
                  note({
                    externalId: ref.externalId,
                    title: cleanTitle(ref.title, ref.externalId),
                    status: 'partial',
                    reason: outcome.notice.message,
                    code: outcome.notice.reason,
                    ...(outcome.notice.params ? { params: outcome.notice.params } : {}),
                  });
                if (outcome.kind === 'touched') counters.unchanged += 1;
                else {
                  if (outcome.kind === 'added') counters.added += 1;
                  else counters.updated += 1;
                  counters.chunksEmbedded += outcome.chunks;
                  chunksWritten += outcome.chunks;
                  wrote = true;
                }
              })()),
            queueSignal ? { signal: queueSignal } : {},
          )
          .catch(async (error: unknown) => {
            // At the cancel p-queue gives up on a running task at once, but the task goes on and its
            // document may still be written: wait for it, so the run records what it wrote (and
            // keeps the lock until then). Its own error, if any, is handled below.
            if (running && signal?.aborted) return running;
            throw error;
          })
          .then(
            () => true,
            (error: unknown) => {
              // Only our own cancel is not a failure: an abort from inside the connector (its own timeout) is.
              if (signal?.aborted) return false;
              const data = this.errorData(error);
              if (data.code === 'DISK_FULL' || (diskFull && isAbortError(error))) {
                if (!diskFull) {
                  diskFull = data;
                  this.logger.warn('the disk is full; the sync stops', { connectionId, error: data });
                  stopFetching.abort();
                }
                return false;
              }
              if (DEFERRING_CODES.has(data.code) || (deferral && isAbortError(error))) {
                if (!deferral) {
                  deferral = data;
                  this.logger.warn(
                    'the platform asked to stop; the remaining documents wait for the next sync',
                    {
                      connectionId,
                      error: data,
                    },
                  );
                  stopFetching.abort();
                }
                defer(ref, deferral);
                return true;
              }
              const details = data.details ?? {};
              this.recordFailure(context, {
                externalId: ref.externalId,
                title: cleanTitle(ref.title, ref.externalId),
                code: data.code,
                message: data.message,
                ...(typeof details['reason'] === 'string' ? { reason: details['reason'] } : {}),
                ...(isStringRecord(details['params']) ? { params: details['params'] } : {}),
                ...(details['skipped'] === true ? { skipped: true } : {}),
                // Only a failure of the content itself is remembered against the revision.
                ...(details['permanent'] === true ? { revision: ref.revision } : {}),
              });
              this.logger.warn('document failed', { connectionId, externalId: ref.externalId, error: data });
              return true;
            },
          )
          .then((settled) => {
            // A document the cancel stopped is not done.
            if (!settled) return;
            documentsDone += 1;
            emit('writing', documentsDone, listed.length);
          });
      });
      await Promise.all(tasks).finally(() => offloaded.dispose());
      counters.embedderCalls = [...batchers.values()].reduce((sum, b) => sum + b.calls, 0);
      counters.embeddingTokens = [...batchers.values()].reduce((sum, b) => sum + b.tokens, 0);
    }
    timings.fetchEmbedWriteMs = Math.round(performance.now() - fetchStarted);
    if (signal?.aborted) return finish('cancelled', null);
    // Nothing is deleted or rebuilt on a full disk: the documents written so far stay, the rest as it was.
    if (diskFull) return finish('failed', stoppedForSpace(diskFull, counters.added + counters.updated));

    // 4. Delete what is gone upstream: only a complete listing proves absence.
    if (!listingBroken && gaps.length === 0) {
      // Documents under a part the listing could not read are not proven gone.
      const gone = goneUpstream(listedIds, states).filter((id) => !collector.covers(id));
      if (gone.length > 0) {
        emit('deleting', documentsDone, listed.length);
        const deleteStarted = performance.now();
        counters.deleted = await store.deleteDocuments(connectionId, gone);
        timings.deleteMs = Math.round(performance.now() - deleteStarted);
      }
    }

    // 5. Bulk index maintenance after the writes (e.g. the HNSW build), never fatal.
    if (wrote && store.optimize) {
      const optimizeStarted = performance.now();
      try {
        await store.optimize(signal);
      } catch (error) {
        if (!isAbortError(error))
          this.logger.warn('index optimisation failed; search uses an exact scan meanwhile', { error });
      }
      timings.optimizeMs = Math.round(performance.now() - optimizeStarted);
    }

    if (counters.failed > 0 && counters.failed === planned && counters.unchanged === 0 && counters.seen > 0) {
      return finish('failed', listingError ?? allFailed(errors, counters.failed));
    }
    const trouble: AppErrorData | null = listingError ?? deferral ?? gaps[0] ?? null;
    const partial = counters.failed > 0 || counters.deferred > 0 || trouble !== null;
    return finish(partial ? 'partial' : 'succeeded', trouble);
  }

  /** A document that did not get indexed: skipped on purpose, or failed. */
  private recordFailure(context: RunContext, error: DocumentError): void {
    context.errors.push(error);
    if (error.skipped) context.counters.skipped = (context.counters.skipped ?? 0) + 1;
    else context.counters.failed += 1;
  }

  private get health(): Pick<DatabaseHealth, 'ensureSpace'> {
    return this.options.health ?? databaseHealth(this.options.db);
  }

  private async syncDocument(
    request: SyncRequest,
    ref: DocumentRef,
    state: StoredDocumentState | undefined,
    pipeline: Pipeline,
    fetchSignal: AbortSignal,
  ): Promise<
    ({ kind: 'touched' } | { kind: 'added' | 'updated'; chunks: number }) & { notice?: DocumentNotice }
  > {
    const { connectionId, connector, signal } = request;
    const fetched = await connector.fetch(ref, fetchSignal);
    throwIfAborted(signal);
    if (!fetched || typeof fetched.markdown !== 'string')
      throw new CairnError('DOCUMENT_FAILED', 'The source returned no text for this document.');
    const located = fetched.parts ? joinLocatedParts(fetched.parts) : null;
    const source = located ? located.content : normalizeText(fetched.markdown);
    // What is indexed and shown is the text without site-generator markup; the hash stays the source's.
    // Located text (pages, slides, rows) is extracted text, not Markdown with front matter, and its
    // chunks' locations are offsets into it: it is indexed as it is.
    const { markdown: content, metadata } = located
      ? { markdown: source, metadata: {} }
      : cleanMarkdown(source);
    const title = cleanTitle(metadata.title ?? fetched.title ?? ref.title, ref.externalId);
    const breadcrumb = (fetched.breadcrumb ?? []).map((crumb) => cleanTitle(crumb, '')).filter(Boolean);
    // The breadcrumb is part of every chunk, so a document moved in its tree is rewritten like an edited one.
    const hash = contentHash(breadcrumb.length > 0 ? `${joinHeadingPath(breadcrumb)}\n${source}` : source);
    // The title feeds every chunk's embedding and keyword text, so a renamed document is rewritten;
    // so is one whose rows an older analysis wrote.
    if (
      state &&
      state.contentHash === hash &&
      state.title === title &&
      state.analysisVersion === ANALYSIS_VERSION
    ) {
      await this.options.store.touchDocument(connectionId, ref, title);
      return { kind: 'touched', notice: fetched.notice };
    }
    const chunk = this.options.chunk ?? chunkMarkdown;
    const chunks = (located ? chunkLocated(located, chunk) : chunk(content)).map((piece) =>
      breadcrumb.length > 0
        ? { ...piece, headingPath: joinHeadingPath([...breadcrumb, piece.headingPath]) }
        : piece,
    );
    const write = async (embedder: Embedder) => {
      const { vectors, keywordTexts } = await embedDocument(pipeline.batcherFor(embedder), title, chunks);
      throwIfAborted(signal);
      // Cairn's own writes stop short of the database's reserve (disk-space.ts).
      this.health.ensureSpace(chunkBytesEstimate(chunks.length, embedder.space.dimensions));
      await pipeline.writer.write({
        connectionId,
        ref,
        title,
        contentHash: hash,
        content,
        metadata,
        chunks,
        vectors,
        // The inputs are the chunks' embeddingInput, so their keyword texts are keywordInput's.
        ...(keywordTexts ? { searchTexts: keywordTexts } : {}),
        space: embedder.space,
      });
    };
    const used = pipeline.embedder;
    try {
      await write(used);
    } catch (error) {
      // A re-embed may have flipped the active space since this document was embedded: then its
      // vectors belong to a retired space. Embed it again for the space that serves now.
      const now = request.currentEmbedder && !signal?.aborted ? await request.currentEmbedder() : null;
      if (!now || sameSpace(now.space, used.space)) throw error;
      if (sameSpace(pipeline.embedder.space, used.space)) {
        this.logger.info('the active embedding space changed during the sync; writing into the new one', {
          connectionId,
          from: spaceKey(used.space),
          to: spaceKey(now.space),
        });
        pipeline.embedder = now;
      }
      await write(now);
    }
    return { kind: state ? 'updated' : 'added', chunks: chunks.length, notice: fetched.notice };
  }
}

/** The run's error after a write was refused for space: how far it got, and that the rest is as it was. */
function stoppedForSpace(refused: AppErrorData, written: number): AppErrorData {
  const details = refused.details ?? {};
  const volume = typeof details['volume'] === 'string' ? details['volume'] : null;
  const free = typeof details['freeBytes'] === 'number' ? details['freeBytes'] : null;
  if (volume === null) return refused;
  const outcome =
    written === 0
      ? 'the index is unchanged.'
      : `the sync stopped after ${written.toLocaleString('en')} documents; the rest of the index is unchanged.`;
  const error = diskFullError({ volume, freeBytes: free ?? Number.POSITIVE_INFINITY }, outcome);
  return { code: error.code, message: error.message, details: { ...details } };
}
