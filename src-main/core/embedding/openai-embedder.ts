/**
 * Embeddings from any OpenAI-compatible `/embeddings` endpoint (OpenAI, DashScope compatible mode,
 * Ollama, vLLM, …) through the official `openai` SDK. Inputs are cut into batches within the
 * provider's limit, at most `concurrency` requests are in flight (p-queue), transient failures (429,
 * 5xx, dropped connections) are retried with bounded exponential backoff and full jitter, and every
 * returned vector is checked and L2-normalised before anyone stores it.
 */
import { setMaxListeners } from 'node:events';
import type OpenAI from 'openai';
import type { APIError } from 'openai';
import { loadOpenAiSdk, type OpenAiSdk } from '../openai/openai-sdk';
import PQueue from 'p-queue';
import type { ErrorCode } from '@shared/errors';
import { CairnError, isAbortError, throwIfAborted } from '../errors';
import type { EmbedResult, Embedder, EmbeddingSpace } from './embedder';
import type { RemoteProviderKind } from './presets';
import { l2Normalise } from './vector-math';

export interface OpenAiEmbedderOptions {
  provider: RemoteProviderKind;
  baseUrl: string;
  /** Ollama and most local servers ignore it; the SDK insists on a value, so a placeholder is sent. */
  apiKey?: string;
  model: string;
  dimensions: number;
  maxBatchSize: number;
  /** Send `dimensions` in the request. */
  sendDimensions: boolean;
  /** Send DashScope's `text_type` from the embed call's `kind`. */
  sendTextType: boolean;
  /** Requests in flight at once. @default 5 */
  concurrency?: number;
  /** Retries after the first attempt of a batch. @default 4 */
  maxRetries?: number;
  /** First backoff step; doubles per retry, full jitter. @default 500 */
  backoffBaseMs?: number;
  /** Longest single wait, also the cap on a server's retry-after. @default 20000 */
  backoffMaxMs?: number;
  /** Per request. @default 60000 */
  timeoutMs?: number;
  /** For tests. */
  fetch?: typeof fetch;
}

interface BatchResult {
  vectors: Float32Array[];
  tokens: number;
}

export class OpenAiCompatibleEmbedder implements Embedder {
  readonly space: EmbeddingSpace;
  readonly batching: { size: number; concurrency: number };
  private client: Promise<{ sdk: OpenAiSdk; client: OpenAI }> | null = null;
  private readonly queue: PQueue;
  private readonly options: Required<Omit<OpenAiEmbedderOptions, 'apiKey' | 'fetch'>> &
    Pick<OpenAiEmbedderOptions, 'apiKey' | 'fetch'>;

