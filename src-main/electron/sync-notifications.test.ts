import { describe, expect, it } from 'vitest';
import { EventBus } from '../core/events/event-bus';
import type { SyncRunView } from '@shared/models';
import { watchSyncNotifications, type NoticeText } from './sync-notifications';

function run(status: SyncRunView['status'], patch: Partial<SyncRunView> = {}): SyncRunView {
  return {
    id: 1,
    connectionId: 'c1',
    status,
    startedAt: '',
    finishedAt: '',
    counters: {
      seen: 3,
      added: 2,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      failed: 0,
      deferred: 0,
      skipped: 0,
      chunksWritten: 4,
    },
    errors: [],
    notes: [],
    skippedKinds: {},
    error: null,
    ...patch,
  };
}

describe('watchSyncNotifications', () => {
  it('notifies failed and partial runs only, in the chosen language', () => {
    const events = new EventBus();
    const shown: NoticeText[] = [];
    let language: 'en' | 'zh' = 'en';
    const stop = watchSyncNotifications({
      events,
      connections: () => [{ id: 'c1', name: '语雀' } as never],
      language: () => language,
      notify: (notice) => shown.push(notice),
    });
    events.emit('sync.finished', run('succeeded'));
    events.emit('sync.finished', run('cancelled', { error: { code: 'CANCELLED', message: 'Cancelled.' } }));
    events.emit(
      'sync.finished',
      run('failed', { error: { code: 'AUTH_EXPIRED', message: 'Token expired.' } }),
    );
    const failedDocuments = (count: number) =>
      run('partial', {
        errors: Array.from({ length: count }, (_, i) => ({
          externalId: `x${i}`,
          title: `x${i}`,
          code: 'DOCUMENT_FAILED',
          message: 'binary',
        })),
      });
    events.emit('sync.finished', failedDocuments(1));
    events.emit('sync.finished', failedDocuments(3));
    language = 'zh';
    events.emit(
      'sync.finished',
      run('partial', {
        errors: [{ externalId: 'x', title: 'x', code: 'DOCUMENT_FAILED', message: 'binary' }],
      }),
    );
    stop();
    events.emit('sync.finished', run('failed'));
    expect(shown).toEqual([
      { title: 'Sync of “语雀” failed', body: 'Token expired.' },
      { title: '“语雀” synced with errors', body: '1 document could not be indexed.' },
      { title: '“语雀” synced with errors', body: '3 documents could not be indexed.' },
      { title: '“语雀”同步完成，但有错误', body: '1 篇文档未能索引。' },
    ]);
  });
});
