import { afterEach, describe, expect, it } from 'vitest';
import { BuiltinEmbedder } from '../builtin-embedder';
import { WorkerEmbedder } from './worker-embedder';

const TEST_EMBEDDERS = new URL('../../../testing/worker-test-embedders.ts', import.meta.url).href;
const started: WorkerEmbedder[] = [];

async function start(spec: Parameters<typeof WorkerEmbedder.start>[0]): Promise<WorkerEmbedder> {
  const embedder = await WorkerEmbedder.start(spec);
  started.push(embedder);
  return embedder;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((embedder) => embedder.dispose()));
});

describe('WorkerEmbedder', () => {
  it('gives the built-in embedder’s vectors, in order, from a worker thread', async () => {
    const texts = [
      '差旅报销单 needs a manager’s approval',
      'Install the CLI on Linux',
      '',
      '向量检索 HNSW 索引',
      ...Array.from({ length: 40 }, (_, i) => `note ${i} 报销 ${'word '.repeat(i)}`),
    ];
    const local = new BuiltinEmbedder(256);
    const worker = await start({ kind: 'builtin', options: { dimensions: 256 } });
    expect(worker.space).toEqual(local.space);
    // Several calls in flight at once come back to their callers.
    const [first, second] = await Promise.all([
      worker.embed(texts.slice(0, 20)),
      worker.embed(texts.slice(20), { kind: 'query' }),
    ]);
    const expected = (await local.embed(texts)).vectors.map((v) => Array.from(v));
    expect([...first.vectors, ...second.vectors].map((v) => Array.from(v))).toEqual(expected);
  });

  it('cancels a request on abort and keeps serving', async () => {
    const worker = await start({
      module: TEST_EMBEDDERS,
      exportName: 'slowEmbedder',
      options: { delayMs: 50 },
    });
    const controller = new AbortController();
    const slow = worker.embed(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], { signal: controller.signal });
    setTimeout(() => controller.abort(), 60);
    await expect(slow).rejects.toMatchObject({ code: 'CANCELLED' });
    const after = await worker.embed(['xyz', 'pq']);
    expect(after.vectors.map((v) => Array.from(v))).toEqual([
      [3, 0],
      [2, 1],
    ]);
    expect(after.tokens).toBe(2);
  });

  it('passes the embedder’s own error through, then restarts a worker that died', async () => {
    const worker = await start({ module: TEST_EMBEDDERS, exportName: 'fragileEmbedder' });
    await expect(worker.embed(['good', 'bad'])).rejects.toMatchObject({
      code: 'EMBEDDING_FAILED',
      message: 'The test embedder refuses "bad".',
    });
    await expect(worker.embed(['crash'])).rejects.toMatchObject({
      code: 'EMBEDDING_FAILED',
      message: expect.stringContaining('The embedding worker stopped'),
    });
    const again = await worker.embed(['four']);
    expect(Array.from(again.vectors[0]!)).toEqual([4]);
  });

  it('reports an embedder that cannot be built, or a kind that does not exist', async () => {
    await expect(
      WorkerEmbedder.start({ module: TEST_EMBEDDERS, exportName: 'unbuildableEmbedder' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: 'This test embedder cannot be built.' });
    await expect(WorkerEmbedder.start({ kind: 'no-such-kind' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('fails requests still out when disposed, and refuses new ones', async () => {
    const worker = await WorkerEmbedder.start({
      module: TEST_EMBEDDERS,
      exportName: 'slowEmbedder',
      options: { delayMs: 200 },
    });
    const out = expect(worker.embed(['a', 'b', 'c'])).rejects.toMatchObject({ code: 'CANCELLED' });
    await worker.dispose();
    await out;
    await expect(worker.embed(['a'])).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
