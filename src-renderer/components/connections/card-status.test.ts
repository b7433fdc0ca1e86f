import { describe, expect, it } from 'vitest';
import type { SyncRunView } from '@shared/models';
import { connection } from '../../test/fake-api';
import { cardStatus, nextSync } from './card-status';

function run(status: SyncRunView['status'], finishedAt: string): SyncRunView {
  return {
    id: 1,
    connectionId: 'c1',
    status,
    startedAt: finishedAt,
    finishedAt,
    counters: {
      seen: 0,
      added: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      failed: 0,
      deferred: 0,
      skipped: 0,
      chunksWritten: 0,
    },
    errors: [],
    notes: [],
    skippedKinds: {},
    error: null,
  };
}

describe('cardStatus', () => {
  const synced = connection({ syncStatus: 'synced', lastSyncAt: '2026-11-01T10:00:00.000Z' });
  it('says Stopped after a sync the user stopped, until a later sync completes', () => {
    expect(cardStatus(synced, undefined, run('cancelled', '2026-11-01T11:00:00.000Z'))).toBe('stopped');
    expect(cardStatus(synced, undefined, run('cancelled', '2026-11-01T09:00:00.000Z'))).toBe('synced');
    expect(
      cardStatus(connection({ syncStatus: 'idle' }), undefined, run('cancelled', '2026-11-01T09:00:00.000Z')),
    ).toBe('stopped');
    // A run Cairn itself was stopped during (a crash) is recorded on the connection as CANCELLED.
    expect(
      cardStatus(
        connection({ syncStatus: 'synced', syncErrorCode: 'CANCELLED', syncError: 'x' }),
        undefined,
        undefined,
      ),
    ).toBe('stopped');
  });

  it('puts syncing, failed and direct before anything a last run says', () => {
    const progress = {
      connectionId: 'c1',
      runId: 2,
      phase: 'fetching' as const,
      documentsDone: 1,
      documentsTotal: 3,
      chunksWritten: 0,
      errors: 0,
    };
    const cancelled = run('cancelled', '2026-11-01T11:00:00.000Z');
    expect(cardStatus(synced, progress, cancelled)).toBe('syncing');
    expect(cardStatus(connection({ syncStatus: 'failed' }), undefined, cancelled)).toBe('failed');
    expect(cardStatus(connection({ mode: 'direct' }), undefined, cancelled)).toBe('direct');
    expect(cardStatus(synced, undefined, run('succeeded', '2026-11-01T10:00:00.000Z'))).toBe('synced');
  });
});

describe('nextSync', () => {
  const now = Date.parse('2026-11-01T10:00:00.000Z');
  const at = (iso: string | null) => connection({ nextSyncAt: iso });
  it('counts down in minutes, hours, then days; says due, paused or nothing', () => {
    expect([
      nextSync(at('2026-11-01T10:25:00.000Z'), false, now),
      nextSync(at('2026-11-02T09:00:00.000Z'), false, now),
      nextSync(at('2026-11-05T10:00:00.000Z'), false, now),
      nextSync(at('2026-11-01T10:00:30.000Z'), false, now),
      nextSync(at('2026-10-31T10:00:00.000Z'), false, now),
      nextSync(at('2026-11-02T09:00:00.000Z'), true, now),
      nextSync(at(null), false, now),
      nextSync(connection({ mode: 'direct', nextSyncAt: '2026-11-02T09:00:00.000Z' }), false, now),
    ]).toEqual([
      { kind: 'in', value: 25, unit: 'minute' },
      { kind: 'in', value: 23, unit: 'hour' },
      { kind: 'in', value: 4, unit: 'day' },
      { kind: 'due' },
      { kind: 'due' },
      { kind: 'paused' },
      { kind: 'none' },
      { kind: 'none' },
    ]);
    // The same card half an hour later reads differently: the label is computed from "now".
    expect(nextSync(at('2026-11-01T10:25:00.000Z'), false, now + 30 * 60_000)).toEqual({ kind: 'due' });
  });
});
