import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CairnError } from '../errors';
import { BuiltinEmbedder } from './builtin-embedder';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from './fake-embedding-server';
import { OpenAiCompatibleEmbedder, type OpenAiEmbedderOptions } from './openai-embedder';
import { EMBEDDING_PRESETS } from './presets';
import { dot } from './vector-math';

let server: FakeEmbeddingServer;

beforeAll(async () => {
  server = await startFakeEmbeddingServer({ maxBatchSize: 10 });
});
afterAll(() => server.close());
afterEach(async () => {
  server.setLatency(0);
  server.holdUntilConcurrent(0);
  // A request a test gave up on (a client timeout) is still being answered: let it finish, so the
  // next test's in-flight counts are its own.
  await vi.waitFor(() => expect(server.stats.inFlight).toBe(0), { timeout: 30_000 });
  server.stats.requests = 0;
  server.stats.inputs = 0;
  server.stats.maxInFlight = 0;
  server.stats.batchSizes = [];
});

function embedder(overrides: Partial<OpenAiEmbedderOptions> = {}): OpenAiCompatibleEmbedder {
  return new OpenAiCompatibleEmbedder({
    ...EMBEDDING_PRESETS.dashscope,
    provider: 'dashscope',
    baseUrl: server.baseUrl,
    apiKey: server.apiKey,
    backoffBaseMs: 5,
    ...overrides,
  });
}

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'resolved';
  } catch (error) {
    return error instanceof CairnError
      ? `${error.code}: ${error.message}`
      : `not a CairnError: ${String(error)}`;
  }
}

const texts = Array.from({ length: 23 }, (_, i) =>
  i % 2
    ? `差旅报销单 第${i}号：住宿发票与交通票据`
    : `Travel expense report number ${i}: hotel and train receipts`,
);

describe('OpenAiCompatibleEmbedder against the fake server', () => {
  it('batches within the limit, keeps order, normalises, and counts calls and tokens', async () => {
    const result = await embedder().embed(texts);
    expect(server.stats.batchSizes).toEqual([10, 10, 3]);
    expect(result.calls).toBe(3);
    // The fake charges ceil(chars / 4) tokens per input.
    expect(result.tokens).toBe(texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0));
    const local = new BuiltinEmbedder(1024);
    expect(
      result.vectors.map((vector, i) => Number(dot(vector, local.embedOne(texts[i]!)).toFixed(5))),
    ).toEqual(texts.map(() => 1));
  });

  it('sends dimensions, float encoding and text_type from the kind', async () => {
    await embedder().embed(['报销'], { kind: 'query' });
    expect(server.stats.lastBody).toMatchObject({
      model: 'text-embedding-v3',
      dimensions: 1024,
      encoding_format: 'float',
      text_type: 'query',
    });
    await embedder({ sendTextType: false, sendDimensions: false, model: 'bge-m3' }).embed(['x']);
    expect(server.stats.lastBody).not.toHaveProperty('text_type');
    expect(server.stats.lastBody).not.toHaveProperty('dimensions');
  });

  it('keeps at most five requests in flight', async () => {
    // The first five requests are answered only once five are in flight (never more than five:
    // a sixth arriving while they wait would raise maxInFlight above 5), whatever the load.
    server.holdUntilConcurrent(5);
    server.setLatency(20);
    const many = Array.from({ length: 120 }, (_, i) => `chunk ${i}`);
    const result = await embedder().embed(many);
    expect(result.vectors).toHaveLength(120);
    expect(server.stats.requests).toBe(12);
    expect(server.stats.maxInFlight).toBe(5);
  });

  it('retries 429 (honouring retry-after) and 500, then succeeds', async () => {
    server.failNext(2, 429, { retryAfterMs: 10 });
    server.failNext(1, 500);
    const result = await embedder().embed(['one', 'two']);
    expect(result.vectors).toHaveLength(2);
    expect(server.stats.requests).toBe(4);
  });

  it('gives up after maxRetries with RATE_LIMITED', async () => {
    server.failNext(3, 429, { retryAfterMs: 1 });
    expect(await codeOf(embedder({ maxRetries: 2 }).embed(['x']))).toMatch(/^RATE_LIMITED/);
    expect(server.stats.requests).toBe(3);
  });

  it('maps failures to clear codes without leaking the key', async () => {
    const wrongKey = 'sk-wrong-key-123456789';
    const auth = await codeOf(embedder({ apiKey: wrongKey }).embed(['x']));
    expect(auth).toMatch(/^AUTH_INVALID/);
    expect(auth).not.toContain('sk-');
    expect(auth).not.toContain('6789');
    expect(await codeOf(embedder({ model: 'no-such-model' }).embed(['x']))).toMatch(
      /^MODEL_NOT_FOUND: .*no-such-model/,
    );
    expect(await codeOf(embedder({ maxBatchSize: 11 }).embed(texts.slice(0, 11)))).toMatch(
      /^EMBEDDING_FAILED: .*400/,
    );
    // bge-m3 ignores `dimensions` and answers 1024 floats; a 768-dimension setting must fail loudly.
    expect(await codeOf(embedder({ model: 'bge-m3', dimensions: 768 }).embed(['x']))).toMatch(
      /^EMBEDDING_FAILED: .*1024 dimensions, expected 768/,
    );
    expect(await codeOf(embedder({ baseUrl: 'http://127.0.0.1:9/v1', maxRetries: 1 }).embed(['x']))).toMatch(
      /^SOURCE_UNREACHABLE/,
    );
    server.setLatency(300);
    expect(await codeOf(embedder({ timeoutMs: 50, maxRetries: 0 }).embed(['x']))).toMatch(/^TIMEOUT/);
  });

  it('cancels in-flight and queued batches when the signal aborts', async () => {
    // Never answered: the client sends five at once at most, so a hold for six keeps them waiting,
    // and the embed can only settle by cancelling (were it to wait for answers, it would time out).
    server.holdUntilConcurrent(6, 300_000);
    const controller = new AbortController();
    const work = embedder().embed(
      Array.from({ length: 100 }, (_, i) => `t${i}`),
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(server.stats.inFlight).toBe(5), { timeout: 30_000 });
    controller.abort();
    expect(await codeOf(work)).toMatch(/^CANCELLED/);
    // Ten batches were needed; only the first five ever reached the server.
    expect(server.stats.requests).toBe(5);
  });

  it('cancels during a retry wait', async () => {
    server.failNext(1, 429, { retryAfterMs: 5_000 });
    const controller = new AbortController();
    const work = embedder().embed(['x'], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    expect(await codeOf(work)).toMatch(/^CANCELLED/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('serves base64 vectors to the SDK default (the fake is usable beyond this embedder)', async () => {
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: server.apiKey, maxRetries: 0 });
    const response = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: '报销',
      dimensions: 1024,
    });
    expect(server.stats.lastBody).toMatchObject({ encoding_format: 'base64' });
    expect(
      Number(
        dot(Float32Array.from(response.data[0]!.embedding), new BuiltinEmbedder().embedOne('报销')).toFixed(
          5,
        ),
      ),
    ).toBe(1);
  });

  it('embeds nothing for no input, and a blank input without a 400', async () => {
    expect(await embedder().embed([])).toEqual({ vectors: [], tokens: 0, calls: 0 });
    expect((await embedder().embed(['', '  '])).vectors).toHaveLength(2);
  });
});
