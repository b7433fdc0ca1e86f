/**
 * The documents phase of a sync: every new or changed document is fetched, normalised, chunked,
 * analysed and written on its own (document-sync.ts), a bounded number at once (p-queue), with
 * writes grouped across documents (keyword analysis in a worker thread for a large sync); the
 * queue is fed a few documents ahead (bounded-feed.ts) and what written documents leave behind is
 * collected as the run goes (heap-budget.ts). A failing document is recorded and the
 * others go on. When the platform says stop (its request limit or quota), the document that met it
 * and every one not yet fetched are deferred: not failed, not written, so the next sync plans them
 * again. Fetches in flight are stopped; documents already fetched still land. A write refused for
 * want of space (DISK_FULL) stops the run: nothing more is fetched or written. So does a source that
 * cannot be reached, a few attempts in a row (source-watch.ts): what it did not reach is deferred.
 */
import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import type { AppErrorData } from '@shared/errors';
import type { DocumentError } from '@shared/models';
import { DEFERRING_CODES, type DocumentRef } from '../connectors/connector';
import { accessGate } from '../db/access-gate';
import { diskFullError } from '../db/disk-space';
import { CairnError, isAbortError } from '../errors';
import type { StoredDocumentState } from '../index/document-store';
import type { Logger } from '../logging/logger';
import { syncDocument, type AnalyzeWrite, type DocumentOutcome } from './document-sync';
import { analyzerForSync } from './keyword-analysis';
import { cleanTitle, type RunRecord } from './run-record';
import { feedBounded } from './bounded-feed';
import { HeapBudget } from './heap-budget';
import { connectionFailure, SourceWatch, type UnreachableSource } from './source-watch';
import { spaceCheck, type SyncEngineOptions, type SyncRequest } from './sync-request';
import { WriteBatcher } from './write-batcher';

export interface DocumentsRun {
  request: SyncRequest;
  /** The documents to fetch, in order. */
  refs: DocumentRef[];
  states: Map<string, StoredDocumentState>;
  record: RunRecord;
  /** Documents listed in all (the progress' total). */
  listed: number;
  logger: Logger;
}

export interface DocumentsOutcome {
  /** The platform's stop that deferred the rest, or null. */
  deferral: AppErrorData | null;
  /**
   * What stopped the run and fails it, worded with how far it got (a write refused for want of
   * space), or null. Nothing is deleted or rebuilt after it.
   */
  stop: AppErrorData | null;
  /** Something was written (the index wants its bulk maintenance). */
  wrote: boolean;
}

/** The outcome while the documents run: the first refusal for space, as the store said it. */
interface Running extends DocumentsOutcome {
  diskFull: AppErrorData | null;
  /** The source judged unreachable: every document from then on is deferred. */
  unreachable: UnreachableSource<DocumentError> | null;
  watch: SourceWatch<DocumentError> | null;
}

export async function syncDocuments(
  options: SyncEngineOptions,
  run: DocumentsRun,
): Promise<DocumentsOutcome> {
  const started = performance.now();
  const outcome: Running = {
    deferral: null,
    stop: null,
    wrote: false,
    diskFull: null,
    unreachable: null,
    watch: null,
  };
  if (run.refs.length > 0) await syncAll(options, run, outcome);
  run.record.timings.fetchEmbedWriteMs = Math.round(performance.now() - started);
  const { counters } = run.record;
  const stop = outcome.diskFull
    ? stoppedForSpace(outcome.diskFull, counters.added + counters.updated)
    : outcome.unreachable && stoppedUnreachable(outcome.unreachable, counters.deferred);
  return { deferral: outcome.deferral, stop, wrote: outcome.wrote };
}

