import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { createEmbedder, embeddingSettingsFromEnv } from './create-embedder';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from './fake-embedding-server';
import { OpenAiCompatibleEmbedder } from './openai-embedder';

let server: FakeEmbeddingServer;
beforeAll(async () => {
  server = await startFakeEmbeddingServer();
});
afterAll(() => server.close());

describe('createEmbedder', () => {
  it('builds no semantic model for keyword search only, nor for a provider missing its key (Ollama needs none)', () => {
    const kinds = (['builtin', 'dashscope', 'openai', 'custom', 'ollama'] as const).map((provider) => {
      const embedder = createEmbedder({ provider, baseUrl: '', model: '', dimensions: 1024 });
      return [provider, embedder instanceof OpenAiCompatibleEmbedder ? embedder.space.model : embedder];
    });
    expect(kinds).toEqual([
      ['builtin', null],
      ['dashscope', null],
      ['openai', null],
      ['custom', null],
      ['ollama', 'bge-m3'],
    ]);
  });

  it('builds a working remote embedder from settings with a key', async () => {
    const embedder = createEmbedder({
      provider: 'openai',
      baseUrl: server.baseUrl,
      model: '',
      dimensions: 1024,
      apiKey: server.apiKey,
    })!;
    expect(embedder.space).toEqual({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 1024 });
    const result = await embedder.embed(['hello', '你好']);
    expect(result.vectors.map((v) => v.length)).toEqual([1024, 1024]);
    expect(server.stats.lastBody).toMatchObject({
      model: 'text-embedding-3-small',
      dimensions: 1024,
      encoding_format: 'float',
    });
  });
});

describe('embeddingSettingsFromEnv', () => {
  it('reads the CAIRN_EMBED_* variables and fills gaps from the preset', () => {
    expect(embeddingSettingsFromEnv({})).toBeNull();
    expect(
      embeddingSettingsFromEnv({ CAIRN_EMBED_PROVIDER: 'dashscope', CAIRN_EMBED_API_KEY: ' sk-1 ' }),
    ).toEqual({
      provider: 'dashscope',
      baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      model: 'text-embedding-v3',
      dimensions: 1024,
      apiKey: 'sk-1',
    });
    expect(
      embeddingSettingsFromEnv({
        CAIRN_EMBED_BASE_URL: 'http://127.0.0.1:8080/v1',
        CAIRN_EMBED_API_KEY: 'k',
        CAIRN_EMBED_MODEL: 'm',
        CAIRN_EMBED_DIMENSIONS: '768',
      }),
    ).toEqual({
      provider: 'custom',
      baseUrl: 'http://127.0.0.1:8080/v1',
      model: 'm',
      dimensions: 768,
      apiKey: 'k',
    });
  });

  it('rejects bad values with INVALID_ARGUMENT', () => {
    const codes = [
      { CAIRN_EMBED_PROVIDER: 'cohere' },
      { CAIRN_EMBED_DIMENSIONS: '12.5' },
      { CAIRN_EMBED_DIMENSIONS: 'many' },
    ].map((env) => {
      try {
        embeddingSettingsFromEnv(env);
        return 'accepted';
      } catch (error) {
        return error instanceof CairnError ? error.code : 'other';
      }
    });
    expect(codes).toEqual(['INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
  });
});
