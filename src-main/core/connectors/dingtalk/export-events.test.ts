import { describe, expect, it } from 'vitest';
import { ExportWaiter, parseExportEvent, type DingTalkStreamEvent, type ExportEventSource } from './export-events';

const result = { taskId: 't1', dentryUuid: 'd1', format: 'markdown', url: 'https://x.example/a.md', success: true };

function source(): ExportEventSource & { emit(event: DingTalkStreamEvent): void; listeners: number } {
  const listeners = new Set<(event: DingTalkStreamEvent) => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (event) => listeners.forEach((listener) => listener(event)),
    get listeners() {
      return listeners.size;
    },
  };
}

describe('parseExportEvent', () => {
  it('reads bizData as a JSON string or an object, under either event name, and ignores other events', () => {
    const parsed = { taskId: 't1', dentryUuid: 'd1', format: 'markdown', url: 'https://x.example/a.md', success: true };
    expect([
      parseExportEvent({ eventType: 'doc_content_export_result', data: JSON.stringify({ bizData: JSON.stringify(result) }) }),
      parseExportEvent({ eventType: 'dingdoc_export_finish', data: { bizData: result } }),
      parseExportEvent({ eventType: 'doc_content_export_result', data: { ...result, taskId: 7, success: 'false', url: '' } }),
      parseExportEvent({ eventType: 'user_add_org', data: { bizData: result } }),
      parseExportEvent({ eventType: 'doc_content_export_result', data: 'not json' }),
    ]).toEqual([parsed, parsed, { ...parsed, taskId: '7', success: false, url: null }, null, null]);
  });
});

describe('ExportWaiter', () => {
  it('keeps an event that arrives before the wait starts, and unsubscribes on close', async () => {
    const events = source();
    const waiter = new ExportWaiter(events);
    events.emit({ eventType: 'doc_content_export_result', data: { bizData: result } });
    expect((await waiter.wait('t1', 1000)).url).toBe(result.url);
    waiter.close();
    expect(events.listeners).toBe(0);
  });
});
