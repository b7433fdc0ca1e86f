import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnApi } from '@shared/contract';
import { fail, ok } from '@shared/errors';
import type { SyncRunView } from '@shared/models';
import { createCairn, type CairnInternals } from '../core/app/create-cairn';
import { silentLogger } from '../core/logging/logger';
import { instanceEndpoint } from './endpoint';
import { connectToInstance, type InstanceClient } from './instance-client';
import { startInstanceHost, type InstanceHost } from './instance-host';
import { emptyCounters } from '../core/sync/sync-runs';

let dir: string;
let cairn: CairnInternals;
let host: InstanceHost;
/** Calls the wrapped api saw cancelled, and answers it was asked to stop. */
const seen = { aborted: [] as string[], cancelledAnswers: [] as string[] };
const slowSearchStarted: (() => void)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-host-'));
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
  host = await startInstanceHost({
    dataDir: dir,
    kind: 'serve',
    version: '0.1.0',
    // The real contract, except a search for "slow" waits until its signal aborts, chat.ask answers
    // at once with a fixed id, and sync.start reports run 7 (finished later by the test's event).
    apiFor: (signal) => {
      const api = cairn.cancellable(signal);
      return {
        ...api,
        search: {
          facets: () => api.search.facets(),
          explain: (input) => api.search.explain(input),
          titles: (input) => api.search.titles(input),
          query: (input) =>
            input.query !== 'slow'
              ? api.search.query(input)
              : new Promise((resolve) => {
                  for (const wake of slowSearchStarted.splice(0)) wake();
                  signal.addEventListener('abort', () => {
                    seen.aborted.push('search.query');
                    resolve(fail('CANCELLED', 'Cancelled.'));
                  });
                }),
        },
        chat: {
          ...api.chat,
          ask: async () => ok({ conversationId: 'c1', messageId: 'answer-1' }),
          cancel: async ({ messageId }) => {
            seen.cancelledAnswers.push(messageId);
            return ok(undefined);
          },
        },
        sync: { ...api.sync, start: async () => ok({ runId: 7 }) },
      } satisfies CairnApi;
    },
    events: cairn.events,
    logger: silentLogger(),
    helloTimeoutMs: 500,
  });
}, 300_000);

afterAll(async () => {
  await host.close();
  await cairn.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function client(): Promise<InstanceClient> {
  const connected = await connectToInstance(dir, { clientKind: 'test' });
  if (!connected) throw new Error('no instance answered');
  return connected;
}

/** A raw socket: what an intruder or a buggy client would send, and everything it got back. */
async function raw(lines: string[]): Promise<{ received: string; closed: boolean }> {
  const socket: Socket = connect(instanceEndpoint(dir).address);
  let received = '';
  socket.on('error', () => undefined); // the host cuts intruders off; a reset is expected
  socket.on('data', (part: Buffer) => (received += part.toString()));
  await new Promise((resolve) => socket.once('connect', resolve));
  for (const line of lines) socket.write(line);
  const closed = await new Promise<boolean>((resolve) => {
    socket.once('close', () => resolve(true));
    setTimeout(() => resolve(false), 2_000);
  });
  socket.destroy();
  return { received, closed };
}

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = () => (check() ? resolve() : setTimeout(poll, 10));
    poll();
  });
}

