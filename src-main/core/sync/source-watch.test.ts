import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AppErrorData } from '@shared/errors';
import { canConnect } from '../connectors/http/can-connect';
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
    canConnect: async (origin) => {
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
