import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../embedding/fake-embedding-server';
import { MemorySecretStore } from '../secrets/secret-store';
import { SettingsRepository } from '../settings/settings-repository';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../testing/fakes/fake-openai-server';
import { settingsApi } from './settings-api';

let db: Db;
let chat: FakeOpenAiServer;
let embeddings: FakeEmbeddingServer;
let settings: SettingsRepository;
let api: ReturnType<typeof settingsApi>;

beforeAll(async () => {
  [db, chat, embeddings] = await Promise.all([
    openDatabase(),
    startFakeOpenAiServer(),
    startFakeEmbeddingServer(),
  ]);
  settings = new SettingsRepository(db, new MemorySecretStore());
  api = settingsApi({ db, settings });
});
afterAll(async () => {
  await Promise.all([chat.close(), embeddings.close()]);
  await db.close();
});

describe('settings.testChat', () => {
  it('asks the model the form shows with one short request, saving nothing', async () => {
    chat.behaviour = { kind: 'script', text: 'OK' };
    const before = chat.requests.length;
    const result = await api.testChat({
      provider: 'custom',
      baseUrl: chat.baseUrl,
      model: chat.model,
      apiKey: chat.apiKey,
    });
    expect(result.ok && result.value.code).toBe('model.chatOk');
    expect(result.ok && result.value.params['model']).toBe(chat.model);
    expect(chat.requests.length).toBe(before + 1);
    expect(chat.requests.at(-1)?.authorization).toBe(`Bearer ${chat.apiKey}`);
    expect((await settings.get()).chat.provider).toBe('none');
    expect(await settings.apiKey('chat')).toBeNull();
  });

  it('uses the stored key when the key field is empty, and says a wrong key is wrong', async () => {
    await settings.update({
      chat: { provider: 'custom', baseUrl: chat.baseUrl, model: chat.model, apiKey: chat.apiKey },
    });
    const stored = await api.testChat({ provider: 'custom', baseUrl: chat.baseUrl, model: chat.model });
    expect(stored.ok).toBe(true);
    const wrong = await api.testChat({ provider: 'custom', apiKey: 'sk-wrong' });
    expect(!wrong.ok && wrong.error.code).toBe('AUTH_INVALID');
    const unknownModel = await api.testChat({ provider: 'custom', model: 'no-such-model' });
    expect(!unknownModel.ok && unknownModel.error.code).toBe('MODEL_NOT_FOUND');
  });

  it('says an address where nothing listens cannot be reached, and that no model is chosen', async () => {
    const down = await api.testChat({ provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'x' });
    expect(!down.ok && down.error.code).toBe('SOURCE_UNREACHABLE');
    const none = await api.testChat({ provider: 'none' });
    expect(!none.ok && none.error.code).toBe('INVALID_ARGUMENT');
  });
});

describe('settings.testEmbedding', () => {
  it('embeds one query with the form’s model and reports its dimensions', async () => {
    const result = await api.testEmbedding({
      provider: 'custom',
      baseUrl: `${embeddings.baseUrl}`,
      model: 'bge-m3',
      dimensions: 1024,
      apiKey: embeddings.apiKey,
    });
    expect(result.ok && result.value.params).toMatchObject({ model: 'bge-m3', dimensions: 1024 });
    expect(embeddings.stats.inputs).toBe(1);
  });

  it('says when the model returns another size than set, and when a paid provider has no key', async () => {
    const mismatch = await api.testEmbedding({
      provider: 'custom',
      baseUrl: embeddings.baseUrl,
      model: 'bge-m3',
      dimensions: 768,
      apiKey: embeddings.apiKey,
    });
    expect(mismatch.ok).toBe(false);
    expect(!mismatch.ok && mismatch.error.message).toMatch(/768/);
    // Without the key, createEmbedder would fall back to the built-in embedder: the test must not pass.
    const noKey = await api.testEmbedding({ provider: 'openai', model: 'text-embedding-3-small' });
    expect(!noKey.ok && noKey.error.code).toBe('AUTH_INVALID');
  });
});