describe('the instance socket', () => {
  it('publishes itself owner-only and answers contract calls through the shared dispatcher', async () => {
    const endpoint = instanceEndpoint(dir);
    const info = JSON.parse(await readFile(endpoint.infoFile, 'utf8')) as Record<string, unknown>;
    const c = await client();
    try {
      expect({
        socketMode: ((await stat(endpoint.address)).mode & 0o777).toString(8),
        fileMode: ((await stat(endpoint.infoFile)).mode & 0o777).toString(8),
        info: { kind: info['kind'], pid: info['pid'], hasToken: String(info['token']).length >= 32 },
        instance: [c.instance.kind, c.instance.pid, c.instance.address],
        status: await c.call('app.status', undefined).then((r) => r.ok && r.value),
        unknown: await c.call('app.shutdown', undefined),
        invalid: await c.call('search.query', { query: 'x', k: 'ten' }),
        extra: await c.call('sync.runs', { connectionId: 'a', drop: 'tables' }),
      }).toMatchObject({
        socketMode: '600',
        fileMode: '600',
        info: { kind: 'serve', pid: process.pid, hasToken: true },
        instance: ['serve', process.pid, endpoint.address],
        status: { connections: [] },
        unknown: { ok: false, error: { code: 'NOT_FOUND', message: 'Unknown method "app.shutdown".' } },
        invalid: { ok: false, error: { code: 'INVALID_ARGUMENT' } },
        extra: { ok: false, error: { code: 'INVALID_ARGUMENT' } },
      });
    } finally {
      await c.close();
    }
  });

  it('answers nothing without the token, drops garbage and oversized frames, and keeps serving', async () => {
    const call = JSON.stringify({ t: 'call', id: 1, channel: 'app.status' }) + '\n';
    const wrongToken = JSON.stringify({
      t: 'hello',
      v: 1,
      token: 'x'.repeat(32),
      client: { kind: 'x', pid: 1 },
    });
    const results = {
      callFirst: await raw([call]),
      wrongToken: await raw([wrongToken + '\n', call]),
      garbage: await raw(['{not json\n']),
      silent: await raw([]),
      oversized: await raw(['"' + 'a'.repeat(5 * 1024 * 1024)]),
    };
    const refused = [
      { t: 'refused', error: { code: 'PERMISSION_DENIED', message: 'Not a client of this Cairn instance.' } },
    ];
    const frames = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown);
    expect([results.callFirst.closed, frames(results.callFirst.received)]).toEqual([true, refused]);
    expect([results.wrongToken.closed, frames(results.wrongToken.received)]).toEqual([true, refused]);
    expect(results.garbage).toEqual({ received: '', closed: true });
    expect(results.silent).toEqual({ received: '', closed: true }); // the hello timeout
    expect(results.oversized.closed).toBe(true);
    const c = await client();
    expect((await c.call('app.status', undefined)).ok).toBe(true);
    await c.close();
  });

  it('pushes events to its clients', async () => {
    const c = await client();
    const got: string[] = [];
    c.events.on('connections.changed', (views) => got.push(`changed:${views.length}`));
    cairn.events.emit('connections.changed', []);
    await waitFor(() => got.length > 0);
    expect(got).toEqual(['changed:0']);
    await c.close();
  });

  it('cancel stops a call in flight; a client that goes away has its calls aborted and its answers cancelled', async () => {
    const c = await client();
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => slowSearchStarted.push(resolve));
    const pending = c.call('search.query', { query: 'slow' }, controller.signal);
    await started;
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: { code: 'CANCELLED', message: 'Cancelled.' } });

    const leaving = await client();
    expect(await leaving.call('chat.ask', { question: 'why?' })).toMatchObject({ ok: true });
    const searchStarted = new Promise<void>((resolve) => slowSearchStarted.push(resolve));
    const orphan = leaving.call('search.query', { query: 'slow' });
    await searchStarted;
    expect(host.outstanding().sort()).toEqual(['chat answer', 'search.query']);
    seen.aborted.length = 0;
    await leaving.close();
    expect(await orphan).toMatchObject({ ok: false, error: { code: 'SOURCE_UNREACHABLE' } });
    await waitFor(() => seen.cancelledAnswers.length > 0 && seen.aborted.length > 0);
    await host.whenIdle();
    expect({ aborted: seen.aborted, cancelled: seen.cancelledAnswers, left: host.outstanding() }).toEqual({
      aborted: ['search.query'],
      cancelled: ['answer-1'],
      left: [],
    });
    await c.close();
  });

  it('whenIdle waits for a sync a client started, also after that client left', async () => {
    const c = await client();
    expect(await c.call('sync.start', { connectionId: 'notes' })).toEqual({ ok: true, value: { runId: 7 } });
    await c.close();
    let idle = false;
    const waiting = host.whenIdle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([idle, host.outstanding()]).toEqual([false, ['sync of notes']]);
    const finished: SyncRunView = {
      id: 7,
      connectionId: 'notes',
      status: 'succeeded',
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
      counters: emptyCounters(),
      errors: [],
      notes: [],
      skippedKinds: {},
      error: null,
    };
    cairn.events.emit('sync.finished', finished);
    await waiting;
    expect(idle).toBe(true);
  });

  it('refuses a hand-over unless the holder agrees', async () => {
    const c = await client();
    expect(await c.requestYield()).toBe(false);
    await c.close();
  });
});
