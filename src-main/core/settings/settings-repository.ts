/**
 * Typed settings over the `settings` key/value table. API keys never enter the database: they go
 * to the SecretStore under `settings:embedding` / `settings:chat`, and views only say `hasApiKey`.
 */
import { z } from 'zod';
import type { ChatSettingsView, EmbeddingSettingsView, SettingsPatch, SettingsView } from '@shared/models';
import type { Db } from '../db/database';
import { MAX_DIMENSIONS } from '../index/embedding-spaces';
import type { SecretStore } from '../secrets/secret-store';
import type { SettingsChange, SettingsEventBus } from '../events/settings-events';
import { CairnError } from '../errors';
import { parseInput } from '../validation';

export type ProviderSettingsKind = 'embedding' | 'chat';

type StoredSettings = Omit<SettingsView, 'embedding' | 'chat'> & {
  embedding: Omit<EmbeddingSettingsView, 'hasApiKey'>;
  chat: Omit<ChatSettingsView, 'hasApiKey'>;
};

/** Out of the box: the offline built-in embedder (model '' = its own default), no chat model, daily sync. */
export const DEFAULT_SETTINGS: StoredSettings = {
  embedding: { provider: 'builtin', baseUrl: '', model: '', dimensions: 1024 },
  chat: { provider: 'none', baseUrl: '', model: '', topK: 10 },
  models: { source: 'huggingface', mirrorUrl: '' },
  // An installed reranker is used unless turned off; 300 ms is the per-query target.
  reranker: { enabled: true, model: '', budgetMs: 300 },
  syncIntervalHours: 24,
  scheduledSyncPaused: false,
  language: 'system',
};

const baseUrl = z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })]);
const model = z.string().trim().max(200);
const apiKey = z.string().trim().max(4096);

const embeddingSchema = z
  .object({
    provider: z.enum(['builtin', 'local', 'dashscope', 'openai', 'ollama', 'custom']),
    baseUrl,
    model,
    // The index cannot store wider vectors (embedding-spaces.ts): a wider model could never be indexed.
    dimensions: z.int().min(1).max(MAX_DIMENSIONS),
  })
  .strict();

const chatSchema = z
  .object({
    provider: z.enum(['none', 'dashscope', 'openai', 'deepseek', 'ollama', 'lmstudio', 'custom']),
    baseUrl,
    model,
    topK: z.int().min(1).max(50),
  })
  .strict();

const modelsSchema = z
  .object({ source: z.enum(['huggingface', 'mirror', 'modelscope']), mirrorUrl: baseUrl })
  .strict();

const rerankerSchema = z
  .object({ enabled: z.boolean(), model: z.string().trim().max(100), budgetMs: z.int().min(0).max(60_000) })
  .strict();

const syncIntervalHours = z.number().min(1).max(720);
const language = z.enum(['system', 'zh', 'en']);

const patchSchema = z
  .object({
    embedding: embeddingSchema.extend({ apiKey }).partial().strict(),
    chat: chatSchema.extend({ apiKey }).partial().strict(),
    models: modelsSchema.partial(),
    reranker: rerankerSchema.partial(),
    syncIntervalHours,
    scheduledSyncPaused: z.boolean(),
    language,
  })
  .partial()
  .strict();

/** How each stored row is read back: a value that no longer validates falls back to its default. */
const STORED_SCHEMAS = {
  embedding: embeddingSchema,
  chat: chatSchema,
  models: modelsSchema,
  reranker: rerankerSchema,
  syncIntervalHours,
  scheduledSyncPaused: z.boolean(),
  language,
} satisfies { [K in keyof StoredSettings]: z.ZodType<StoredSettings[K]> };

export function settingsSecretRef(kind: ProviderSettingsKind): string {
  return `settings:${kind}`;
}

