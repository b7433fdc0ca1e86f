import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsPatch } from '@shared/models';
import { openDatabase, type Db } from '../db/database';
import { CairnError } from '../errors';
import { SettingsEventBus, type SettingsChange } from '../events/settings-events';
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

  it('tells settings.changed what changed and waits for its listeners; an update that changes nothing tells nobody', async () => {
    const events = new SettingsEventBus();
    const published = new SettingsRepository(db, secrets, events);
    const heard: { change: SettingsChange; savedWhenHeard: number }[] = [];
    const start = (await published.get()).syncIntervalHours;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let listening!: () => void;
    const heardFirst = new Promise<void>((resolve) => (listening = resolve));
    events.on('settings.changed', async (change) => {
      heard.push({ change, savedWhenHeard: (await published.get()).syncIntervalHours });
      listening();
      await held;
    });
    let returned = false;
    const updating = published.update({ syncIntervalHours: start + 1 }).then(() => (returned = true));
    await heardFirst;
    expect(returned).toBe(false); // the update waits for the listener
    release();
    await updating;
    await published.update({ syncIntervalHours: start + 1 });
    await published.update({ chat: { apiKey: 'sk-chat' } });
    expect(
      heard.map(({ change, savedWhenHeard }) => ({
        interval: [change.before.syncIntervalHours, change.after.syncIntervalHours],
        chatKey: [change.before.chat.hasApiKey, change.after.chat.hasApiKey],
        keysWritten: change.keysWritten,
        savedWhenHeard,
      })),
    ).toEqual([
      { interval: [start, start + 1], chatKey: [false, false], keysWritten: [], savedWhenHeard: start + 1 },
      {
        interval: [start + 1, start + 1],
        chatKey: [false, true],
        keysWritten: ['chat'],
        savedWhenHeard: start + 1,
      },
    ]);
  });

  it('throws a listener failure to the caller, with the settings saved', async () => {
    const events = new SettingsEventBus();
    const published = new SettingsRepository(db, secrets, events);
    events.on('settings.changed', () => {
      throw new CairnError('EMBEDDING_FAILED', 'The new embedder could not be built.');
    });
    await expect(published.update({ language: 'zh' })).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    expect((await published.get()).language).toBe('zh');
  });
});
