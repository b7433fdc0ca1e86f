import { describe, expect, it } from 'vitest';
import { emptyCounters } from '../../core/sync/sync-runs';
import type { ConnectionView } from '@shared/models';
import { addedText } from './add';
import { formatRun, type SyncRunReport } from './sync';

function report(patch: Partial<SyncRunReport>): SyncRunReport {
  return {
    id: 1,
    connectionId: 'y1',
    name: 'Yuque wiki',
    status: 'partial',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    counters: emptyCounters(),
    errors: [],
    notes: [],
    skippedKinds: {},
    error: null,
    ...patch,
  };
}

describe('cairn sync output', () => {
  it('says how many documents wait for the next sync and which kinds were skipped, apart from failures', () => {
    const text = formatRun(
      report({
        counters: { ...emptyCounters(), seen: 6000, added: 2400, deferred: 3600, skipped: 4 },
        skippedKinds: { board: 1, mindnote: 3 },
        error: { code: 'RATE_LIMITED', message: "Yuque's request limit was reached." },
      }),
    );
    expect(text.split('\n')).toEqual([
      'Yuque wiki: partial in 60.0 s',
      '  seen 6000 · added 2400 · updated 0 · unchanged 0 · deleted 0 · failed 0 · deferred 3600 · skipped 4 · chunks written 0',
      "  error: Yuque's request limit was reached. (RATE_LIMITED)",
      '  3,600 documents deferred: the platform asked Cairn to stop for now (request limit or quota); the next sync takes them, nothing is lost',
      '  skipped, no text to read: 3 mindnote, 1 board',
    ]);
  });

  it('names documents indexed in part, with why, apart from failures', () => {
    const text = formatRun(
      report({
        status: 'succeeded',
        counters: { ...emptyCounters(), seen: 2, added: 2 },
        notes: [
          {
            externalId: 'bitableCairn1',
            title: '任务表',
            status: 'partial',
            code: 'feishu.bitable-no-rows',
            reason: '"Tasks" returned no rows.',
          },
          { externalId: 'm1', title: 'Map', status: 'skipped', kind: 'mindnote', reason: 'no text API' },
        ],
      }),
    );
    expect(text.split('\n').slice(2)).toEqual(['  ! 任务表: "Tasks" returned no rows.']);
  });

  it('prints no note lines when nothing was deferred or skipped', () => {
    expect(formatRun(report({ status: 'succeeded' })).split('\n')).toHaveLength(2);
  });
});

describe('cairn add output', () => {
  it('says a direct-only connection was added in direct mode and why it cannot be indexed', () => {
    const view = {
      id: 'notes-1a2b3c',
      platform: 'ima',
      name: 'Notes',
      mode: 'direct',
      directOnly: true,
      experimental: true,
    } as ConnectionView;
    expect(addedText(view).split('\n')).toEqual([
      'Added Tencent IMA connection "Notes" (id notes-1a2b3c, direct mode).',
      'No full text from this platform for this connection: it is searched live (direct mode) and cannot be indexed.',
      'Note: this platform is experimental.',
      'Check its credentials with: cairn test "Notes"',
    ]);
    expect(addedText({ ...view, directOnly: false })).not.toContain('No full text');
  });
});
