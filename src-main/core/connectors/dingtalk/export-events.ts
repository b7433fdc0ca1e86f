/**
 * DingTalk's only official route to a document's Markdown is asynchronous: GET
 * /v2.0/doc/query/{dentryUuid}/contents returns a `taskId`, and the result arrives later as the event
 * `doc_content_export_result` (older name `dingdoc_export_finish`) whose bizData carries a download
 * URL for the .md (connectors.md §3.3). Events reach an app over DingTalk Stream mode, an outbound
 * long connection (https://open.dingtalk.com/document/orgapp/stream). There is no polling route in the
 * official SDK, so this module waits for the event instead of inventing one.
 */
import { CairnError } from '../../errors';

export const EXPORT_EVENT_TYPES = ['doc_content_export_result', 'dingdoc_export_finish'] as const;

/** One event as a Stream client delivers it, reduced to what Cairn reads. */
export interface DingTalkStreamEvent {
  eventType: string;
  /** The event payload: a JSON string or an object, holding `bizData` (itself possibly a JSON string) or the fields directly. */
  data: unknown;
}

/**
 * Returns true when the listener took the event (the Stream client then acks it SUCCESS; an event
 * no listener took is acked LATER so DingTalk can hand it to the app's other consumers).
 */
export type StreamEventListener = (event: DingTalkStreamEvent) => boolean | void;

/**
 * Where export-finished events come from: in production a DingTalkStreamClient (stream-client.ts),
 * a WebSocket to DingTalk's Stream gateway.
 */
export interface ExportEventSource {
  /**
   * Registers a listener; returns the function that removes it. `onFailure` hears when the source
   * cannot deliver events (credentials refused, gateway unreachable after retries), so waiting
   * callers fail at once instead of at their timeout.
   */
  subscribe(listener: StreamEventListener, onFailure?: (error: CairnError) => void): () => void;
  /** Resolves once events can arrive (the connection is open); rejects with the reason it cannot. */
  ready?(signal?: AbortSignal): Promise<void>;
}

export interface ExportResult {
  taskId: string;
  dentryUuid: string | null;
  success: boolean;
  /** Download link for the .md (signed, short-lived). */
  url: string | null;
  format: string | null;
}

function asObject(value: unknown): Record<string, unknown> | null {
  if (typeof value === 'string') {
    try {
      return asObject(JSON.parse(value));
    } catch {
      return null;
    }
  }
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

/**
 * The export result carried by an event, or null when the event is something else. No DingTalk page
 * documents this event; public code shows these payload shapes, all accepted (docs/connectors.md
 * "The export event"):
 * - Stream, `data.bizData` (an object or a JSON string) holding the fields;
 * - Stream, the fields directly in `data`;
 * - HTTP callback, `biz_data` (an object or a JSON string) beside `EventType`.
 * Only a result that names its task is used; `success` must not be false, and a result without
 * `success` counts only when it carries a download URL.
 */
export function parseExportEvent(event: DingTalkStreamEvent): ExportResult | null {
  if (!(EXPORT_EVENT_TYPES as readonly string[]).includes(event.eventType)) return null;
  const outer = asObject(event.data);
  const biz = asObject(outer?.bizData) ?? asObject(outer?.biz_data) ?? outer;
  const taskId = biz?.taskId ?? biz?.task_id;
  if (typeof taskId !== 'string' && typeof taskId !== 'number') return null;
  if (String(taskId) === '') return null;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  const url = text(biz!.url);
  const stated = biz!.success;
  const success =
    stated === false || stated === 'false'
      ? false
      : stated === true || stated === 'true'
        ? true
        : url !== null;
  return {
    taskId: String(taskId),
    dentryUuid: text(biz!.dentryUuid) ?? text(biz!.dentry_uuid),
    success,
    url,
    format: text(biz!.format),
  };
}

/**
 * Listens before the export is requested (the event may beat the HTTP answer), then waits for the
 * result of one task, bounded by a timeout and an AbortSignal.
 */
export class ExportWaiter {
  private readonly seen = new Map<string, ExportResult>();
  private readonly waiting = new Map<
    string,
    { resolve: (result: ExportResult) => void; reject: (error: CairnError) => void }
  >();
  private readonly unsubscribe: () => void;
  private failure: CairnError | null = null;
  /** taskId → the document it was asked for, where known. */
  private readonly expected = new Map<string, string | undefined>();

  private fits(result: ExportResult): boolean {
    const dentry = this.expected.get(result.taskId);
    return dentry === undefined || result.dentryUuid === null || result.dentryUuid === dentry;
  }

  constructor(source: ExportEventSource) {
    this.unsubscribe = source.subscribe(
      (event) => {
        const result = parseExportEvent(event);
        if (!result) return false;
        const waiter = this.waiting.get(result.taskId);
        if (waiter && this.fits(result)) waiter.resolve(result);
        else if (!waiter) this.seen.set(result.taskId, result);
        else return false; // same task id, another document: not ours
        return true;
      },
      (error) => {
        this.failure = error;
        for (const waiter of [...this.waiting.values()]) waiter.reject(error);
      },
    );
  }

  /**
   * Waits for the result of `taskId`. With `dentryUuid`, a result naming another document is not
   * taken for this one (a task id reused across documents must not swap their texts).
   */
  wait(taskId: string, timeoutMs: number, signal?: AbortSignal, dentryUuid?: string): Promise<ExportResult> {
    this.expected.set(taskId, dentryUuid);
    const early = this.seen.get(taskId);
    if (early && this.fits(early)) return Promise.resolve(early);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<ExportResult>((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(taskId);
        settle();
      };
      const onAbort = () => finish(() => reject(new CairnError('CANCELLED', 'Cancelled.')));
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new CairnError(
                'TIMEOUT',
                `DingTalk did not deliver the Markdown export within ${+(timeoutMs / 1000).toFixed(1)} s (no ${EXPORT_EVENT_TYPES[0]} event).`,
              ),
            ),
          ),
        timeoutMs,
      );
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(taskId, {
        resolve: (result) => finish(() => resolve(result)),
        reject: (error) => finish(() => reject(error)),
      });
    });
  }

  close(): void {
    this.unsubscribe();
    this.seen.clear();
  }
}
