/** The headless host's side of the adapter: POST /api/<channel> for calls, /api/events (SSE) for events. */
import { buildApiProxy, type CairnEventListener } from '@shared/bridge';
import { EVENT_NAMES, type CairnEventName } from '@shared/contract';
import type { Result } from '@shared/errors';
import type { Transport } from './transport';

export interface HttpTransportOptions {
  origin: string;
  token: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default globalThis.EventSource */
  EventSource?: typeof EventSource;
}

function isResult(value: unknown): value is Result<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

export function createHttpTransport(options: HttpTransportOptions): Transport {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const listeners = new Set<CairnEventListener>();
  const reconnectListeners = new Set<() => void>();
  let source: EventSource | null = null;

  async function call(channel: string, input: unknown): Promise<Result<unknown>> {
    try {
      const response = await doFetch(`${options.origin}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-cairn-token': options.token },
        body: input === undefined ? '' : JSON.stringify(input),
      });
      const body: unknown = await response.json().catch(() => null);
      if (isResult(body)) return body;
      return {
        ok: false,
        error: { code: 'INTERNAL', message: `Unexpected answer from Cairn (HTTP ${response.status}).` },
      };
    } catch {
      return {
        ok: false,
        error: {
          code: 'SOURCE_UNREACHABLE',
          message: 'Cairn is not reachable: is `cairn serve` still running?',
        },
      };
    }
  }

  function ensureStream(): void {
    if (source) return;
    const Source = options.EventSource ?? globalThis.EventSource;
    source = new Source(`${options.origin}/api/events?token=${encodeURIComponent(options.token)}`);
    // EventSource reconnects by itself after a break (the `retry:` the host sent); every open after
    // the first one means events may have been missed.
    let openedBefore = false;
    source.onopen = () => {
      if (openedBefore) for (const listener of reconnectListeners) listener();
      openedBefore = true;
    };
    source.onmessage = (message: MessageEvent<string>) => {
      let parsed: { name?: unknown; payload?: unknown };
      try {
        parsed = JSON.parse(message.data) as { name?: unknown; payload?: unknown };
      } catch {
        return;
      }
      if (!EVENT_NAMES.includes(parsed.name as CairnEventName)) return;
      for (const listener of listeners) listener(parsed.name as CairnEventName, parsed.payload as never);
    };
  }

  return {
    kind: 'http',
    api: buildApiProxy(call),
    subscribe(listener) {
      listeners.add(listener);
      ensureStream();
      return () => listeners.delete(listener);
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    dispose() {
      source?.close();
      source = null;
      listeners.clear();
      reconnectListeners.clear();
    },
  };
}
