import { describe, expect, it } from 'vitest';
import type { AppErrorData } from '@shared/errors';
import type { DocumentError } from '@shared/models';
import { classifyRun, type RunFacts } from './run-outcome';

const listingFailed: AppErrorData = { code: 'SOURCE_UNREACHABLE', message: 'The platform did not answer.' };
const unreadable: AppErrorData = { code: 'PERMISSION_DENIED', message: '2 folders could not be read.' };
const stopped: AppErrorData = { code: 'RATE_LIMITED', message: 'The platform asked to slow down.' };
const gap: AppErrorData = { code: 'SOURCE_ERROR', message: 'Space "Ops" could not be listed.' };
const diskFull: AppErrorData = {
  code: 'DISK_FULL',
  message: 'Disk full: 40 MB free on /; the index is unchanged.',
};

/** A run that listed 10 documents, fetched 4 and wrote them all. */
const clean: RunFacts = {
  cancelled: false,
  counters: { seen: 10, unchanged: 6, failed: 0, deferred: 0 },
  planned: 4,
  listingBroken: false,
  listingError: null,
  deferral: null,
  stop: null,
  gaps: [],
  errors: [],
};

/** A document's failure as the run recorded it. */
function failure(title: string, code: DocumentError['code'], reason?: string): DocumentError {
  return { externalId: title, title, code, message: `${title} was refused.`, ...(reason ? { reason } : {}) };
}

function outcome(change: Partial<Omit<RunFacts, 'counters'>> & { counters?: Partial<RunFacts['counters']> }) {
  const { status, error } = classifyRun({
    ...clean,
    ...change,
    counters: { ...clean.counters, ...change.counters },
  });
  return error ? `${status}: ${error.code} ${error.message}` : status;
}

describe('classifyRun', () => {
  it('says how a run ended, and which trouble it shows first', () => {
    expect({
      clean: outcome({}),
      cancelled: outcome({ cancelled: true, counters: { failed: 2 }, listingError: listingFailed }),
      listingBrokeBeforeAnything: outcome({
        listingBroken: true,
        listingError: listingFailed,
        counters: { seen: 0, unchanged: 0 },
        planned: 0,
      }),
      listingBrokeHalfWay: outcome({ listingBroken: true, listingError: listingFailed }),
      onlyUnreadableParts: outcome({
        listingError: unreadable,
        counters: { seen: 0, unchanged: 0 },
        planned: 0,
      }),
      everyDocumentFailed: outcome({ counters: { unchanged: 0, failed: 4 } }),
      everyDocumentFailedUnderUnreadableParts: outcome({
        listingError: unreadable,
        counters: { unchanged: 0, failed: 4 },
      }),
      someFailed: outcome({ counters: { failed: 1 } }),
      failedButOthersUnchanged: outcome({ counters: { failed: 4 } }),
      failuresCarriedFromEarlierRuns: outcome({ counters: { unchanged: 0, failed: 2 }, planned: 4 }),
      deferred: outcome({ counters: { deferred: 3 }, deferral: stopped }),
      gapInTheListing: outcome({ gaps: [gap, { ...gap, message: 'Space "HR" could not be listed.' }] }),
      listingErrorBeforeDeferralAndGap: outcome({ listingError: unreadable, deferral: stopped, gaps: [gap] }),
      deferralBeforeGap: outcome({ deferral: stopped, gaps: [gap] }),
      nothingListed: outcome({ counters: { seen: 0, unchanged: 0 }, planned: 0 }),
      stoppedForSpace: outcome({ stop: diskFull, deferral: stopped, counters: { failed: 1 } }),
      stoppedForSpaceThenCancelled: outcome({ stop: diskFull, cancelled: true }),
    }).toEqual({
      clean: 'succeeded',
      cancelled: 'cancelled',
      listingBrokeBeforeAnything: 'failed: SOURCE_UNREACHABLE The platform did not answer.',
      listingBrokeHalfWay: 'partial: SOURCE_UNREACHABLE The platform did not answer.',
      onlyUnreadableParts: 'partial: PERMISSION_DENIED 2 folders could not be read.',
      everyDocumentFailed: 'failed: DOCUMENT_FAILED All 4 documents failed.',
      everyDocumentFailedUnderUnreadableParts: 'failed: PERMISSION_DENIED 2 folders could not be read.',
      someFailed: 'partial',
      failedButOthersUnchanged: 'partial',
      failuresCarriedFromEarlierRuns: 'partial',
      deferred: 'partial: RATE_LIMITED The platform asked to slow down.',
      gapInTheListing: 'partial: SOURCE_ERROR Space "Ops" could not be listed.',
      listingErrorBeforeDeferralAndGap: 'partial: PERMISSION_DENIED 2 folders could not be read.',
      deferralBeforeGap: 'partial: RATE_LIMITED The platform asked to slow down.',
      nothingListed: 'succeeded',
      stoppedForSpace: 'failed: DISK_FULL Disk full: 40 MB free on /; the index is unchanged.',
      stoppedForSpaceThenCancelled: 'cancelled',
    });
  });

  it('says why when every document failed the same way, and keeps the reason for the card', () => {
    const denied = [
      failure('a', 'PERMISSION_DENIED', 'dingtalk.missing-permission'),
      { ...failure('b', 'PERMISSION_DENIED', 'dingtalk.missing-permission'), params: { permissions: 'X' } },
    ];
    const facts = { ...clean, counters: { ...clean.counters, unchanged: 0, failed: 2 }, planned: 2 };
    expect(classifyRun({ ...facts, errors: denied }).error).toEqual({
      code: 'DOCUMENT_FAILED',
      message: 'All 2 documents failed the same way (first: "a": a was refused.)',
      details: { reason: 'dingtalk.missing-permission' },
    });
    // A skipped item is no failure; a different reason or code makes them unalike.
    const skipped = { ...failure('s', 'UNSUPPORTED'), skipped: true };
    expect(classifyRun({ ...facts, errors: [skipped, ...denied] }).error?.message).toBe(
      'All 2 documents failed the same way (first: "a": a was refused.)',
    );
    for (const other of [
      failure('c', 'PERMISSION_DENIED'),
      failure('c', 'SOURCE_ERROR', 'dingtalk.missing-permission'),
    ])
      expect(classifyRun({ ...facts, errors: [...denied, other] }).error?.message).toBe(
        'All 2 documents failed.',
      );
  });
});