export class SettingsRepository {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
    /** Told `settings.changed` after an update changed a setting or wrote a key. @default nobody */
    private readonly events?: SettingsEventBus,
  ) {}

  async get(): Promise<SettingsView> {
    const stored = await this.readStored();
    const [embeddingKey, chatKey] = await Promise.all([this.apiKey('embedding'), this.apiKey('chat')]);
    return {
      ...stored,
      embedding: { ...stored.embedding, hasApiKey: embeddingKey !== null },
      chat: { ...stored.chat, hasApiKey: chatKey !== null },
    };
  }

  /**
   * Validates and applies a patch; an `apiKey` of '' removes the stored key. When a setting changed
   * or a key was written, publishes `settings.changed` and returns once its listeners have re-planned
   * their work (a listener's failure is thrown after the settings were saved).
   */
  async update(input: SettingsPatch): Promise<SettingsView> {
    const patch = parseInput(patchSchema, input, 'settings');
    const before = this.events ? await this.get() : null;
    const keysWritten: SettingsChange['keysWritten'] = [];
    const current = await this.readStored();
    const next: StoredSettings = { ...current };
    if (patch.embedding) {
      const { apiKey: key, ...rest } = patch.embedding;
      next.embedding = { ...current.embedding, ...rest };
      if (key !== undefined) {
        await this.saveApiKey('embedding', key);
        keysWritten.push('embedding');
      }
    }
    if (patch.chat) {
      const { apiKey: key, ...rest } = patch.chat;
      next.chat = { ...current.chat, ...rest };
      if (key !== undefined) {
        await this.saveApiKey('chat', key);
        keysWritten.push('chat');
      }
    }
    if (patch.models) next.models = { ...current.models, ...patch.models };
    if (patch.reranker) next.reranker = { ...current.reranker, ...patch.reranker };
    if (next.models.source === 'mirror' && !next.models.mirrorUrl)
      throw new CairnError('INVALID_ARGUMENT', 'A mirror needs its URL (e.g. https://hf-mirror.com).');
    if (patch.syncIntervalHours !== undefined) next.syncIntervalHours = patch.syncIntervalHours;
    if (patch.scheduledSyncPaused !== undefined) next.scheduledSyncPaused = patch.scheduledSyncPaused;
    if (patch.language !== undefined) next.language = patch.language;

    const changed = (Object.keys(next) as (keyof StoredSettings)[]).filter(
      (key) => JSON.stringify(next[key]) !== JSON.stringify(current[key]),
    );
    if (changed.length > 0) {
      await this.db.transaction(async (tx) => {
        for (const key of changed) {
          await tx.query(
            'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
            [key, JSON.stringify(next[key])],
          );
        }
      });
    }
    const after = await this.get();
    if (before && (changed.length > 0 || keysWritten.length > 0))
      await this.events?.publish('settings.changed', { before, after, keysWritten });
    return after;
  }

  /** The stored API key for a provider, for the composition root building embedders/chat clients. */
  async apiKey(kind: ProviderSettingsKind): Promise<string | null> {
    return (await this.secrets.get(settingsSecretRef(kind)))?.['apiKey'] ?? null;
  }

  private async saveApiKey(kind: ProviderSettingsKind, key: string): Promise<void> {
    if (key === '') await this.secrets.delete(settingsSecretRef(kind));
    else await this.secrets.set(settingsSecretRef(kind), { apiKey: key });
  }

  private async readStored(): Promise<StoredSettings> {
    const rows = (await this.db.query<{ key: string; value: unknown }>('SELECT key, value FROM settings'))
      .rows;
    const byKey = new Map(rows.map((row) => [row.key, row.value]));
    const read = <K extends keyof StoredSettings>(key: K): StoredSettings[K] => {
      const parsed = STORED_SCHEMAS[key].safeParse(byKey.get(key));
      return parsed.success ? (parsed.data as StoredSettings[K]) : structuredClone(DEFAULT_SETTINGS[key]);
    };
    return {
      embedding: read('embedding'),
      chat: read('chat'),
      models: read('models'),
      reranker: read('reranker'),
      syncIntervalHours: read('syncIntervalHours'),
      scheduledSyncPaused: read('scheduledSyncPaused'),
      language: read('language'),
    };
  }
}