  constructor(options: OpenAiEmbedderOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions <= 0)
      throw new CairnError(
        'INVALID_ARGUMENT',
        `Embedding dimensions must be a positive integer, got ${options.dimensions}.`,
      );
    if (!Number.isInteger(options.maxBatchSize) || options.maxBatchSize <= 0)
      throw new CairnError(
        'INVALID_ARGUMENT',
        `Batch size must be a positive integer, got ${options.maxBatchSize}.`,
      );
    this.options = {
      concurrency: 5,
      maxRetries: 4,
      backoffBaseMs: 500,
      backoffMaxMs: 20_000,
      timeoutMs: 60_000,
      ...options,
    };
    this.space = { provider: options.provider, model: options.model, dimensions: options.dimensions };
    this.batching = { size: this.options.maxBatchSize, concurrency: this.options.concurrency };
    this.queue = new PQueue({ concurrency: this.options.concurrency });
  }

  /** The SDK client, built on the first request (the SDK itself loads then: openai/openai-sdk.ts). */
  private sdkClient(): Promise<{ sdk: OpenAiSdk; client: OpenAI }> {
    this.client ??= loadOpenAiSdk().then((sdk) => ({
      sdk,
      // Retries are ours (maxRetries 0): the SDK's wait ignores AbortSignal and obeys any retry-after.
      client: new sdk.OpenAI({
        baseURL: this.options.baseUrl,
        apiKey: this.options.apiKey || 'no-key',
        maxRetries: 0,
        timeout: this.options.timeoutMs,
        fetch: this.options.fetch,
      }),
    }));
    return this.client;
  }

  async embed(
    texts: string[],
    options?: { kind?: 'document' | 'query'; signal?: AbortSignal },
  ): Promise<EmbedResult> {
    throwIfAborted(options?.signal);
    if (texts.length === 0) return { vectors: [], tokens: 0, calls: 0 };
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += this.options.maxBatchSize)
      batches.push(texts.slice(i, i + this.options.maxBatchSize));
    // One failed batch fails the call: stop the others instead of paying for vectors nobody keeps.
    const stop = new AbortController();
    const signal = options?.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    // Each queued batch listens (p-queue, then the SDK): many batches are expected, not a leak.
    setMaxListeners(2 * batches.length + 10, signal);
    const kind = options?.kind ?? 'document';
    try {
      const results = await Promise.all(
        batches.map((batch) =>
          this.queue.add(() => this.embedBatchWithRetries(batch, kind, signal), { signal }),
        ),
      );
      return {
        vectors: results.flatMap((result) => result.vectors),
        tokens: results.reduce((sum, result) => sum + result.tokens, 0),
        calls: batches.length,
      };
    } catch (error) {
      if (options?.signal?.aborted) throw new CairnError('CANCELLED', 'Embedding cancelled.');
      throw error;
    } finally {
      stop.abort();
    }
  }

  private async embedBatchWithRetries(
    batch: string[],
    kind: 'document' | 'query',
    signal: AbortSignal | undefined,
  ): Promise<BatchResult> {
    for (let attempt = 0; ; attempt++) {
      throwIfAborted(signal);
      const { sdk, client } = await this.sdkClient();
      try {
        return await this.embedBatch(client, batch, kind, signal);
      } catch (error) {
        const failure = this.classify(sdk, error);
        if (!failure.retryable || attempt >= this.options.maxRetries) throw failure.error;
        await sleep(this.backoff(attempt, failure.retryAfterMs), signal);
      }
    }
  }

  private async embedBatch(
    client: OpenAI,
    batch: string[],
    kind: 'document' | 'query',
    signal: AbortSignal | undefined,
  ): Promise<BatchResult> {
    const body: OpenAI.EmbeddingCreateParams & { text_type?: 'document' | 'query' } = {
      model: this.options.model,
      // Cheaper than base64 to check, and servers that only speak float (Ollama) accept it.
      encoding_format: 'float',
      input: batch.map((text) => (text.trim() === '' ? ' ' : text)),
    };
    if (this.options.sendDimensions) body.dimensions = this.options.dimensions;
    // Undocumented-to-the-SDK params travel in the body as-is (openai-node README, "Undocumented request params").
    if (this.options.sendTextType) body.text_type = kind;
    const response = await client.embeddings.create(body, { signal });
    const data = Array.isArray(response?.data) ? response.data : null;
    if (!data || data.length !== batch.length) {
      throw new CairnError(
        'EMBEDDING_FAILED',
        `${this.describe()} returned ${data ? data.length : 'no'} embeddings for ${batch.length} inputs.`,
      );
    }
    const vectors: Float32Array[] = new Array(batch.length);
    for (const item of data) {
      const index = item.index;
      if (!Number.isInteger(index) || index < 0 || index >= batch.length || vectors[index])
        throw new CairnError(
          'EMBEDDING_FAILED',
          `${this.describe()} returned an embedding with a bad index (${index}).`,
        );
      const embedding: unknown = item.embedding;
      if (!Array.isArray(embedding) || embedding.length !== this.options.dimensions) {
        const got = Array.isArray(embedding) ? `${embedding.length} dimensions` : typeof embedding;
        throw new CairnError(
          'EMBEDDING_FAILED',
          `${this.describe()} returned ${got}, expected ${this.options.dimensions}: check the model's dimensions setting.`,
        );
      }
      if (!embedding.every((value) => typeof value === 'number' && Number.isFinite(value)))
        throw new CairnError(
          'EMBEDDING_FAILED',
          `${this.describe()} returned a vector with non-numeric values.`,
        );
      vectors[index] = l2Normalise(Float32Array.from(embedding as number[]));
    }
    return { vectors, tokens: response.usage?.total_tokens ?? response.usage?.prompt_tokens ?? 0 };
  }

  /** Maps SDK and transport failures onto Cairn's codes; decides whether another attempt may help. */
  private classify(
    sdk: OpenAiSdk,
    error: unknown,
  ): { error: CairnError; retryable: boolean; retryAfterMs?: number } {
    const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
    if (error instanceof CairnError) return { error, retryable: false };
    if (error instanceof APIUserAbortError || isAbortError(error))
      return { error: new CairnError('CANCELLED', 'Embedding cancelled.'), retryable: false };
    if (error instanceof APIConnectionTimeoutError)
      return { error: this.fail('TIMEOUT', `timed out after ${this.options.timeoutMs} ms`), retryable: true };
    if (error instanceof APIConnectionError)
      return {
        error: this.fail('SOURCE_UNREACHABLE', `cannot be reached at ${this.options.baseUrl}`),
        retryable: true,
      };
    if (error instanceof APIError) {
      const status = error.status ?? 0;
      const detail = this.redact(providerMessage(error));
      const retryAfterMs = parseRetryAfter(error.headers);
      if (status === 401)
        return {
          error: this.fail('AUTH_INVALID', `rejected the API key (401): ${detail}`),
          retryable: false,
        };
      if (status === 403)
        return { error: this.fail('PERMISSION_DENIED', `refused access (403): ${detail}`), retryable: false };
      if (status === 404)
        return {
          error: this.fail(
            'MODEL_NOT_FOUND',
            `does not serve model "${this.options.model}" (404): ${detail}`,
          ),
          retryable: false,
        };
      if (status === 429) {
        const quota = /quota|insufficient|billing|arrearage/i.test(`${error.code ?? ''} ${detail}`);
        return quota
          ? { error: this.fail('QUOTA_EXCEEDED', `quota exhausted (429): ${detail}`), retryable: false }
          : {
              error: this.fail('RATE_LIMITED', `rate limit hit (429): ${detail}`),
              retryable: true,
              retryAfterMs,
            };
      }
      if (status === 408 || status >= 500)
        return {
          error: this.fail('SOURCE_ERROR', `failed with ${status}: ${detail}`),
          retryable: true,
          retryAfterMs,
        };
      if (/context|too long|max.*tokens|token limit/i.test(detail))
        return {
          error: this.fail('CONTEXT_TOO_LONG', `refused an input as too long (${status}): ${detail}`),
          retryable: false,
        };
      return {
        error: this.fail('EMBEDDING_FAILED', `refused the request (${status}): ${detail}`),
        retryable: false,
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return {
      error: this.fail('EMBEDDING_FAILED', `returned an unusable response: ${this.redact(message)}`),
      retryable: false,
    };
  }

  /** Full-jitter exponential backoff (AWS architecture blog, "Exponential Backoff And Jitter"), or the server's hint, both capped. */
  private backoff(attempt: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) return Math.min(retryAfterMs, this.options.backoffMaxMs);
    const ceiling = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  private fail(code: ErrorCode, what: string): CairnError {
    return new CairnError(code, `${this.describe()} ${what}`);
  }

  private describe(): string {
    return `Embedding provider ${this.options.provider} (${this.options.model})`;
  }

  /** Providers echo parts of a rejected key ("Incorrect API key provided: sk-ab***yz"); never pass them on. */
  private redact(text: string): string {
    let out = text.slice(0, 300);
    if (this.options.apiKey) out = out.split(this.options.apiKey).join('[redacted]');
    return out.replace(/\bsk-[A-Za-z0-9_*.-]{3,}/g, '[redacted]');
  }
}

function providerMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : error.message;
}

function parseRetryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number(headers?.get('retry-after'));
  if (Number.isFinite(seconds) && seconds >= 0 && headers?.get('retry-after')) return seconds * 1000;
  return undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CairnError('CANCELLED', 'Embedding cancelled.'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CairnError('CANCELLED', 'Embedding cancelled.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