async function syncAll(options: SyncEngineOptions, run: DocumentsRun, outcome: Running): Promise<void> {
  const { request, refs, record } = run;
  const { signal } = request;
  const stopFetching = new AbortController();
  const fetchSignal = signal ? AbortSignal.any([signal, stopFetching.signal]) : stopFetching.signal;
  setMaxListeners(refs.length + 10, fetchSignal);
  await options.store.prepareBulkWrite?.(refs.length);
  const analysis = await analyzerForSync(refs.length, {
    minDocuments: options.workerMinDocuments,
    logger: run.logger,
  });
  const pipeline: AnalyzeWrite = {
    analyzer: analysis.analyzer,
    writer: new WriteBatcher(options.store, {
      maxDocuments: options.writeBatchDocuments,
      searching: () => accessGate(options.db).busy,
    }),
  };
  const queue = new PQueue({ concurrency: Math.max(1, options.fetchConcurrency ?? 16) });
  // p-queue holds one abort listener per queued document until it starts; on the caller's
  // signal that trips Node's leak warning (10 listeners) on every sync of 11+ changed documents.
  const queueSignal = signal ? AbortSignal.any([signal]) : undefined;
  if (queueSignal) setMaxListeners(refs.length + 10, queueSignal);
  record.progress('fetching', record.documentsDone, run.listed);
  const stop = () => stopFetching.abort();
  outcome.watch = new SourceWatch<DocumentError>({
    onUnreachable: (source) => {
      outcome.unreachable = source;
      run.logger.warn('the source cannot be reached; the sync stops', {
        connectionId: request.connectionId,
        host: source.host,
        attempts: source.attempts,
      });
      // What the streak recorded as failed was never reached either: it waits, like the rest.
      for (const item of source.items) {
        record.withdrawFailure(item);
        defer(record, item, source.first);
      }
      stop();
    },
  });
  const deps = {
    store: options.store,
    health: spaceCheck(options),
    ...(options.chunk ? { chunk: options.chunk } : {}),
  };
  const journal = options.journal;
  const connectionId = request.connectionId;
  // What each written document leaves behind is collected as the run goes, not at V8's leisure.
  const heap = options.heapBudget?.() ?? new HeapBudget();
  const syncOne = (ref: DocumentRef) => {
    let running: Promise<void> | null = null;
    return queue
      .add(
        () =>
          (running = (async () => {
            if (outcome.diskFull) throw new CairnError('DISK_FULL', outcome.diskFull.message);
            if (outcome.unreachable) return defer(record, ref, outcome.unreachable.first);
            if (outcome.deferral) return defer(record, ref, outcome.deferral);
            journal?.begin(connectionId, ref);
            const done = await syncDocument(
              deps,
              request,
              ref,
              run.states.get(ref.externalId),
              pipeline,
              fetchSignal,
            ).finally(() => journal?.end(connectionId, ref.externalId));
            count(record, ref, done, outcome);
            outcome.watch?.reached();
          })()),
        queueSignal ? { signal: queueSignal } : {},
      )
      .catch(async (error: unknown) => {
        // At the cancel p-queue gives up on a running task at once, but the task goes on and its
        // document may still be written: wait for it, so the run records what it wrote (and keeps
        // the lock until then). Its own error, if any, is handled below.
        if (running && signal?.aborted) return running;
        throw error;
      })
      .then(
        () => true,
        (error: unknown) => settleFailure(run, ref, error, outcome, stop),
      )
      .then((settled) => {
        // A document the cancel stopped is not done.
        if (!settled) return;
        record.documentsDone += 1;
        record.progress('writing', record.documentsDone, run.listed);
        heap.check();
      });
  };
  // Documents in hand when Cairn last died go first, one at a time with nothing else in flight:
  // if one of them kills it again, the journal knows which (crash-journal.ts).
  const suspects = journal?.suspects(connectionId) ?? new Set<string>();
  const work = (async () => {
    for (const ref of refs.filter((candidate) => suspects.has(candidate.externalId))) {
      if (signal?.aborted) break;
      await syncOne(ref);
    }
    await feedBounded(
      refs.filter((ref) => !suspects.has(ref.externalId)),
      queue,
      syncOne,
      // A cancelled run queues nothing more; what is queued already is stopped by the queue's signal.
      { stopped: () => signal?.aborted === true },
    );
  })();
  await work.finally(async () => {
    await outcome.watch?.dispose();
    await analysis.dispose();
  });
}

