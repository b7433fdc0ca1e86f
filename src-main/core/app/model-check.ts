/**
 * Settings' "Test" buttons: one tiny real request to the chat model or the embedding model the form
 * shows (nothing saved), so a wrong URL, model name or key is found before the first question or
 * the first re-embed. An empty key means the stored one, when the provider is the stored provider.
 */
import type { CoreMessage, SettingsPatch } from '@shared/models';
import { resolveChatModelConfig } from '../chat/chat-provider';
import { OpenAiChatModel } from '../chat/openai-chat-model';
import { createEmbedder, type EmbeddingSettings } from '../embedding/create-embedder';
import type { Embedder } from '../embedding/embedder';
import { EMBEDDING_PRESETS } from '../embedding/presets';
import { CairnError } from '../errors';
import type { SettingsRepository } from '../settings/settings-repository';

/** A test is one short request: a wrong address should fail in seconds, not after the chat's minute. */
const TEST_TIMEOUT_MS = 20_000;

export type ChatDraft = NonNullable<SettingsPatch['chat']>;
export type EmbeddingDraft = NonNullable<SettingsPatch['embedding']>;

export async function testChatModel(
  settings: SettingsRepository,
  draft: ChatDraft,
  signal?: AbortSignal,
): Promise<CoreMessage> {
  const saved = (await settings.get()).chat;
  const chat = { ...saved, ...withoutKey(draft) };
  const apiKey =
    draft.apiKey?.trim() || (chat.provider === saved.provider ? await settings.apiKey('chat') : null);
  // The form is what is tested, not CAIRN_CHAT_* (which only a headless run sets).
  const config = resolveChatModelConfig({ settings: chat, apiKey, env: {} });
  if (!config) throw new CairnError('INVALID_ARGUMENT', 'No chat model is chosen: pick a provider first.');
  const model = new OpenAiChatModel({
    ...config,
    requestTimeoutMs: TEST_TIMEOUT_MS,
    idleTimeoutMs: TEST_TIMEOUT_MS,
    maxRetries: 0,
  });
  const started = performance.now();
  await model.stream(
    { messages: [{ role: 'user', content: 'Reply with the single word OK.' }], maxTokens: 8, temperature: 0 },
    () => {},
    signal,
  );
  const ms = Math.round(performance.now() - started);
  return {
    code: 'model.chatOk',
    message: `The chat model ${config.model} answered in ${ms} ms.`,
    params: { model: config.model, ms },
  };
}

export async function testEmbeddingModel(
  settings: SettingsRepository,
  draft: EmbeddingDraft,
  signal?: AbortSignal,
  /** Builds an installed local model's embedder (provider 'local'). */
  local?: (model: string) => Embedder,
): Promise<CoreMessage> {
  const saved = (await settings.get()).embedding;
  const { hasApiKey: _stored, ...current } = saved;
  const chosen: EmbeddingSettings = { ...current, ...withoutKey(draft) };
  const apiKey =
    draft.apiKey?.trim() || (chosen.provider === saved.provider ? await settings.apiKey('embedding') : null);
  // createEmbedder answers null (keyword search only) when a key is missing; a test says why.
  const preset =
    chosen.provider === 'builtin' || chosen.provider === 'local' ? null : EMBEDDING_PRESETS[chosen.provider];
  if (preset?.requiresApiKey && !apiKey)
    throw new CairnError('AUTH_INVALID', 'This embedding provider needs an API key.');
  const embedder = createEmbedder(
    { ...chosen, ...(apiKey ? { apiKey } : {}) },
    { timeoutMs: TEST_TIMEOUT_MS, maxRetries: 0 },
    local,
  );
  if (!embedder)
    throw new CairnError(
      'INVALID_ARGUMENT',
      'No semantic model is chosen: Cairn searches by keyword. Choose a local model or a provider to test it.',
    );
  const started = performance.now();
  const result = await embedder.embed(['Cairn 连接测试 connection test'], { kind: 'query', signal });
  const ms = Math.round(performance.now() - started);
  const dimensions = result.vectors[0]?.length ?? 0;
  const model = embedder.space.model;
  return {
    code: 'model.embeddingOk',
    message: `The embedding model ${model} returned a vector of ${dimensions} dimensions in ${ms} ms.`,
    params: { model, dimensions, ms },
  };
}

function withoutKey<T extends { apiKey?: string }>(draft: T): Omit<T, 'apiKey'> {
  const { apiKey: _key, ...rest } = draft;
  return rest;
}
