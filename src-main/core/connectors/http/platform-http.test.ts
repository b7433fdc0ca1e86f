import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnError } from '../../errors';
import { createLogger, silentLogger } from '../../logging/logger';
import { retryWaitsLogger } from '../../../testing/connector-test-kit';
import { PlatformHttp, resetHeaderMs, type Interpretation, type RawResponse } from './platform-http';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

function interpret(res: RawResponse): Interpretation<unknown> {
  if (res.status === 429)
    return {
      kind: 'retry',
      code: 'RATE_LIMITED',
      message: 'limited',
      afterMs: resetHeaderMs(res.headers, 'x-reset'),
    };
  if (res.status === 401) return { kind: 'refresh-auth', code: 'AUTH_EXPIRED', message: 'expired' };
  if (res.status >= 500) return { kind: 'retry', code: 'SOURCE_ERROR', message: 'server error' };
  if (res.json === undefined)
    return { kind: 'error', error: new CairnError('SOURCE_ERROR', 'malformed JSON') };
  return { kind: 'ok', value: res.json };
}

describe('PlatformHttp', () => {
  it('waits for the reset header on 429, then succeeds', async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, { 'x-reset': '0.05' }).end('{}');
        return;
      }
      res.end(JSON.stringify({ n: calls }));
    });
    const { logger, waits } = retryWaitsLogger();
    const http = new PlatformHttp({ baseUrl: base, logger, backoffBaseMs: 5000 });
    expect(await http.request({ path: '/x' }, interpret)).toEqual({ n: 2 });
    // The 50 ms hint was used instead of the 5 s backoff (2.5-5 s).
    expect(waits()).toEqual([50]);
  });

  it('refreshes credentials exactly once on expiry and sends the new token', async () => {
    const seen: string[] = [];
    const base = await serve((req, res) => {
      seen.push(String(req.headers.authorization));
      if (req.headers.authorization !== 'Bearer fresh') res.writeHead(401).end('{}');
      else res.end('{"ok":true}');
    });
    let token = 'stale';
    let refreshes = 0;
    const http = new PlatformHttp({
      baseUrl: base,
      logger: silentLogger(),
      authHeaders: async () => ({ authorization: `Bearer ${token}` }),
      refreshAuth: async () => {
        refreshes++;
        token = 'fresh';
      },
    });
    expect(await http.request({ path: '/' }, interpret)).toEqual({ ok: true });
    expect({ seen, refreshes }).toEqual({ seen: ['Bearer stale', 'Bearer fresh'], refreshes: 1 });
  });

  it('gives up after bounded retries with the platform code', async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      res.writeHead(500).end('oops');
    });
    const http = new PlatformHttp({ baseUrl: base, logger: silentLogger(), maxRetries: 2, backoffBaseMs: 1 });
    await expect(http.request({ path: '/' }, interpret)).rejects.toMatchObject({ code: 'SOURCE_ERROR' });
    expect(calls).toBe(3);
  });

  it('reports an unreachable host and a timeout with distinct codes', async () => {
    const http = new PlatformHttp({ baseUrl: 'http://127.0.0.1:9', logger: silentLogger() });
    await expect(http.request({ path: '/' }, interpret)).rejects.toMatchObject({
      code: 'SOURCE_UNREACHABLE',
    });
    const base = await serve(() => {
      /* never answers */
    });
    const slow = new PlatformHttp({ baseUrl: base, logger: silentLogger(), timeoutMs: 100 });
    await expect(slow.request({ path: '/' }, interpret)).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it("adds no listener to the caller's signal however many requests wait on it, and leaves none behind", async () => {
    // A sync passes one signal to every document it fetches at once (16); each request used to park an
    // abort listener on it while queued, and Node warns past 10 (MaxListenersExceededWarning).
    const controller = new AbortController();
    const counts: number[] = [];
    const base = await serve((_req, res) => {
      counts.push(getEventListeners(controller.signal, 'abort').length);
      setTimeout(() => res.end('{"ok":true}'), 5);
    });
    const http = new PlatformHttp({
      baseUrl: base,
      logger: silentLogger(),
      concurrency: 4,
      rate: { intervalMs: 1000, intervalCap: 1000 },
    });
    const requests = Array.from({ length: 40 }, () =>
      http.request({ path: '/', signal: controller.signal }, interpret),
    );
    counts.push(getEventListeners(controller.signal, 'abort').length);
    await Promise.all(requests);
    expect({
      served: counts.length - 1,
      most: Math.max(...counts),
      after: getEventListeners(controller.signal, 'abort').length,
    }).toEqual({ served: 40, most: 0, after: 0 });
  });

  it("cancels queued and running requests alike from the caller's signal", async () => {
    const base = await serve((_req, res) => setTimeout(() => res.end('{}'), 2000));
    const http = new PlatformHttp({ baseUrl: base, logger: silentLogger(), concurrency: 2 });
    const controller = new AbortController();
    const requests = Array.from({ length: 12 }, () =>
      http.request({ path: '/', signal: controller.signal }, interpret).catch((error: unknown) => error),
    );
    setTimeout(() => controller.abort(), 50);
    const outcomes = await Promise.all(requests);
    // A running request the abort missed would end with the server's answer, not CANCELLED.
    expect(new Set(outcomes.map((error) => (error as CairnError).code))).toEqual(new Set(['CANCELLED']));
  });

  it('stops waiting when cancelled', async () => {
    const base = await serve((_req, res) => res.writeHead(429, { 'x-reset': '30' }).end('{}'));
    const http = new PlatformHttp({ baseUrl: base, logger: silentLogger() });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(http.request({ path: '/', signal: controller.signal }, interpret)).rejects.toMatchObject({
      code: 'CANCELLED',
    });
  });

  it('follows a same-origin redirect as sent, and one to another origin without any credential header', async () => {
    const seenElsewhere: Record<string, string | string[] | undefined>[] = [];
    const elsewhere = createServer((req, res) => {
      seenElsewhere.push({ ...req.headers, method: req.method, url: req.url });
      res.end('{"from":"elsewhere"}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const seenHere: Record<string, string | string[] | undefined>[] = [];
    const base = await serve((req, res) => {
      seenHere.push({ ...req.headers, url: req.url });
      if (req.url === '/same') res.writeHead(302, { location: '/final' }).end();
      else if (req.url === '/away') res.writeHead(307, { location: `${other}/landing?x=1` }).end();
      else if (req.url === '/post-away') res.writeHead(303, { location: `${other}/after-post` }).end();
      else res.end('{"from":"here"}');
    });
    const http = new PlatformHttp({
      baseUrl: base,
      logger: silentLogger(),
      authHeaders: async () => ({ authorization: 'Bearer secret-a', 'x-auth-token': 'secret-b' }),
    });
    try {
      const headers = { 'ima-openapi-apikey': 'secret-c', 'x-acs-dingtalk-access-token': 'secret-d' };
      expect(await http.request({ path: '/same', headers }, interpret)).toEqual({ from: 'here' });
      expect(seenHere.at(-1)).toMatchObject({ url: '/final', 'x-auth-token': 'secret-b' });
      expect(await http.request({ path: '/away', headers }, interpret)).toEqual({ from: 'elsewhere' });
      // A request with a body is not redirected to another origin at all, not even as a GET.
      await expect(
        http.request({ method: 'POST', path: '/post-away', headers, body: { a: 1 } }, interpret),
      ).rejects.toMatchObject({ code: 'SOURCE_ERROR' });
      expect(seenElsewhere.map((h) => [h.url, h.method])).toEqual([['/landing?x=1', 'GET']]);
      const leaked = JSON.stringify(seenElsewhere).match(/secret-[a-d]/g) ?? [];
      expect(leaked).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });

  it('refuses an endless redirect loop with a clear error', async () => {
    const base = await serve((_req, res) => res.writeHead(302, { location: '/again' }).end());
    const http = new PlatformHttp({ baseUrl: base, logger: silentLogger(), maxRedirects: 3 });
    await expect(http.request({ path: '/' }, interpret)).rejects.toMatchObject({
      code: 'SOURCE_ERROR',
      message: expect.stringContaining('Too many redirects'),
    });
  });

  it('applies every rate window: a per-minute budget holds requests a per-second cap would let through', async () => {
    let served = 0;
    const base = await serve((_req, res) => {
      served++;
      res.end('{}');
    });
    const http = new PlatformHttp({
      baseUrl: base,
      logger: silentLogger(),
      rate: [
        { intervalMs: 60_000, intervalCap: 3 },
        { intervalMs: 1000, intervalCap: 100 },
      ],
    });
    const controller = new AbortController();
    const requests = Array.from({ length: 5 }, () =>
      http.request({ path: '/', signal: controller.signal }, interpret).then(
        () => 'served',
        (error: CairnError) => error.code,
      ),
    );
    await Promise.all(requests.slice(0, 3));
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    expect({ outcomes: await Promise.all(requests), served }).toEqual({
      outcomes: ['served', 'served', 'served', 'CANCELLED', 'CANCELLED'],
      served: 3,
    });
  });

  it('asks a GET again when the server drops the connection, but neither a POST nor a refused connection', async () => {
    const received: string[] = [];
    const base = await serve((req, res) => {
      received.push(`${req.method} ${req.url}`);
      // The first request of each path finds its connection closed under it, as when a server
      // ends a kept-alive connection just as the client reuses it.
      if (received.filter((line) => line === `${req.method} ${req.url}`).length === 1) req.socket.destroy();
      else res.end('{"ok":true}');
    });
    const http = new PlatformHttp({ baseUrl: base, logger: silentLogger(), backoffBaseMs: 1 });
    const get = await http.request({ path: '/page' }, interpret);
    const post = await http
      .request({ path: '/token', method: 'POST', body: { secret: 's' } }, interpret)
      .catch((error: CairnError) => error.code);
    const refused = await new PlatformHttp({ baseUrl: 'http://127.0.0.1:9', logger: silentLogger() })
      .request({ path: '/page' }, interpret)
      .catch((error: CairnError) => error.code);
    expect({ get, post, refused, received }).toEqual({
      get: { ok: true },
      post: 'SOURCE_UNREACHABLE',
      refused: 'SOURCE_UNREACHABLE',
      received: ['GET /page', 'GET /page', 'POST /token'],
    });
  });

  it('does not ask a GET again when the server that dropped its connection is gone: it fails at once, naming the origin', async () => {
    const received: string[] = [];
    const base = await serve((req) => {
      received.push(`${req.method} ${req.url}`);
      // The server goes away with this request: its connection is dropped and nothing listens any more.
      server!.close();
      req.socket.destroy();
    });
    const logged: string[] = [];
    const logger = createLogger({ sink: (line) => void logged.push(line), level: 'warn' });
    const http = new PlatformHttp({ baseUrl: base, logger, backoffBaseMs: 1 });
    const failure = await http.request({ path: '/page' }, interpret).catch((error: CairnError) => error);
    expect(failure).toMatchObject({ code: 'SOURCE_UNREACHABLE', details: { origin: base } });
    // No retry was waited for (it would wait its turn in the rate queue, only to be refused).
    expect(received).toEqual(['GET /page']);
    expect(logged.filter((line) => line.includes('retrying'))).toEqual([]);
  });
});
