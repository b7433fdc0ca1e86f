/** The sync_runs table and the connection's sync status: what a run leaves behind for the UI. */
import type { AppErrorData, ErrorCode } from '@shared/errors';
import type {
  DocumentError,
  DocumentNote,
  SyncCounters,
  SyncRunStatus,
  SyncRunView,
  SyncStatus,
  ConnectionMode,
} from '@shared/models';
import type { Db } from '../db/database';
import { CairnError } from '../errors';
import { directModeSyncError } from './sync-errors';
import { normalizeText } from '../text/normalize';
import { countOf } from '../text/plural';
import { QUARANTINE_REASON, type QuarantinedDocument } from './crash-journal';

export function emptyCounters(): SyncCounters {
  return {
    seen: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    failed: 0,
    deferred: 0,
    skipped: 0,
    chunksWritten: 0,
  };
}

/** Counters as stored: runs recorded before vectors moved out of the sync counted chunksEmbedded (and embedder calls). */
type StoredCounters = Partial<SyncCounters> & { chunksEmbedded?: number };

function countersOf(stored: StoredCounters): SyncCounters {
  const counters = emptyCounters();
  for (const key of Object.keys(counters) as (keyof SyncCounters)[]) {
    const value = stored[key];
    if (typeof value === 'number') counters[key] = value;
  }
  counters.chunksWritten = stored.chunksWritten ?? stored.chunksEmbedded ?? 0;
  return counters;
}

export interface FinishedRun {
  status: Exclude<SyncRunStatus, 'running'>;
  counters: SyncCounters;
  errors: DocumentError[];
  notes: DocumentNote[];
  skippedKinds: Record<string, number>;
  error: AppErrorData | null;
  timings: Record<string, number>;
}

/**
 * Refuses a run of a connection that is gone (NOT_FOUND) or in direct mode, before the run is
 * claimed. The two columns a run depends on, read beside the run's own columns of the same row;
 * the connection's view (secrets, state, limitations) is the connection repository's.
 */
export async function assertSyncable(db: Db, connectionId: string): Promise<void> {
  const row = (
    await db.query<{ name: string; mode: ConnectionMode }>(
      'SELECT name, mode FROM connections WHERE id = $1',
      [connectionId],
    )
  ).rows[0];
  if (!row) throw new CairnError('NOT_FOUND', `No connection with id "${connectionId}".`);
  if (row.mode !== 'rag') throw directModeSyncError(row.name);
}

/** Per-document errors kept per run: enough to act on, bounded for a source that fails wholesale. */
const MAX_STORED_ERRORS = 500;

export async function startRun(
  db: Db,
  connectionId: string,
): Promise<{ runId: number; previousStatus: SyncStatus }> {
  return db.transaction(async (tx) => {
    const previous = await tx.query<{ sync_status: SyncStatus }>(
      'SELECT sync_status FROM connections WHERE id = $1',
      [connectionId],
    );
    const run = await tx.query<{ id: string | number }>(
      "INSERT INTO sync_runs (connection_id, status, counters) VALUES ($1, 'running', $2) RETURNING id",
      [connectionId, JSON.stringify(emptyCounters())],
    );
    await tx.query("UPDATE connections SET sync_status = 'syncing' WHERE id = $1", [connectionId]);
    return { runId: Number(run.rows[0]?.id), previousStatus: previous.rows[0]?.sync_status ?? 'idle' };
  });
}

/**
 * JSON that jsonb accepts: messages and ids from platforms may carry NUL or a lone surrogate,
 * which Postgres refuses (https://www.postgresql.org/docs/current/datatype-json.html), and one
 * such string must not keep a run from being closed.
 */
function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    typeof field === 'string' ? normalizeText(field) : field,
  );
}

function summary(run: FinishedRun): string | null {
  if (run.status === 'failed') return run.error?.message ?? 'The sync failed.';
  if (run.status !== 'partial') return null;
  const parts: string[] = [];
  if (run.error) parts.push(run.error.message);
  if (run.counters.deferred > 0)
    parts.push(
      `${countOf(run.counters.deferred, 'document')} ${run.counters.deferred === 1 ? 'waits' : 'wait'} for the next sync.`,
    );
  // Skipped items and unlisted parts are not document failures (the run error names the parts).
  const first =
    run.errors.find((error) => !error.skipped && error.code === 'DOCUMENT_FAILED') ??
    run.errors.find((error) => !error.skipped && !isListingGap(error.reason));
  if (first && run.counters.failed > 0)
    parts.push(
      `${run.counters.failed} document${run.counters.failed === 1 ? '' : 's'} failed (first: "${first.title}": ${first.message})`,
    );
  return parts.join(' ') || 'Some documents failed.';
}

