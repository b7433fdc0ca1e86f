import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsPatch } from '@shared/models';
import { openDatabase, type Db } from '../db/database';
import { CairnError } from '../errors';
import { MemorySecretStore } from '../secrets/secret-store';
import { SettingsRepository } from './settings-repository';

let db: Db;
let secrets: MemorySecretStore;
let settings: SettingsRepository;

beforeAll(async () => {
  db = await openDatabase();
  secrets = new MemorySecretStore();
  settings = new SettingsRepository(db, secrets);
});

afterAll(async () => {
  await db.close();
});

describe('SettingsRepository', () => {
  it('starts from the offline defaults', async () => {
    expect(await settings.get()).toEqual({
      embedding: { provider: 'builtin', baseUrl: '', model: '', dimensions: 1024, hasApiKey: false },
      chat: { provider: 'none', baseUrl: '', model: '', topK: 10, hasApiKey: false },
      models: { source: 'huggingface', mirrorUrl: '' },
      reranker: { enabled: true, model: '', budgetMs: 300 },
      syncIntervalHours: 24,
      scheduledSyncPaused: false,
      language: 'system',
    });
  });

  it('merges patches, keeps API keys in the secret store only, and removes a key given as empty', async () => {
    const updated = await settings.update({
      embedding: {
        provider: 'openai',
        model: 'text-embedding-3-small',
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKey: ' sk-embed-123456 ',
      },
      chat: { provider: 'deepseek', apiKey: 'sk-chat-abcdef' },
      models: { source: 'mirror', mirrorUrl: 'https://hf-mirror.com' },
      reranker: { budgetMs: 800 },
      syncIntervalHours: 6,
      language: 'zh',
    });
    expect(updated).toEqual({
      embedding: {
        provider: 'openai',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'text-embedding-3-small',
        dimensions: 1024,
        hasApiKey: true,
      },
      chat: { provider: 'deepseek', baseUrl: '', model: '', topK: 10, hasApiKey: true },
      models: { source: 'mirror', mirrorUrl: 'https://hf-mirror.com' },
      reranker: { enabled: true, model: '', budgetMs: 800 },
      syncIntervalHours: 6,
      scheduledSyncPaused: false,
      language: 'zh',
    });
    expect(await settings.apiKey('embedding')).toBe('sk-embed-123456');
    const rows = await db.query<{ key: string; value: unknown }>(
      'SELECT key, value FROM settings ORDER BY key',
    );
    expect(JSON.stringify(rows.rows)).not.toMatch(/sk-/);
    expect((await new SettingsRepository(db, secrets).get()).chat.provider).toBe('deepseek');

    await settings.update({ chat: { apiKey: '' } });
    expect({ key: await settings.apiKey('chat'), has: (await settings.get()).chat.hasApiKey }).toEqual({
      key: null,
      has: false,
    });
  });

  it('rejects bad input with a readable message and changes nothing', async () => {
    const before = await settings.get();
    const attempt = async (patch: unknown) => {
      try {
        await settings.update(patch as SettingsPatch);
      } catch (error) {
        if (error instanceof CairnError) return `${error.code}: ${error.message}`;
        throw error;
      }
      return 'accepted';
    };
    expect(await attempt({ syncIntervalHours: 0, embedding: { dimensions: 1.5, baseUrl: 'ftp://x' } })).toBe(
      'INVALID_ARGUMENT: Invalid settings: embedding.baseUrl: must be an http(s) URL; embedding.dimensions: Invalid input: expected int, received number; syncIntervalHours: Too small: expected number to be >=1.',
    );
    expect(await attempt({ theme: 'dark' })).toBe(
      'INVALID_ARGUMENT: Invalid settings: Unrecognized key: "theme".',
    );
    // The index stores at most 4,000 dimensions (halfvec HNSW): a wider model could never be indexed.
    expect(await attempt({ embedding: { dimensions: 4096 } })).toBe(
      'INVALID_ARGUMENT: Invalid settings: embedding.dimensions: Too big: expected number to be <=4000.',
    );
    expect(await attempt({ chat: { provider: 'skynet' } })).toMatch(
      /^INVALID_ARGUMENT: Invalid settings: chat\.provider: Invalid option/,
    );
    expect(await settings.get()).toEqual(before);
  });

  it('falls back to the default for a stored value that no longer validates', async () => {
    await db.query(
      "INSERT INTO settings (key, value) VALUES ('language', '\"klingon\"') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
    );
    expect((await settings.get()).language).toBe('system');
  });
});
