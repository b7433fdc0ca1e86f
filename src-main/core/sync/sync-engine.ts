/**
 * Incremental sync of one connection, in phases: list (listing.ts) → detect changes → the documents
 * (document-pipeline.ts: fetch only new/changed → normalise and hash, unchanged hash: touch only →
 * chunk → analyse (keyword text) → write each document atomically) → delete what is gone upstream
 * (only after a COMPLETE listing) → optimize; then the run's outcome is classified (run-outcome.ts).
 * A failing document is recorded and the run goes on; a cancelled or failed run leaves every
 * document in its last good state, and the next run retries whatever did not land. A written
 * document is searchable by keyword at once; with a semantic model its vectors follow in the
 * background (spaces/semantic-index.ts), which the store's write queues it for.
 */
import type { SyncRunView } from '@shared/models';
import type { DocumentRef } from '../connectors/connector';
import { DOCUMENT_BYTES_ESTIMATE } from '../db/disk-space';
import { isAbortError } from '../errors';
import type { StoredDocumentState } from '../index/document-store';
import { silentLogger, type Logger } from '../logging/logger';
import { goneUpstream, newerListings, planChanges } from './change-detection';
import { syncDocuments } from './document-pipeline';
import { carriedFailures, carriedPartialNotes, stillFailing } from './listing-report';
import { listSource, type Listing } from './listing';
import { classifyRun, type RunFacts } from './run-outcome';
import { cleanTitle, RunRecord } from './run-record';
import { spaceCheck, type SyncEngineOptions, type SyncRequest } from './sync-request';
import { assertSyncable, finishRun, startRun, type FinishedRun } from './sync-runs';

export type { SyncEngineOptions, SyncRequest } from './sync-request';

/** What the detect phase decided. */
interface Plan {
  states: Map<string, StoredDocumentState>;
  /** New or changed documents, less those still failing at the same revision. */
  toFetch: DocumentRef[];
  /** New or changed documents before that. */
  planned: number;
}

export class SyncEngine {
  private readonly logger: Logger;

  constructor(private readonly options: SyncEngineOptions) {
    this.logger = options.logger ?? silentLogger();
  }

  /** Runs a sync to the end. Throws ALREADY_SYNCING at once if one runs for this connection. */
  async run(request: SyncRequest): Promise<SyncRunView> {
    return (await this.start(request)).done;
  }

