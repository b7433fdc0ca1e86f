/**
 * The DEMO backend's sync: walks the sample corpus one document per tick and emits the same
 * events the real sync engine does (sync.progress, connections.changed, sync.finished), so the
 * UI's live progress, failure and cancellation paths can be exercised without any platform.
 */
import type { DocumentError, SyncCounters, SyncProgress, SyncRunView } from '../../../src-shared/models';
import { demoSourceDocuments, indexDocument, type DemoConnection, type DemoState, type DemoTimers, type Emit, type IndexedDocument } from './demo-state';

export interface DemoSyncDeps {
  state: DemoState;
  timers: DemoTimers;
  emit: Emit;
  /** Delay between two steps of a run. */
  tickMs: number;
}

function emptyCounters(): SyncCounters {
  return { seen: 0, added: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, chunksEmbedded: 0, embedderCalls: 0, embeddingTokens: 0 };
}

/** Starts a run in the background; the caller has checked that none is running. */
export function startDemoSync(deps: DemoSyncDeps, connection: DemoConnection): number {
  const { state, timers, emit, tickMs } = deps;
  const runId = state.newId();
  const controller = new AbortController();
  connection.running = controller;
  const run: SyncRunView = { id: runId, connectionId: connection.view.id, status: 'running', startedAt: new Date().toISOString(), finishedAt: null, counters: emptyCounters(), errors: [], error: null };
  const progress: SyncProgress = { connectionId: connection.view.id, runId, phase: 'listing', documentsDone: 0, documentsTotal: 0, chunksWritten: 0, errors: 0 };
  const previous = new Map(connection.indexed.map((document) => [document.externalId, document]));
  const next: IndexedDocument[] = [];
  const errors: DocumentError[] = [];
  connection.view = { ...connection.view, syncStatus: 'syncing' };
  emit('connections.changed', state.views());
  emit('sync.progress', { ...progress });

  const finish = (status: SyncRunView['status'], failure: SyncRunView['error']) => {
    connection.running = null;
    Object.assign(run, { status, finishedAt: new Date().toISOString(), errors, error: failure });
    connection.runs.unshift({ ...run });
    if (status === 'succeeded' || status === 'partial') {
      connection.indexed = next;
      run.counters.deleted = [...previous.keys()].filter((id) => !next.some((document) => document.externalId === id)).length;
    }
    const documentCount = connection.indexed.length;
    const chunkCount = connection.indexed.reduce((sum, document) => sum + document.chunks.length, 0);
    const syncStatus = status === 'failed' ? 'failed' : status === 'cancelled' ? (connection.view.lastSyncAt ? 'synced' : 'idle') : 'synced';
    const syncError = status === 'failed' ? (failure?.message ?? 'Sync failed.') : status === 'partial' ? `${errors.length} document(s) could not be indexed.` : status === 'cancelled' ? connection.view.syncError : null;
    const finishedAt = run.finishedAt;
    connection.view = {
      ...connection.view,
      syncStatus,
      syncError,
      documentCount,
      chunkCount,
      lastSyncAt: status === 'succeeded' || status === 'partial' ? finishedAt : connection.view.lastSyncAt,
      nextSyncAt: status === 'cancelled' ? connection.view.nextSyncAt : new Date(Date.now() + 24 * 3_600_000).toISOString(),
    };
    emit('sync.progress', { ...progress, phase: 'done' });
    emit('sync.finished', { ...run, counters: { ...run.counters }, errors: [...errors] });
    emit('connections.changed', state.views());
  };

  const sources = demoSourceDocuments(connection.view);
  let index = -1;
  const step = () => {
    if (controller.signal.aborted) return finish('cancelled', { code: 'CANCELLED', message: 'Cancelled.' });
    if (index === -1) {
      // Listing: this is where a real connector meets expired credentials.
      if (Object.values(connection.secrets).some((value) => value === 'expired')) {
        return finish('failed', { code: 'AUTH_EXPIRED', message: 'The access token has expired. Update the credentials and sync again.' });
      }
      progress.phase = 'fetching';
      progress.documentsTotal = sources.length;
      run.counters.seen = sources.length;
    } else if (index < sources.length) {
      const source = sources[index]!;
      if (source.document.unreadable) {
        errors.push({ externalId: source.externalId, title: source.title, code: 'DOCUMENT_FAILED', message: 'Binary file skipped: not Markdown or text.' });
        run.counters.failed++;
        progress.errors++;
      } else {
        const old = previous.get(source.externalId);
        const document = old ?? indexDocument(state, connection.view.id, source);
        if (old) run.counters.unchanged++;
        else {
          run.counters.added++;
          run.counters.chunksEmbedded += document.chunks.length;
          run.counters.embedderCalls++;
          progress.chunksWritten += document.chunks.length;
        }
        next.push(document);
      }
      progress.documentsDone = index + 1;
      progress.phase = progress.documentsDone < sources.length ? 'embedding' : 'writing';
    } else {
      return finish(errors.length > 0 ? 'partial' : 'succeeded', null);
    }
    emit('sync.progress', { ...progress });
    index++;
    timers.later(tickMs, step);
  };
  timers.later(tickMs, step);
  return runId;
}
