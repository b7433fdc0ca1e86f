import { describe, expect, it } from 'vitest';
import { createHttpTransport } from './http-transport';

class RecordingEventSource {
  static last: RecordingEventSource | null = null;
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  onopen: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    RecordingEventSource.last = this;
  }
  close() {
    this.closed = true;
  }
  push(data: string) {
    this.onmessage?.({ data } as MessageEvent<string>);
  }
}

describe('createHttpTransport', () => {
  it('posts each call with the token and returns the Result body; network failure becomes data', async () => {
    const requests: { url: string; init: RequestInit }[] = [];
    let down = false;
    const fetchStub = (async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      if (down) throw new TypeError('fetch failed');
      return new Response(JSON.stringify({ ok: true, value: { runId: 3 } }), { status: 200 });
    }) as unknown as typeof fetch;
    const transport = createHttpTransport({
      origin: 'http://127.0.0.1:9',
      token: 'tok',
      fetch: fetchStub,
      EventSource: RecordingEventSource as unknown as typeof EventSource,
    });
    const started = await transport.api.sync.start({ connectionId: 'c1' });
    await transport.api.app.status();
    down = true;
    const failed = await transport.api.connections.list();
    expect({
      started,
      failed: failed.ok ? null : failed.error.code,
      first: { url: requests[0]!.url, body: requests[0]!.init.body, headers: requests[0]!.init.headers },
      secondBody: requests[1]!.init.body,
    }).toEqual({
      started: { ok: true, value: { runId: 3 } },
      failed: 'SOURCE_UNREACHABLE',
      first: {
        url: 'http://127.0.0.1:9/api/sync.start',
        body: '{"connectionId":"c1"}',
        headers: { 'content-type': 'application/json', 'x-cairn-token': 'tok' },
      },
      secondBody: '',
    });
  });

  it('opens one event stream with the token and delivers only known events', () => {
    const transport = createHttpTransport({
      origin: 'http://127.0.0.1:9',
      token: 'a b',
      fetch: (() => {}) as unknown as typeof fetch,
      EventSource: RecordingEventSource as unknown as typeof EventSource,
    });
    const seen: string[] = [];
    const off = transport.subscribe((name) => seen.push(name));
    transport.subscribe((name) => seen.push(`second:${name}`));
    const source = RecordingEventSource.last!;
    source.push(JSON.stringify({ name: 'sync.progress', payload: {} }));
    source.push(JSON.stringify({ name: 'evil.event', payload: {} }));
    source.push('not json');
    off();
    source.push(JSON.stringify({ name: 'chat.done', payload: {} }));
    transport.dispose();
    expect({ url: source.url, seen, closed: source.closed }).toEqual({
      url: 'http://127.0.0.1:9/api/events?token=a%20b',
      seen: ['sync.progress', 'second:sync.progress', 'second:chat.done'],
      closed: true,
    });
  });

  it('tells its listeners each time the event stream opens, the first open included', () => {
    const transport = createHttpTransport({
      origin: 'http://127.0.0.1:9',
      token: 't',
      fetch: (() => {}) as unknown as typeof fetch,
      EventSource: RecordingEventSource as unknown as typeof EventSource,
    });
    let opens = 0;
    transport.subscribe(() => {});
    const stop = transport.onStreamOpen(() => opens++);
    const source = RecordingEventSource.last!;
    source.onopen?.();
    const afterFirstOpen = opens;
    source.onopen?.();
    source.onopen?.();
    stop();
    source.onopen?.();
    expect({ afterFirstOpen, opens }).toEqual({ afterFirstOpen: 1, opens: 3 });
  });
});
