// The harnesses' moving parts against the real pipeline (PGlite in memory): the instrumented sync
// that the benchmark measures, the vector capture behind the exact reference, and the evaluation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeEmbeddingServer } from '../src-main/core/embedding/fake-embedding-server';
import { OpenAiCompatibleEmbedder } from '../src-main/core/embedding/openai-embedder';
import { readSpaces } from '../src-main/core/index/embedding-spaces';
import { EMBEDDING_PRESETS } from '../src-main/core/embedding/presets';
import { generateDocument } from './corpus';
import { evaluateCollection } from './evaluate-collection';
import { StageClock, TimedEmbedder, TimedStore, timedChunker } from './instrumented';
import { MemoryConnector } from './memory-connector';
import { buildSemanticIndex, CONNECTION_ID, openPipeline } from './pipeline';
import { loadStoredVectors } from './stored-vectors';

const workDir = mkdtempSync(join(tmpdir(), 'cairn-bench-test-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('StageClock', () => {
  it('counts overlapping calls of one stage once (the union of their intervals)', () => {
    let now = 0;
    const clock = new StageClock(() => now);
    const first = clock.start('write');
    now = 10;
    const second = clock.start('write');
    now = 30;
    first();
    now = 50;
    second();
    second();
    const embed = clock.start('embed');
    now = 55;
    embed();
    expect(clock.ms).toEqual({ chunk: 0, embed: 5, write: 50, optimize: 0 });
  });

  it('names the stages with a call in flight (the memory trace labels its samples with them)', () => {
    const clock = new StageClock(() => 0);
    const write = clock.start('write');
    const embed = clock.start('embed');
    expect(clock.busy().sort()).toEqual(['embed', 'write']);
    write();
    expect(clock.busy()).toEqual(['embed']);
    embed();
    expect(clock.busy()).toEqual([]);
  });
});

describe('instrumented sync', () => {
  it('indexes text through the real engine, then builds the vectors with a remote embedder as the app does, timing each stage', async () => {
    const clock = new StageClock();
    const server = await startFakeEmbeddingServer({
      latencyMs: 20,
      models: { tiny: { dimensions: 64, honoursDimensions: false } },
    });
    const remote = new OpenAiCompatibleEmbedder({
      ...EMBEDDING_PRESETS.dashscope,
      provider: 'dashscope',
      model: 'tiny',
      dimensions: 64,
      sendDimensions: false,
      baseUrl: server.baseUrl,
      apiKey: server.apiKey,
    });
    const pipeline = await openPipeline({
      embedder: remote,
      chunk: timedChunker(clock),
      wrapStore: (store) => new TimedStore(store, clock),
    });
    try {
      const connector = new MemoryConnector();
      for (let i = 0; i < 12; i++) connector.put(generateDocument(i));
      const run = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
      // The sync writes text only: no request reached the model.
      expect(server.stats.requests).toBe(0);
      const { vectors } = await buildSemanticIndex(pipeline.db, new TimedEmbedder(remote, clock));
      const { active } = await readSpaces(pipeline.db);
      const stored = await loadStoredVectors(pipeline.db, active!);
      expect([vectors, stored.size]).toEqual([run.counters.chunksWritten, run.counters.chunksWritten]);
      expect(clock.embedRequests).toBeGreaterThan(0);
      expect(server.stats.requests).toBeGreaterThanOrEqual(clock.embedRequests);
      expect(clock.ms.embed).toBeGreaterThan(0);
      expect(clock.ms.write).toBeGreaterThan(0);
      expect(clock.ms.chunk).toBeGreaterThan(0);

      // Unchanged: no fetch, no write. One edited document: fetched and rewritten alone.
      const again = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
      expect([again.counters.unchanged, connector.fetchCount]).toEqual([12, 12]);
      connector.put(generateDocument(3, { version: 2 }));
      const edited = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
      expect([edited.counters.updated, connector.fetchCount]).toEqual([1, 13]);
    } finally {
      await server.close();
      await pipeline.db.close();
    }
  });
});

describe('evaluateCollection', () => {
  it('indexes records as Markdown documents and scores the three methods at document level', async () => {
    const corpus = [
      {
        id: 'travel',
        title: '差旅报销流程',
        text: '员工出差回来后，在系统中提交报销单，附上发票，经理审批后财务付款。',
      },
      { id: 'report', title: '周报模板', text: '每周五提交工作报告，写清本周进展和下周计划。' },
      {
        id: 'install',
        title: 'Install guide',
        text: 'To install Cairn on Linux, download the AppImage and run it.',
      },
      {
        id: 'budget',
        title: 'Budget policy',
        text: 'Travel expenses above 500 need a manager approval before booking.',
      },
      {
        id: 'long',
        title: 'Handbook',
        text: `${'Filler sentence about nothing in particular. '.repeat(80)}The zebra migration schedule is at the end.`,
      },
    ];
    const queries = [
      { id: 'q1', text: '报销发票' },
      { id: 'q2', text: 'install on linux' },
      { id: 'q3', text: 'zebra migration' },
    ];
    const qrels = new Map([
      ['q1', new Map([['travel', 1]])],
      ['q2', new Map([['install', 1]])],
      ['q3', new Map([['long', 2]])],
    ]);
    const result = await evaluateCollection({
      name: 'tiny',
      dir: workDir,
      split: 'test',
      corpus,
      queries,
      qrels,
    });
    expect(result).toMatchObject({ collection: 'tiny', documents: 5, queries: 3 });
    // The handbook is long enough for several chunks; it still counts as one document.
    expect(result.chunks).toBeGreaterThan(5);
    expect(result.scores.keyword).toEqual({ ndcgAt10: 1, pAt1: 1, recallAt10: 1, recallAt30: 1, mrrAt10: 1 });
    expect(result.scores.hybrid.recallAt10).toBe(1);
    expect(result.scores.vector.recallAt30).toBe(1);
  });
});