  /** Claims the connection and records the run, then syncs in the background. */
  async start(request: SyncRequest): Promise<{ runId: number; done: Promise<SyncRunView> }> {
    const { db, lock } = this.options;
    const { connectionId } = request;
    await assertSyncable(db, connectionId);
    const release = await lock.acquire(connectionId);
    let claimed: Awaited<ReturnType<typeof startRun>>;
    try {
      claimed = await startRun(db, connectionId);
    } catch (error) {
      await release();
      throw error;
    }
    const { runId, previousStatus } = claimed;
    const { onProgress } = request;
    const record = new RunRecord({ connectionId, runId, onProgress, redact: this.options.redact });
    const done = this.execute(request, record)
      .catch((error: unknown): FinishedRun => {
        // An unexpected failure (e.g. the database) still closes the run with what it did.
        const cancelled = request.signal?.aborted === true || isAbortError(error);
        if (!cancelled) this.logger.error('sync failed', { connectionId, error });
        return record.result(cancelled ? 'cancelled' : 'failed', cancelled ? null : record.errorData(error));
      })
      .then(async (run) => {
        await this.endBulkWrite(connectionId);
        this.options.journal?.finish(connectionId);
        return finishRun(db, connectionId, runId, run, previousStatus);
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

  private async execute(request: SyncRequest, record: RunRecord): Promise<FinishedRun> {
    const { connectionId, connector, signal } = request;
    const started = performance.now();
    const listing = await listSource({ connectionId, connector, signal, record, logger: this.logger });
    const finish = (
      facts: Omit<RunFacts, 'counters' | 'errors' | 'listingBroken' | 'listingError' | 'gaps'>,
    ) => {
      const { status, error } = classifyRun({
        ...facts,
        ...listingFacts(listing),
        counters: record.counters,
        errors: record.errors,
      });
      record.timings.totalMs = Math.round(performance.now() - started);
      // A cancelled run reports how far it got, not every document as done.
      const total = listing.refs.length;
      record.progress('done', status === 'cancelled' ? record.documentsDone : total, total);
      return record.result(status, error);
    };
    if (listing.cancelled || (listing.broken && listing.refs.length === 0))
      return finish({ cancelled: listing.cancelled, planned: 0, deferral: null, stop: null });
    const plan = await this.detect(connectionId, listing, record);
    const { deferral, stop, wrote } = await syncDocuments(this.options, {
      request,
      refs: plan.toFetch,
      states: plan.states,
      record,
      listed: listing.refs.length,
      logger: this.logger,
    });
    const facts = { cancelled: signal?.aborted === true, planned: plan.planned, deferral, stop };
    // Nothing is deleted or rebuilt after a stop: the documents written so far stay, the rest as it was.
    if (facts.cancelled || stop) return finish(facts);
    await this.deleteGone(connectionId, listing, plan.states, record);
    if (wrote) await this.optimize(record, signal);
    return finish(facts);
  }

  /** Which listed documents are new or changed, unchanged, or still failing as they did in an earlier run. */
  private async detect(connectionId: string, listing: Listing, record: RunRecord): Promise<Plan> {
    const { db, store } = this.options;
    record.progress('detecting', 0, listing.refs.length);
    const states = await store.listStates(connectionId);
    const plan = planChanges(listing.refs, states);
    // Said before anything is fetched or written when the changed documents would not fit (DISK_FULL).
    if (plan.toFetch.length > 0)
      spaceCheck(this.options).ensureSpace(
        plan.toFetch.length * DOCUMENT_BYTES_ESTIMATE,
        `${plan.toFetch.length.toLocaleString('en')} changed documents were not synced; the index is unchanged.`,
      );
    await store.noteListedTimes?.(connectionId, newerListings(plan.toFetch, states));
    record.counters.unchanged = plan.unchanged.length;
    record.documentsDone = plan.unchanged.length;
    // What the platform held back from a document stays said while the document is not read again.
    const heldBack = await carriedPartialNotes(db, connectionId);
    for (const ref of plan.unchanged) {
      const previous = heldBack.get(ref.externalId);
      if (previous) record.note({ ...previous, title: cleanTitle(ref.title, ref.externalId) });
    }
    // A permanent failure (the file's content) at the revision the file still has is not retried.
    const carried = await carriedFailures(db, connectionId);
    const toFetch = plan.toFetch.filter((ref) => {
      const previous = stillFailing(ref, carried);
      if (!previous) return true;
      record.recordFailure({ ...previous, title: cleanTitle(ref.title, ref.externalId) });
      record.documentsDone += 1;
      return false;
    });
    return { states, toFetch, planned: plan.toFetch.length };
  }

  /** Deletes what is gone upstream: only a complete listing proves absence. */
  private async deleteGone(
    connectionId: string,
    listing: Listing,
    states: Map<string, StoredDocumentState>,
    record: RunRecord,
  ): Promise<void> {
    if (listing.broken || listing.gaps.length > 0) return;
    // Documents under a part the listing could not read are not proven gone.
    const gone = goneUpstream(listing.ids, states).filter((id) => !listing.collector.covers(id));
    if (gone.length === 0) return;
    record.progress('deleting', record.documentsDone, listing.refs.length);
    const deleteStarted = performance.now();
    record.counters.deleted = await this.options.store.deleteDocuments(connectionId, gone);
    record.timings.deleteMs = Math.round(performance.now() - deleteStarted);
  }

  /** Bulk index maintenance after the writes (e.g. the HNSW build), never fatal. */
  private async optimize(record: RunRecord, signal: AbortSignal | undefined): Promise<void> {
    const { store } = this.options;
    if (!store.optimize) return;
    const optimizeStarted = performance.now();
    try {
      await store.optimize(signal);
    } catch (error) {
      if (!isAbortError(error))
        this.logger.warn('index optimisation failed; search uses an exact scan meanwhile', { error });
    }
    record.timings.optimizeMs = Math.round(performance.now() - optimizeStarted);
  }
}

/** The listing's part of the run's facts. */
function listingFacts(listing: Listing): Pick<RunFacts, 'listingBroken' | 'listingError' | 'gaps'> {
  return { listingBroken: listing.broken, listingError: listing.error, gaps: listing.gaps };
}
