/**
 * How a sync run ended, from what it found: a pure function of the run's facts, so every rule
 * (cancelled, failed, partial, succeeded, and which error the run shows) is stated and tested in
 * one place (run-outcome.test.ts).
 */
import type { AppErrorData } from '@shared/errors';
import type { DocumentError, SyncCounters, SyncRunStatus } from '@shared/models';

export interface RunFacts {
  /** The run's own signal was aborted (a user's cancel, a removed or switched connection). */
  cancelled: boolean;
  counters: Pick<SyncCounters, 'seen' | 'unchanged' | 'failed' | 'deferred'>;
  /** Documents planned for fetching (new or changed), before failures carried from earlier runs were set aside. */
  planned: number;
  /** The listing call failed (broke off): `listingError` is its error. */
  listingBroken: boolean;
  /** The listing broke off, or parts of it could not be read (a folder's unreadable parts). */
  listingError: AppErrorData | null;
  /** The platform's stop that deferred the remaining documents. */
  deferral: AppErrorData | null;
  /** What stopped the run before its end and fails it (a write refused for want of space). */
  stop: AppErrorData | null;
  /** Parts of a platform listing that a failed call left out. */
  gaps: readonly AppErrorData[];
  /** The documents that did not get indexed (failed or skipped), in the order they were recorded. */
  errors: readonly DocumentError[];
}

export interface RunOutcome {
  status: Exclude<SyncRunStatus, 'running'>;
  /** What the run shows as its error: the first trouble, or null. */
  error: AppErrorData | null;
}

export function classifyRun(facts: RunFacts): RunOutcome {
  const { counters, listingError } = facts;
  if (facts.cancelled) return { status: 'cancelled', error: null };
  if (facts.stop) return { status: 'failed', error: facts.stop };
  // A listing that broke off before it gave anything: there was nothing to sync. (Unreadable parts
  // of a folder with nothing else in it are a partial run: the rest of it was read.)
  if (facts.listingBroken && counters.seen === 0) return { status: 'failed', error: listingError };
  // Every document it tried failed, and none was unchanged: the source, not a document, is the trouble.
  if (
    counters.failed > 0 &&
    counters.failed === facts.planned &&
    counters.unchanged === 0 &&
    counters.seen > 0
  )
    return { status: 'failed', error: listingError ?? allFailed(facts.errors, counters.failed) };
  const trouble = listingError ?? facts.deferral ?? facts.gaps[0] ?? null;
  const partial = counters.failed > 0 || counters.deferred > 0 || trouble !== null;
  return { status: partial ? 'partial' : 'succeeded', error: trouble };
}

/**
 * The run error of a run whose every document failed. When they all failed the same way (one code and
 * reason, e.g. a permission the app lacks), the first one's sentence says why, and its reason goes
 * with it so the card can name it in the UI language.
 */
function allFailed(errors: readonly DocumentError[], failed: number): AppErrorData {
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