/** A document that went through: touched (unchanged text) or written, and what the platform held back from it. */
function count(record: RunRecord, ref: DocumentRef, done: DocumentOutcome, outcome: DocumentsOutcome): void {
  if (done.notice)
    record.note({
      externalId: ref.externalId,
      title: cleanTitle(ref.title, ref.externalId),
      status: 'partial',
      reason: done.notice.message,
      code: done.notice.reason,
      ...(done.notice.params ? { params: done.notice.params } : {}),
    });
  if (done.kind === 'touched') {
    record.counters.unchanged += 1;
    return;
  }
  if (done.kind === 'added') record.counters.added += 1;
  else record.counters.updated += 1;
  record.counters.chunksWritten += done.chunks;
  record.chunksWritten += done.chunks;
  outcome.wrote = true;
}

/**
 * A document that failed: deferred when the platform said stop (the first such stop stops every
 * fetch), recorded as failed otherwise. False when the run's own cancel stopped it (not done).
 */
function settleFailure(
  run: DocumentsRun,
  ref: DocumentRef,
  error: unknown,
  outcome: Running,
  stopFetching: () => void,
): boolean {
  const { record, request } = run;
  // Only our own cancel is not a failure: an abort from inside the connector (its own timeout) is.
  if (request.signal?.aborted) return false;
  const data = record.errorData(error);
  // A write refused for want of space stops the run; the document is not done, nor failed.
  if (data.code === 'DISK_FULL' || (outcome.diskFull && isAbortError(error))) {
    if (!outcome.diskFull) {
      outcome.diskFull = data;
      run.logger.warn('the disk is full; the sync stops', {
        connectionId: request.connectionId,
        error: data,
      });
      stopFetching();
    }
    return false;
  }
  const unreachable = connectionFailure(data);
  // After the verdict, what was in flight (stopped, or failing the same way) waits too.
  if (outcome.unreachable && (unreachable || isAbortError(error))) {
    defer(record, ref, outcome.unreachable.first);
    return true;
  }
  if (DEFERRING_CODES.has(data.code) || (outcome.deferral && isAbortError(error))) {
    if (!outcome.deferral) {
      outcome.deferral = data;
      run.logger.warn('the platform asked to stop; the remaining documents wait for the next sync', {
        connectionId: request.connectionId,
        error: data,
      });
      stopFetching();
    }
    defer(record, ref, outcome.deferral);
    return true;
  }
  const details = data.details ?? {};
  const failure: DocumentError = {
    externalId: ref.externalId,
    title: cleanTitle(ref.title, ref.externalId),
    code: data.code,
    message: data.message,
    ...(typeof details['reason'] === 'string' ? { reason: details['reason'] } : {}),
    ...(isStringRecord(details['params']) ? { params: details['params'] } : {}),
    ...(details['skipped'] === true ? { skipped: true } : {}),
    // Only a failure of the content itself is remembered against the revision.
    ...(details['permanent'] === true ? { revision: ref.revision } : {}),
  };
  record.recordFailure(failure);
  run.logger.warn('document failed', {
    connectionId: request.connectionId,
    externalId: ref.externalId,
    error: data,
  });
  // A few of these in a row and the source counts as unreachable (the failure then turns deferred).
  if (unreachable) outcome.watch?.failed(unreachable, failure);
  return true;
}

function defer(
  record: RunRecord,
  ref: Pick<DocumentRef, 'externalId' | 'title'>,
  reason: AppErrorData,
): void {
  record.counters.deferred += 1;
  record.note({
    externalId: ref.externalId,
    title: cleanTitle(ref.title, ref.externalId),
    status: 'deferred',
    reason: reason.message,
  });
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

/**
 * The run's error when the source could not be reached: the address (and how it failed), that the
 * sync stopped, and that what it did not reach waits for the next sync.
 */
function stoppedUnreachable(source: UnreachableSource<DocumentError>, deferred: number): AppErrorData {
  const how = /\(([^()]+)\)\.?$/.exec(source.first.message)?.[1] ?? source.first.code;
  const what = source.host ? `Cannot reach ${source.host} (${how})` : source.first.message.replace(/\.$/, '');
  const waiting =
    deferred === 1
      ? '1 document not reached waits'
      : `${deferred.toLocaleString('en')} documents not reached wait`;
  return {
    code: 'SOURCE_UNREACHABLE',
    message: `${what}: the sync stopped after ${source.attempts} attempts in a row; ${waiting} for the next sync, and the index keeps what it had.`,
    // The UI's headline names the address; without one, the code's own headline.
    ...(source.host ? { details: { reason: 'sync.unreachable', params: { host: source.host } } } : {}),
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
