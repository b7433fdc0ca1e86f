/**
 * A desktop notification when a sync finishes with errors (a failed run, or documents that could
 * not be indexed). Success and cancellation stay quiet. The notifier is passed in (Electron's
 * Notification in main), so the decision is testable in plain Node.
 */
import type { EventBus, Unsubscribe } from '../core/events/event-bus';
import type { ConnectionView, SyncRunView } from '@shared/models';
import { countOf } from '../core/text/plural';

export interface NoticeText {
  title: string;
  body: string;
}

export function syncFinishedNotice(
  run: SyncRunView,
  connection: ConnectionView | undefined,
  language: 'en' | 'zh',
): NoticeText | null {
  const name = connection?.name ?? run.connectionId;
  if (run.status === 'failed') {
    const reason = run.error?.message ?? '';
    return language === 'zh'
      ? { title: `“${name}”同步失败`, body: reason }
      : { title: `Sync of “${name}” failed`, body: reason };
  }
  if (run.status === 'partial' || (run.status === 'succeeded' && run.errors.length > 0)) {
    const count = run.errors.length || run.counters.failed;
    return language === 'zh'
      ? { title: `“${name}”同步完成，但有错误`, body: `${count} 篇文档未能索引。` }
      : {
          title: `“${name}” synced with errors`,
          body: `${countOf(count, 'document')} could not be indexed.`,
        };
  }
  return null;
}

export function watchSyncNotifications(options: {
  events: EventBus;
  connections: () => ConnectionView[];
  language: () => 'en' | 'zh';
  notify: (notice: NoticeText) => void;
}): Unsubscribe {
  return options.events.on('sync.finished', (run) => {
    const notice = syncFinishedNotice(
      run,
      options.connections().find((connection) => connection.id === run.connectionId),
      options.language(),
    );
    if (notice) options.notify(notice);
  });
}
