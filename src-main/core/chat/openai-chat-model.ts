/**
 * A ChatModel over any OpenAI-compatible /chat/completions endpoint (DashScope, OpenAI, DeepSeek,
 * Ollama, LM Studio...), streamed with usage. The SDK's own timeout only covers the wait for the
 * response headers, so a silent stream is cut here by an idle timer.
 */
import type OpenAI from 'openai';
import { loadOpenAiSdk, type OpenAiSdk } from '../openai/openai-sdk';
import type { TokenUsage } from '@shared/models';
import { CairnError } from '../errors';
import { resolveChatModelConfig, type ChatModelConfig, type ChatSettingsInput } from './chat-provider';
import type { ChatCompletionRequest, ChatCompletionResult, ChatModel, ResolvedChatModel } from './chat-model';
import { toChatError } from './chat-errors';

export class OpenAiChatModel implements ChatModel {
  readonly model: string;
  readonly contextWindow: number;
  private client: Promise<{ sdk: OpenAiSdk; client: OpenAI }> | null = null;
  private readonly idleTimeoutMs: number;

  constructor(private readonly config: ChatModelConfig) {
    this.model = config.model;
    this.contextWindow = config.contextWindow;
    this.idleTimeoutMs = config.idleTimeoutMs ?? 60_000;
  }

  /** The SDK client, built on the first answer (the SDK itself loads then: openai/openai-sdk.ts). */
  private sdkClient(): Promise<{ sdk: OpenAiSdk; client: OpenAI }> {
    const config = this.config;
    this.client ??= loadOpenAiSdk().then((sdk) => ({
      sdk,
      client: new sdk.OpenAI({
        // Local servers need no key, but the SDK requires a non-empty one.
        apiKey: config.apiKey || 'no-key',
        baseURL: config.baseUrl,
        timeout: config.requestTimeoutMs ?? 60_000,
        maxRetries: config.maxRetries ?? 1,
        // Cairn logs through its redacting logger; the SDK must not print requests on its own.
        logLevel: 'off',
      }),
    }));
    return this.client;
  }

  async stream(
    request: ChatCompletionRequest,
    onDelta: (delta: string) => void,
    signal?: AbortSignal,
  ): Promise<ChatCompletionResult> {
    const { sdk, client } = await this.sdkClient();
    const controller = new AbortController();
    let timedOut = false;
    const abort = () => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    let idleTimer: NodeJS.Timeout | undefined;
    const armIdleTimer = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.idleTimeoutMs);
    };

    let text = '';
    let usage: TokenUsage | null = null;
    let finishReason: string | null = null;
    try {
      if (signal?.aborted) throw new CairnError('CANCELLED', 'Cancelled.');
      armIdleTimer();
      const stream = await client.chat.completions.create(
        {
          model: this.model,
          messages: request.messages,
          stream: true,
          stream_options: { include_usage: true },
          temperature: request.temperature ?? 0.2,
          ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
        },
        { signal: controller.signal },
      );
      for await (const chunk of stream) {
        armIdleTimer();
        for (const choice of chunk.choices) {
          const delta = choice.delta?.content;
          if (delta) {
            text += delta;
            onDelta(delta);
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
        if (chunk.usage)
          usage = {
            promptTokens: chunk.usage.prompt_tokens,
            completionTokens: chunk.usage.completion_tokens,
            totalTokens: chunk.usage.total_tokens,
          };
      }
    } catch (error) {
      throw this.classify(sdk, error, timedOut, signal);
    } finally {
      clearTimeout(idleTimer);
      signal?.removeEventListener('abort', abort);
    }
    // The SDK ends the iteration quietly when its signal fires, so the reason is checked here.
    if (timedOut || signal?.aborted) throw this.classify(sdk, new Error('aborted'), timedOut, signal);
    if (!finishReason)
      throw new CairnError(
        'SOURCE_UNREACHABLE',
        'The chat model stopped sending before the answer was finished.',
        { details: { received: text.length } },
      );
    if (finishReason === 'content_filter')
      throw new CairnError('SOURCE_ERROR', "The provider's content filter stopped the answer.");
    return { text, usage, finishReason };
  }

  private classify(
    sdk: OpenAiSdk,
    error: unknown,
    timedOut: boolean,
    signal: AbortSignal | undefined,
  ): CairnError {
    if (timedOut)
      return new CairnError(
        'TIMEOUT',
        `The chat model sent nothing for ${seconds(this.idleTimeoutMs)}; the answer was cut.`,
      );
    if (signal?.aborted) return new CairnError('CANCELLED', 'Cancelled.');
    return toChatError(
      error,
      {
        model: this.model,
        baseUrl: this.config.baseUrl,
        apiKey: this.config.apiKey,
      },
      sdk,
    );
  }
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

export type ChatTimeouts = Pick<ChatModelConfig, 'requestTimeoutMs' | 'idleTimeoutMs' | 'maxRetries'>;

/**
 * The ChatService's resolveModel from stored settings (+ env): reads them on every question so a
 * settings change applies at once, and reuses the client while they stay the same.
 */
export function createChatModelResolver(
  load: () => Promise<ChatSettingsInput>,
  timeouts: ChatTimeouts = {},
): () => Promise<ResolvedChatModel | null> {
  let cached: { key: string; model: OpenAiChatModel } | null = null;
  return async () => {
    const config = resolveChatModelConfig(await load());
    if (!config) return null;
    const full = { ...config, ...timeouts };
    const key = JSON.stringify(full);
    if (cached?.key !== key) cached = { key, model: new OpenAiChatModel(full) };
    return { model: cached.model, secrets: config.apiKey ? [config.apiKey] : [] };
  };
}
