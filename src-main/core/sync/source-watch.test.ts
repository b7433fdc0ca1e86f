import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AppErrorData } from '@shared/errors';
import { answers, canConnect } from '../connectors/http/can-connect';
import { connectionFailure, SourceWatch, type UnreachableSource } from './source-watch';

const ORIGIN = 'http://127.0.0.1:4010';
const refused: AppErrorData = {
  code: 'SOURCE_UNREACHABLE',
  message: 'Cannot reach 127.0.0.1:4010 (ECONNREFUSED).',
  details: { origin: ORIGIN },
};

/** A watch whose probe answers from `answers` (false: nothing accepted the connection), counting probes. */
function watch(answers: boolean[] = []) {
  const stops: UnreachableSource<string>[] = [];
  const probed: string[] = [];
  const source = new SourceWatch<string>({
    probeIntervalMs: 0,
    reachable: async (origin) => {
      probed.push(origin);
      return answers.shift() ?? true;
    },
    onUnreachable: (stop) => stops.push(stop),
  });
  const fail = (item: string, error: AppErrorData = refused) =>
    source.failed(connectionFailure(error)!, item);
  return { source, stops, probed, fail };
}

describe('connectionFailure', () => {
  it('is a refused, dropped or timed-out attempt, with the origin it names', () => {
    expect(connectionFailure(refused)).toEqual({ origin: ORIGIN, error: refused });
    expect(connectionFailure({ code: 'TIMEOUT', message: 'No answer from x in time.' })).toMatchObject({
      origin: '',
    });
    for (const code of ['RATE_LIMITED', 'PERMISSION_DENIED', 'SOURCE_ERROR', 'DOCUMENT_FAILED'] as const)
      expect(connectionFailure({ code, message: 'no' })).toBeNull();
  });
});

describe('SourceWatch', () => {
  it('judges the source unreachable after three documents in a row could not reach it', async () => {
    // The probe says nothing (it answers), so only the documents count.
    const { source, stops, fail } = watch([true]);
    fail('a');
    fail('b');
    expect(stops).toEqual([]);
    fail('c');
    expect(stops).toEqual([
      { origin: ORIGIN, host: '127.0.0.1:4010', first: refused, attempts: 3, items: ['a', 'b', 'c'] },
    ]);
    fail('d'); // after the verdict: nothing more is judged
    expect(stops).toHaveLength(1);
    await source.dispose();
  });

  it('after one failed document, two refused probes are enough: no other document is tried', async () => {
    const { source, stops, probed, fail } = watch([false, false]);
    fail('a');
    await expect.poll(() => stops.length).toBe(1);
    expect(stops[0]).toMatchObject({ attempts: 3, items: ['a'] });
    expect(probed).toEqual([ORIGIN, ORIGIN]);
    await source.dispose();
  });

  it('stops probing when disposed (the documents are done)', async () => {
    const { source, stops, probed, fail } = watch([false, false]);
    fail('a');
    await source.dispose();
    expect(probed.length).toBeLessThanOrEqual(1);
    expect(stops).toEqual([]);
  });

  it('a document that gets through ends the streak, and an origin that accepts the probe ends the probing', async () => {
    const { source, stops, probed, fail } = watch([true]);
    fail('a');
    fail('b');
    source.reached();
    fail('c');
    fail('d');
    expect(stops).toEqual([]);
    await expect.poll(() => probed.length).toBe(2);
    await source.dispose();
    expect(stops).toEqual([]);
  });

  it('counts each origin on its own', async () => {
    const { source, stops, fail } = watch([true, true]);
    const other = {
      ...refused,
      message: 'Cannot reach oapi (ECONNREFUSED).',
      details: { origin: 'http://oapi' },
    };
    fail('a');
    fail('b', other);
    fail('c');
    expect(stops).toEqual([]);
    fail('d');
    expect(stops[0]).toMatchObject({ origin: ORIGIN, items: ['a', 'c', 'd'] });
    await source.dispose();
  });
});

describe('canConnect', () => {
  it('is true where a server listens and false once it is closed, or for a name that does not resolve', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await canConnect(origin)).toBe(true);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await canConnect(origin)).toBe(false);
    expect(await canConnect('https://cairn-test.invalid')).toBe(false);
  });
});

/** A server that accepts connections and never sends a byte (a hung process). */
async function startHungServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const held = new Set<Socket>();
  const server = createServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  return { origin: await listen(server), close: () => closeHolding(server, held) };
}

async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeHolding(server: Server, held: Set<Socket>): Promise<void> {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('answers', () => {
  it('is true for a server that replies with any status, false for one that accepts and never replies or is gone', async () => {
    const web = createHttpServer((_request, response) => response.writeHead(404).end());
    const webOrigin = await listen(web);
    expect(await answers(webOrigin)).toBe(true);
    await new Promise<void>((resolve) => web.close(() => resolve()));
    expect(await answers(webOrigin)).toBe(false);

    const hung = await startHungServer();
    // The TCP connect a refused origin fails passes here: only the answer tells.
    expect(await canConnect(hung.origin)).toBe(true);
    expect(await answers(hung.origin, { timeoutMs: 200 })).toBe(false);
    await hung.close();
  });
});

describe('SourceWatch with its own probe', () => {
  it('after a timed-out document, judges a hung server unreachable without another document', async () => {
    const hung = await startHungServer();
    const stops: UnreachableSource<string>[] = [];
    const source = new SourceWatch<string>({ probeIntervalMs: 0, onUnreachable: (stop) => stops.push(stop) });
    const timedOut: AppErrorData = {
      code: 'TIMEOUT',
      message: 'No answer from 127.0.0.1 in time.',
      details: { origin: hung.origin },
    };
    source.failed(connectionFailure(timedOut)!, 'a');
    // Two probes of 3 s at most: well inside the test's timeout, which it would hit without them.
    await expect.poll(() => stops.length, { timeout: 15_000 }).toBe(1);
    expect(stops[0]).toMatchObject({ attempts: 3, items: ['a'], first: timedOut });
    await source.dispose();
    await hung.close();
  }, 20_000);
});
