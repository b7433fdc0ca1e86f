/** What Cairn knows about each OpenAI-compatible embedding provider. Pure data. */
import type { EmbeddingProviderKind } from '@shared/models';

export type RemoteProviderKind = Exclude<EmbeddingProviderKind, 'builtin' | 'local'>;

export interface EmbeddingPreset {
  baseUrl: string;
  model: string;
  dimensions: number;
  /** Most inputs one request may carry. */
  maxBatchSize: number;
  /** Send `dimensions` in the request (only for models that can shorten their output). */
  sendDimensions: boolean;
  /** Send DashScope's `text_type: 'query' | 'document'` (asymmetric retrieval embeddings). */
  sendTextType: boolean;
  /** Local servers need no key; remote ones fall back to the built-in embedder without one. */
  requiresApiKey: boolean;
}

export const EMBEDDING_PRESETS: Record<RemoteProviderKind, EmbeddingPreset> = {
  // DashScope compatible mode: text-embedding-v3/v4 take at most 10 inputs per request (8,192 tokens
  // each), `dimensions` 1024 (default)/768/512/…, and `text_type` query|document.
  // https://help.aliyun.com/zh/model-studio/embedding (batch limit also quoted in agentscope's
  // DashScopeTextEmbedding docs: "max batch size … is 10 for text-embedding-v4 and v3").
  dashscope: {
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    model: 'text-embedding-v3',
    dimensions: 1024,
    maxBatchSize: 10,
    sendDimensions: true,
    sendTextType: true,
    requiresApiKey: true,
  },
  // OpenAI: "any array must be 2048 dimensions or less … a maximum of 300,000 tokens summed across all
  // inputs in a single request" (https://platform.openai.com/docs/api-reference/embeddings/create).
  // 256 chunks of ~1,500 characters stay far below 300k tokens.
  openai: {
    baseUrl: 'https://api.openai.com/v1',
    model: 'text-embedding-3-small',
    dimensions: 1024,
    maxBatchSize: 256,
    sendDimensions: true,
    sendTextType: false,
    requiresApiKey: true,
  },
  // Ollama's OpenAI-compatible /v1/embeddings documents no batch cap
  // (https://github.com/ollama/ollama/blob/main/docs/openai.md); a local model on a laptop answers
  // 32 chunks in a few seconds, which keeps cancellation and progress responsive. bge-m3 is natively
  // 1024-dimensional, so `dimensions` is not sent.
  ollama: {
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'bge-m3',
    dimensions: 1024,
    maxBatchSize: 32,
    sendDimensions: false,
    sendTextType: false,
    requiresApiKey: false,
  },
  // Any other OpenAI-compatible server (vLLM, LM Studio, a gateway): conservative defaults; the
  // returned length is validated, so a model of another size fails clearly instead of mixing spaces.
  // Like the hosted presets it needs a key to be chosen over the built-in embedder (any value works
  // for servers that ignore it).
  custom: {
    baseUrl: 'http://127.0.0.1:8000/v1',
    model: 'text-embedding',
    dimensions: 1024,
    maxBatchSize: 16,
    sendDimensions: false,
    sendTextType: false,
    requiresApiKey: true,
  },
};
