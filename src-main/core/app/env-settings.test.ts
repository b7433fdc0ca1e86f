import { describe, expect, it } from 'vitest';
import { embeddingOverrideFromEnv } from './env-settings';

describe('embeddingOverrideFromEnv', () => {
  it('reads CAIRN_EMBED_* into an embedding overlay, or null when none is set', () => {
    expect(embeddingOverrideFromEnv({ HOME: '/h', CAIRN_EMBED_MODEL: '' })).toBeNull();
    expect(
      embeddingOverrideFromEnv({ CAIRN_EMBED_BASE_URL: 'http://127.0.0.1:11434/v1', CAIRN_EMBED_API_KEY: 'sk-local-123', CAIRN_EMBED_MODEL: 'bge-m3', CAIRN_EMBED_DIMENSIONS: '1024' }),
    ).toEqual({ provider: 'custom', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-local-123', model: 'bge-m3', dimensions: 1024 });
    expect(embeddingOverrideFromEnv({ CAIRN_EMBED_DIMENSIONS: '512' })).toEqual({ dimensions: 512 });
  });

  it('rejects bad values with a message that never echoes the key', () => {
    expect(() => embeddingOverrideFromEnv({ CAIRN_EMBED_DIMENSIONS: 'lots', CAIRN_EMBED_BASE_URL: 'file:///x', CAIRN_EMBED_API_KEY: 'sk-secret-777' })).toThrow(
      'Invalid CAIRN_EMBED_* environment: CAIRN_EMBED_BASE_URL: must be an http(s) URL; CAIRN_EMBED_DIMENSIONS: Invalid input: expected number, received NaN.',
    );
  });
});