/** Reasons of parts a listing could not see (recorded with the errors, not document failures). */
function isListingGap(reason: string | undefined): boolean {
  return reason === 'listing.incomplete' || reason === 'folder.unreadable';
}

/**
 * The code that goes with the summary: the run's own error, else DOCUMENT_FAILED for a run whose
 * only trouble was some documents (the summary then counts them).
 */
function summaryCode(run: FinishedRun): ErrorCode | null {
  if (run.status === 'failed') return run.error?.code ?? 'INTERNAL';
  if (run.status !== 'partial') return null;
  return run.error?.code ?? 'DOCUMENT_FAILED';
}

function storableSummary(run: FinishedRun): string | null {
  const text = summary(run);
  return text === null ? null : normalizeText(text);
}

/**
 * Records the run's outcome and updates the connection. A cancelled run puts the connection back
 * in the state it had (its index is unchanged where it matters); only runs that listed the source
 * completely or partly move last_sync_at.
 */
export async function finishRun(
  db: Db,
  connectionId: string,
  runId: number,
  run: FinishedRun,
  previousStatus: SyncStatus,
): Promise<SyncRunView> {
  const errors = run.errors.slice(0, MAX_STORED_ERRORS);
  const notes = run.notes.slice(0, MAX_STORED_ERRORS);
  return db.transaction(async (tx) => {
    const row = await tx.query<{ started_at: Date; finished_at: Date }>(
      'UPDATE sync_runs SET status = $2, finished_at = now(), counters = $3, errors = $4, error = $5, timings = $6, notes = $7, skipped_kinds = $8 WHERE id = $1 RETURNING started_at, finished_at',
      [
        runId,
        run.status,
        JSON.stringify(run.counters),
        storableJson(errors),
        run.error ? storableJson(run.error) : null,
        JSON.stringify(run.timings),
        storableJson(notes),
        storableJson(run.skippedKinds),
      ],
    );
    if (run.status === 'cancelled') {
      // Not synced: the last sync time stays, the card says it stopped (unless it shows a failure that
      // still holds), and the next sync is due now, so the next start of the scheduler catches up.
      const restored = previousStatus === 'syncing' ? 'idle' : previousStatus;
      await tx.query(
        `UPDATE connections SET sync_status = $2, next_sync_at = CASE WHEN mode = 'rag' THEN now() ELSE next_sync_at END,
           sync_error = CASE WHEN $2 = 'failed' THEN sync_error ELSE $3 END,
           sync_error_code = CASE WHEN $2 = 'failed' THEN sync_error_code ELSE $4 END
         WHERE id = $1`,
        [connectionId, restored, STOPPED_RUN_MESSAGE, STOPPED_RUN_CODE],
      );
    } else if (run.status === 'failed') {
      await tx.query(
        "UPDATE connections SET sync_status = 'failed', sync_error = $2, sync_error_code = $3 WHERE id = $1",
        [connectionId, storableSummary(run), summaryCode(run)],
      );
    } else {
      // A run that listed the source says what it deferred and skipped, until the next such run.
      await tx.query(
        "UPDATE connections SET sync_status = 'synced', sync_error = $2, sync_error_code = $3, last_sync_at = now(), sync_deferred = $4, sync_skipped = $5 WHERE id = $1",
        [
          connectionId,
          storableSummary(run),
          summaryCode(run),
          run.counters.deferred,
          storableJson(run.skippedKinds),
        ],
      );
    }
    const times = row.rows[0];
    return {
      id: runId,
      connectionId,
      status: run.status,
      startedAt: new Date(times?.started_at ?? Date.now()).toISOString(),
      finishedAt: new Date(times?.finished_at ?? Date.now()).toISOString(),
      counters: run.counters,
      errors,
      notes,
      skippedKinds: run.skippedKinds,
      error: run.error,
    };
  });
}

interface RunRow {
  id: string | number;
  connection_id: string;
  status: SyncRunStatus;
  started_at: Date;
  finished_at: Date | null;
  counters: StoredCounters;
  errors: DocumentError[];
  notes: DocumentNote[];
  skipped_kinds: Record<string, number>;
  error: AppErrorData | null;
}

