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
  const openListeners = new Set<() => void>();
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
    // The host sends events only to a stream it has accepted, so every open, the first one
    // included, means events may have been missed: those before the first open too, which the
    // first snapshot (fetched as the stream was being opened) may predate. A sync that finished in
    // between left the page at its old progress for good ("Rebuild index" after a page reload).
    // EventSource reconnects by itself after a break (the `retry:` the host sent).
    source.onopen = () => {
      for (const listener of openListeners) listener();
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
    onStreamOpen(listener) {
      openListeners.add(listener);
      return () => openListeners.delete(listener);
    },
    dispose() {
      source?.close();
      source = null;
      listeners.clear();
      openListeners.clear();
    },
  };
}
