import { describe, expect, it } from 'vitest';
import { CairnError } from '../../errors';
import {
  ExportWaiter,
  parseExportEvent,
  type DingTalkStreamEvent,
  type ExportEventSource,
} from './export-events';

const result = {
  taskId: 't1',
  dentryUuid: 'd1',
  format: 'markdown',
  url: 'https://x.example/a.md',
  success: true,
};

function source(): ExportEventSource & {
  emit(event: DingTalkStreamEvent): boolean[];
  fail(error: CairnError): void;
  listeners: number;
} {
  const listeners = new Set<(event: DingTalkStreamEvent) => boolean | void>();
  const failures = new Set<(error: CairnError) => void>();
  return {
    subscribe(listener, onFailure) {
      listeners.add(listener);
      if (onFailure) failures.add(onFailure);
      return () => listeners.delete(listener);
    },
    emit: (event) => [...listeners].map((listener) => listener(event) === true),
    fail: (error) => failures.forEach((onFailure) => onFailure(error)),
    get listeners() {
      return listeners.size;
    },
  };
}

describe('parseExportEvent', () => {
  it('reads bizData as a JSON string or an object, under either event name, and ignores other events', () => {
    const parsed = {
      taskId: 't1',
      dentryUuid: 'd1',
      format: 'markdown',
      url: 'https://x.example/a.md',
      success: true,
    };
    expect([
      parseExportEvent({
        eventType: 'doc_content_export_result',
        data: JSON.stringify({ bizData: JSON.stringify(result) }),
      }),
      parseExportEvent({ eventType: 'dingdoc_export_finish', data: { bizData: result } }),
      parseExportEvent({
        eventType: 'doc_content_export_result',
        data: { ...result, taskId: 7, success: 'false', url: '' },
      }),
      parseExportEvent({ eventType: 'user_add_org', data: { bizData: result } }),
      parseExportEvent({ eventType: 'doc_content_export_result', data: 'not json' }),
    ]).toEqual([parsed, parsed, { ...parsed, taskId: '7', success: false, url: null }, null, null]);
  });

  it('reads the HTTP-callback shape (biz_data, object or JSON string) and decides success strictly', () => {
    const { success: _success, ...withoutSuccess } = result;
    expect([
      parseExportEvent({
        eventType: 'dingdoc_export_finish',
        data: { EventType: 'dingdoc_export_finish', biz_data: result },
      }),
      parseExportEvent({ eventType: 'dingdoc_export_finish', data: { biz_data: JSON.stringify(result) } }),
      // No `success`: a download URL is the only proof the export worked.
      parseExportEvent({ eventType: 'doc_content_export_result', data: withoutSuccess })?.success,
      parseExportEvent({ eventType: 'doc_content_export_result', data: { ...withoutSuccess, url: '' } })
        ?.success,
      // No task id: nothing to match it to, so it is not taken.
      parseExportEvent({
        eventType: 'doc_content_export_result',
        data: { url: 'https://x.example/a.md', success: true },
      }),
    ]).toEqual([{ ...result }, { ...result }, true, false, null]);
  });
});

describe('ExportWaiter', () => {
  it('does not take a result for the same task id that names another document', async () => {
    const events = source();
    const waiter = new ExportWaiter(events);
    const pending = waiter.wait('t1', 300, undefined, 'd1');
    const taken = events.emit({
      eventType: 'doc_content_export_result',
      data: { ...result, dentryUuid: 'elsewhere' },
    });
    expect(taken).toEqual([false]);
    events.emit({ eventType: 'doc_content_export_result', data: result });
    expect((await pending).dentryUuid).toBe('d1');
    waiter.close();
  });

  it('keeps an event that arrives before the wait starts, and unsubscribes on close', async () => {
    const events = source();
    const waiter = new ExportWaiter(events);
    events.emit({ eventType: 'doc_content_export_result', data: { bizData: result } });
    expect((await waiter.wait('t1', 1000)).url).toBe(result.url);
    waiter.close();
    expect(events.listeners).toBe(0);
  });

  it('takes only export events, and fails a waiting task at once when the source fails', async () => {
    const events = source();
    const waiter = new ExportWaiter(events);
    const taken = [
      ...events.emit({ eventType: 'user_add_org', data: {} }),
      ...events.emit({
        eventType: 'dingdoc_export_finish',
        data: { bizData: { ...result, taskId: 'other' } },
      }),
    ];
    const pending = waiter.wait('t9', 60_000);
    events.fail(new CairnError('AUTH_INVALID', 'refused'));
    await expect(pending).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    await expect(waiter.wait('t10', 60_000)).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    expect(taken).toEqual([false, true]);
    waiter.close();
  });
});
