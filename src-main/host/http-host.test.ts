import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAIRN_VERSION, createCairn, type CairnInternals } from '../core/app/create-cairn';
import { startFeishuFake } from '../testing/fakes/feishu-fake';
import { silentLogger } from '../core/logging/logger';
import { startHttpHost, type HttpHost } from './http-host';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http rather than fetch, because fetch may not set Host or Origin freely. */
function send(
  host: HttpHost,
  path: string,
  /** A body given as parts is written part by part, so node:http sends it chunked (no content-length). */
  options: { method?: string; headers?: Record<string, string>; body?: string | string[] } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (!Array.isArray(options.body)) return void req.end(options.body); // one write: content-length is declared
    for (const part of options.body) req.write(part);
    req.end();
  });
}

function call(
  host: HttpHost,
  channel: string,
  input?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return send(host, `/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-cairn-token': host.token, ...headers },
    body: input === undefined ? '' : JSON.stringify(input),
  });
}

let cairn: CairnInternals;
let host: HttpHost;
let rendererDir: string;

beforeAll(async () => {
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
  rendererDir = await mkdtemp(join(tmpdir(), 'cairn-renderer-'));
  await writeFile(
    join(rendererDir, 'index.html'),
    '<!doctype html><html><head><title>Cairn</title></head><body></body></html>',
  );
  await writeFile(join(rendererDir, 'app.js'), 'console.log("hi")');
  host = await startHttpHost({ api: cairn.api, events: cairn.events, rendererDir, heartbeatMs: 50 });
});

afterAll(async () => {
  await host.close();
  await cairn.dispose();
  await rm(rendererDir, { recursive: true, force: true });
});

describe('headless host', () => {
  it('requires the per-run token on every API call and on the page', async () => {
    const replies = await Promise.all([
      call(host, 'app.status', undefined, { 'x-cairn-token': '' }),
      call(host, 'app.status', undefined, { 'x-cairn-token': 'wrong-token' }),
      send(host, '/api/events'),
      send(host, '/'),
      call(host, 'app.status'),
      send(host, `/api/app.status?token=${host.token}`, { method: 'POST' }),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([401, 401, 401, 401, 200, 200]);
    expect(JSON.parse(replies[4]!.body)).toMatchObject({
      ok: true,
      value: { connections: [], version: CAIRN_VERSION },
    });
  });

  it('refuses other origins and foreign Host headers (DNS rebinding)', async () => {
    const replies = await Promise.all([
      call(host, 'app.status', undefined, { origin: 'http://evil.example' }),
      call(host, 'app.status', undefined, { origin: `http://127.0.0.1:${host.port + 1}` }),
      call(host, 'app.status', undefined, { host: `evil.example:${host.port}` }),
      call(host, 'app.status', undefined, { 'sec-fetch-site': 'cross-site' }),
      call(host, 'app.status', undefined, { origin: host.origin }),
      call(host, 'app.status', undefined, {
        origin: `http://localhost:${host.port}`,
        host: `localhost:${host.port}`,
      }),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([403, 403, 403, 403, 200, 200]);
  });

  it('validates arguments and rejects malformed requests as data', async () => {
    const replies = await Promise.all([
      call(host, 'sync.start', { connectionId: 42 }),
      call(host, 'connections.add', { platform: 'folder', name: '', mode: 'rag', config: {}, secrets: {} }),
      call(host, 'nothing.here', {}),
      send(host, '/api/app.status', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-cairn-token': host.token },
        body: '{not json',
      }),
      send(host, '/api/app.status', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-cairn-token': host.token },
        body: '{}',
      }),
      send(host, '/api/app.status', { headers: { 'x-cairn-token': host.token } }),
    ]);
    expect(
      replies.map((reply) => [
        reply.status,
        (JSON.parse(reply.body) as { error: { code: string } }).error.code,
      ]),
    ).toEqual([
      [200, 'INVALID_ARGUMENT'],
      [200, 'INVALID_ARGUMENT'],
      [404, 'NOT_FOUND'],
      [400, 'INVALID_ARGUMENT'],
      [415, 'INVALID_ARGUMENT'],
      [405, 'INVALID_ARGUMENT'],
    ]);
  });

  it('serves the renderer with the token injected, a CSP, and no path escapes', async () => {
    const [page, script, escape] = await Promise.all([
      send(host, `/?token=${host.token}`),
      send(host, '/app.js'),
      send(host, '/..%2f..%2fetc%2fpasswd'),
    ]);
    expect(page.body).toContain(`<meta name="cairn-token" content="${host.token}">`);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect([script.status, script.headers['content-type'], escape.status]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      404,
    ]);
  });

  it('pushes events over server-sent events', async () => {
    const response = await fetch(`${host.origin}/api/events?token=${host.token}`);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    const added = await call(host, 'connections.add', {
      platform: 'folder',
      name: '文档',
      mode: 'rag',
      config: { path: '/tmp/文档' },
      secrets: {},
    });
    expect(added.status).toBe(200);
    let text = '';
    while (!text.includes('connections.changed'))
      text += new TextDecoder().decode((await reader.read()).value);
    const event = text
      .split('\n')
      .find((line) => line.startsWith('data: ') && line.includes('connections.changed'))!;
    expect(JSON.parse(event.slice('data: '.length))).toMatchObject({
      name: 'connections.changed',
      payload: [{ name: '文档', platform: 'folder' }],
    });
    await reader.cancel();
  });

  it('starts and cancels a Feishu sign-in over HTTP and pushes auth.finished', async () => {
    const fake = await startFeishuFake({ documents: 1 });
    try {
      const added = JSON.parse(
        (
          await call(host, 'connections.add', {
            platform: 'feishu',
            name: 'Feishu',
            mode: 'direct',
            config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId, redirectPort: 0 },
            secrets: { appSecret: fake.credentials.appSecret },
          })
        ).body,
      ) as { value: { id: string; userAuth: string } };
      const response = await fetch(`${host.origin}/api/events?token=${host.token}`);
      const reader = response.body!.getReader();
      const started = JSON.parse(
        (await call(host, 'connections.authorize', { id: added.value.id })).body,
      ) as { ok: boolean; value: { authorizeUrl: string; opened: boolean } };
      const cancelled = JSON.parse(
        (await call(host, 'connections.cancelAuthorize', { id: added.value.id })).body,
      ) as { ok: boolean };
      let text = '';
      while (!text.includes('auth.finished')) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      const event = text
        .split('\n')
        .find((line) => line.startsWith('data: ') && line.includes('auth.finished'))!;
      expect({
        userAuth: added.value.userAuth,
        ok: started.ok,
        opened: started.value.opened,
        page: new URL(started.value.authorizeUrl).pathname,
        cancelled: cancelled.ok,
        event: JSON.parse(event.slice('data: '.length)) as unknown,
      }).toEqual({
        userAuth: 'none',
        ok: true,
        opened: false,
        page: '/open-apis/authen/v1/authorize',
        cancelled: true,
        event: {
          name: 'auth.finished',
          payload: {
            connectionId: added.value.id,
            ok: false,
            error: { code: 'CANCELLED', message: 'Sign-in cancelled.' },
          },
        },
      });
    } finally {
      await fake.close();
    }
  });
});

