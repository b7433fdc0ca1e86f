/**
 * What one sync run records as it goes: its counters, per-document errors and notes, skipped kinds,
 * timings and progress. Every phase (listing, the document pipeline, the engine's own steps) writes
 * here; the run's outcome is then classified (run-outcome.ts) and stored (sync-runs.ts).
 */
import type { AppErrorData } from '@shared/errors';
import type {
  DocumentError,
  DocumentNote,
  SyncCounters,
  SyncPhase,
  SyncProgress,
  SyncRunStatus,
} from '@shared/models';
import { toErrorData } from '../errors';
import { normalizeText } from '../text/normalize';
import { emptyCounters, type FinishedRun } from './sync-runs';

/** Notes kept in memory per run (the stored run keeps fewer): a source of 100k skipped files stays bounded. */
const MAX_NOTES = 1000;

const MAX_TITLE_CHARS = 500;

/** A title as stored: one line, bounded. HTML in it stays text (the UI never renders it as markup). */
export function cleanTitle(title: unknown, fallback: string): string {
  const text = typeof title === 'string' ? normalizeText(title).replace(/\s+/g, ' ').trim() : '';
  return Array.from(text || fallback)
    .slice(0, MAX_TITLE_CHARS)
    .join('');
}

export interface RunRecordOptions {
  connectionId: string;
  runId: number;
  onProgress?: (progress: SyncProgress) => void;
  /** Applied to every error message the run records. @default keeps messages as they are */
  redact?: (text: string) => string;
}

export class RunRecord {
  readonly counters: SyncCounters = emptyCounters();
  readonly errors: DocumentError[] = [];
  readonly notes: DocumentNote[] = [];
  readonly skippedKinds: Record<string, number> = {};
  readonly timings: Record<string, number> = {};
  /** Documents finished (unchanged, written, failed or deferred), for progress. */
  documentsDone = 0;
  chunksWritten = 0;

  constructor(private readonly options: RunRecordOptions) {}

  /** What a run records about a failure, with credentials a platform echoed taken out. */
  errorData(error: unknown): AppErrorData {
    const data = toErrorData(error);
    return this.options.redact ? { ...data, message: this.options.redact(data.message) } : data;
  }

  note(entry: DocumentNote): void {
    if (this.notes.length < MAX_NOTES) this.notes.push(entry);
  }

  /** A failure taken back: it was the source that could not be reached, not the document (deferred instead). */
  withdrawFailure(error: DocumentError): void {
    const at = this.errors.indexOf(error);
    if (at < 0) return;
    this.errors.splice(at, 1);
    this.counters.failed -= 1;
  }

  /** A document that did not get indexed: skipped on purpose, or failed. */
  recordFailure(error: DocumentError): void {
    this.errors.push(error);
    if (error.skipped) this.counters.skipped = (this.counters.skipped ?? 0) + 1;
    else this.counters.failed += 1;
  }

  progress(phase: SyncPhase, done: number, total: number): void {
    this.options.onProgress?.({
      connectionId: this.options.connectionId,
      runId: this.options.runId,
      phase,
      documentsDone: done,
      documentsTotal: total,
      chunksWritten: this.chunksWritten,
      errors: this.errors.length,
    });
  }

  /** The run as it is stored, ending with `status`. */
  result(status: Exclude<SyncRunStatus, 'running'>, error: AppErrorData | null): FinishedRun {
    const { counters, errors, notes, skippedKinds, timings } = this;
    return { status, counters, errors, notes, skippedKinds, error, timings };
  }
}