/** Latest runs first, for `sync.runs`. */
export async function listRuns(db: Db, connectionId: string, limit = 20): Promise<SyncRunView[]> {
  const rows = await db.query<RunRow>(
    'SELECT id, connection_id, status, started_at, finished_at, counters, errors, notes, skipped_kinds, error FROM sync_runs WHERE connection_id = $1 ORDER BY id DESC LIMIT $2',
    [connectionId, Math.min(Math.max(1, Math.floor(limit) || 20), 200)],
  );
  return rows.rows.map((r) => ({
    id: Number(r.id),
    connectionId: r.connection_id,
    status: r.status,
    startedAt: new Date(r.started_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
    counters: countersOf(r.counters),
    errors: r.errors,
    notes: r.notes ?? [],
    skippedKinds: r.skipped_kinds ?? {},
    error: r.error,
  }));
}

/** A run stopped before it finished (Cancel, Ctrl-C, SIGTERM, quitting); shown until the next sync finishes. */
export const STOPPED_RUN_MESSAGE =
  'The last sync was stopped before it finished: what it indexed is kept, and the next sync catches up.';
const STOPPED_RUN_CODE: ErrorCode = 'CANCELLED';

/**
 * Records documents the crash journal quarantined (crash-journal.ts) as failures of their
 * connection's latest run, the one the crash cut off: the next run carries each failure (reason
 * `sync.quarantined`, the revision it was read at) and does not read the document until it changes.
 * Call before closeAbandonedRuns.
 */
export async function recordQuarantined(
  db: Db,
  quarantined: ReadonlyMap<string, readonly QuarantinedDocument[]>,
): Promise<void> {
  for (const [connectionId, documents] of quarantined) {
    const errors: DocumentError[] = documents.map((document) => ({
      externalId: document.externalId,
      title: document.title || document.externalId,
      code: 'DOCUMENT_FAILED',
      reason: QUARANTINE_REASON,
      message: `${document.externalId} was being read each of the last two times Cairn stopped unexpectedly (it may need more memory than there is), so it is set aside: it is not read again until it changes.`,
      revision: document.revision,
    }));
    await db.query(
      `UPDATE sync_runs SET errors = errors || $2::jsonb,
         counters = jsonb_set(counters, '{failed}', to_jsonb(coalesce((counters->>'failed')::int, 0) + $3))
       WHERE id = (SELECT max(id) FROM sync_runs WHERE connection_id = $1)`,
      [connectionId, JSON.stringify(errors), errors.length],
    );
  }
}

/** Why a run left 'running' by a crash or kill ended; shown on the connection until its next sync. */
export const ABANDONED_RUN_MESSAGE = 'Cairn stopped during this sync.';

/** The run was interrupted, not refused by anything: the UI shows it as a note, never as a failure (STYLE §6). */
const ABANDONED_RUN_CODE: ErrorCode = 'CANCELLED';

/**
 * Runs left 'running' by a crash or kill: marks them failed at start-up so the UI does not wait
 * forever. Their connections get back the status of their last finished run (a connection that
 * had synced still shows "synced": its index holds the last good state of every document), or
 * failed when none ever finished; either way the card says the last sync did not finish.
 */
export async function closeAbandonedRuns(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    // The next sync is due now: the run did not finish, so the scheduler catches up at once.
    await tx.query(
      `UPDATE connections c SET sync_error = $1, sync_error_code = $2, next_sync_at = now(), sync_status = coalesce((
         SELECT CASE r.status WHEN 'failed' THEN 'failed' ELSE 'synced' END FROM sync_runs r
         WHERE r.connection_id = c.id AND r.status IN ('succeeded', 'partial', 'failed') ORDER BY r.id DESC LIMIT 1), 'failed')
       WHERE c.sync_status = 'syncing'`,
      [ABANDONED_RUN_MESSAGE, ABANDONED_RUN_CODE],
    );
    const result = await tx.query(
      "UPDATE sync_runs SET status = 'failed', finished_at = now(), error = $1::jsonb WHERE status = 'running'",
      [JSON.stringify({ code: ABANDONED_RUN_CODE, message: ABANDONED_RUN_MESSAGE })],
    );
    return result.affectedRows ?? 0;
  });
}