describe('headless host under abuse', () => {
  it('answers an oversized body with 413 and a JSON error, whether its length is declared, chunked or sent by fetch', async () => {
    const huge = JSON.stringify({ query: 'x'.repeat(2 * 1024 * 1024) });
    const headers = { 'content-type': 'application/json', 'x-cairn-token': host.token };
    const declared = await send(host, '/api/search.query', { method: 'POST', headers, body: huge });
    const parts: string[] = [];
    for (let offset = 0; offset < huge.length; offset += 64 * 1024)
      parts.push(huge.slice(offset, offset + 64 * 1024));
    const chunked = await send(host, '/api/search.query', { method: 'POST', headers, body: parts });
    const fetched = await fetch(`${host.origin}/api/search.query`, { method: 'POST', headers, body: huge });
    const after = await call(host, 'app.status');
    const envelope = {
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: 'Request body too large: the limit is 1 MiB.' },
    };
    expect({
      declared: [declared.status, JSON.parse(declared.body)],
      chunked: [chunked.status, JSON.parse(chunked.body)],
      fetched: [fetched.status, await fetched.json()],
      stillServing: after.status,
    }).toEqual({
      declared: [413, envelope],
      chunked: [413, envelope],
      fetched: [413, envelope],
      stillServing: 200,
    });
  });
});
