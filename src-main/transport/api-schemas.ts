/**
 * Runtime validation of every argument that crosses a process boundary into core (Electron IPC
 * and the headless HTTP host use this one table). Each schema is typed against the contract, so a
 * contract change that the schema does not follow is a compile error.
 */
import { z } from 'zod';
import { PLATFORMS } from '@shared/models';
import type { ApiDomain, ApiMethodName, CairnApi } from '@shared/contract';
import {
  connectionMode,
  connectionName,
  connectionUpdateSchema,
  newConnectionSchema,
} from '../core/connections/connection-schema';

/** The single argument a method takes (undefined for methods without one). */
export type MethodInput<D extends ApiDomain, M extends ApiMethodName<D>> = CairnApi[D][M] extends (
  ...args: infer A
) => unknown
  ? A extends []
    ? undefined
    : A[0]
  : never;

export type ApiSchemas = { [D in ApiDomain]: { [M in ApiMethodName<D>]: z.ZodType<MethodInput<D, M>> } };

// Bounds keep a hostile or buggy caller from pushing megabytes into core through one field.
const id = z.string().trim().min(1).max(200);
const shortText = z.string().max(500);
const noInput = z.undefined();
const mode = connectionMode;

const url = z.string().trim().min(1).max(4_000);
const providerUrl = z.string().trim().max(2_000);

const embeddingPatch = z.strictObject({
  provider: z.enum(['builtin', 'local', 'dashscope', 'openai', 'ollama', 'custom']).optional(),
  baseUrl: providerUrl.optional(),
  model: shortText.optional(),
  dimensions: z.number().int().min(1).max(8_192).optional(),
  apiKey: z.string().max(8_000).optional(),
});

const chatPatch = z.strictObject({
  provider: z.enum(['none', 'dashscope', 'openai', 'deepseek', 'ollama', 'lmstudio', 'custom']).optional(),
  baseUrl: providerUrl.optional(),
  model: shortText.optional(),
  topK: z.number().int().min(1).max(50).optional(),
  apiKey: z.string().max(8_000).optional(),
});

const modelsPatch = z.strictObject({
  source: z.enum(['huggingface', 'mirror', 'modelscope']).optional(),
  mirrorUrl: providerUrl.optional(),
});

const rerankerPatch = z.strictObject({
  enabled: z.boolean().optional(),
  model: shortText.optional(),
  budgetMs: z.number().int().min(0).max(60_000).optional(),
});

const modelId = z.string().trim().min(1).max(100);

const searchRequest = z.strictObject({
  // Issue 2 requires a 10,000-character query to get an answer, not a crash: allow a margin above it.
  query: z.string().max(20_000),
  k: z.number().int().min(1).max(100).optional(),
  connectionIds: z.array(id).max(200).optional(),
  // Core checks the values (dates, platform names) and says what is wrong: here only shape and size.
  filters: z
    .strictObject({
      connectionIds: z.array(id).max(200).optional(),
      connectionNames: z.array(shortText).max(200).optional(),
      platforms: z.array(z.enum(PLATFORMS)).max(20).optional(),
      knowledgeBases: z.array(shortText).max(200).optional(),
      knowledgeBaseNames: z.array(shortText).max(200).optional(),
      tags: z.array(shortText).max(200).optional(),
      modifiedAfter: z.string().max(64).optional(),
      modifiedBefore: z.string().max(64).optional(),
    })
    .optional(),
  sort: z.enum(['relevance', 'modified']).optional(),
  facetCounts: z.boolean().optional(),
});

export const API_SCHEMAS: ApiSchemas = {
  app: {
    status: noInput,
    openExternal: z.strictObject({
      url,
      page: z.number().int().min(1).max(1_000_000).optional(),
      reveal: z.boolean().optional(),
    }),
    pickFolder: noInput,
    recover: z.strictObject({ action: z.enum(['rebuild', 'fresh']) }),
  },
  connections: {
    list: noInput,
    add: newConnectionSchema,
    test: z.strictObject({ id }),
    testNew: newConnectionSchema,
    previewFolder: z.strictObject({
      path: z.string().trim().min(1).max(4_000),
      exclude: z.string().max(8_000).optional(),
    }),
    setMode: z.strictObject({ id, mode }),
    rename: z.strictObject({ id, name: connectionName }),
    remove: z.strictObject({ id }),
    update: connectionUpdateSchema,
    testUpdate: connectionUpdateSchema,
    authorize: z.strictObject({ id }),
    cancelAuthorize: z.strictObject({ id }),
    signOut: z.strictObject({ id }),
  },
  sync: {
    start: z.strictObject({ connectionId: id }),
    startAll: noInput,
    cancel: z.strictObject({ connectionId: id }),
    runs: z.strictObject({ connectionId: id, limit: z.number().int().min(1).max(500).optional() }),
  },
  search: {
    query: searchRequest,
    facets: noInput,
    explain: searchRequest.extend({
      document: z.union([
        z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        z.string().trim().min(1).max(500),
      ]),
    }),
    titles: z.strictObject({
      text: z.string().max(500),
      limit: z.number().int().min(1).max(50).optional(),
    }),
  },
  documents: {
    get: z.strictObject({ documentId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }),
    list: z.strictObject({
      connectionId: id.optional(),
      offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      limit: z.number().int().min(1).max(1_000).optional(),
    }),
    topics: z.strictObject({ limit: z.number().int().min(1).max(50).optional() }),
  },
  mcp: {
    setup: noInput,
    test: z.strictObject({ query: z.string().trim().max(1_000).optional() }),
  },
  chat: {
    ask: z.strictObject({
      question: z.string().trim().min(1).max(20_000),
      conversationId: id.optional(),
      k: z.number().int().min(1).max(50).optional(),
      searchQuery: z.string().trim().min(1).max(4_000).optional(),
    }),
    cancel: z.strictObject({ messageId: id }),
    conversations: noInput,
    messages: z.strictObject({ conversationId: id }),
    renameConversation: z.strictObject({ conversationId: id, title: z.string().trim().min(1).max(200) }),
    removeConversation: z.strictObject({ conversationId: id }),
  },
  settings: {
    get: noInput,
    update: z.strictObject({
      embedding: embeddingPatch.optional(),
      chat: chatPatch.optional(),
      models: modelsPatch.optional(),
      reranker: rerankerPatch.optional(),
      syncIntervalHours: z
        .number()
        .min(1)
        .max(24 * 30)
        .optional(),
      scheduledSyncPaused: z.boolean().optional(),
      language: z.enum(['system', 'zh', 'en']).optional(),
    }),
    reindexCost: noInput,
    testChat: chatPatch,
    testEmbedding: embeddingPatch,
  },
  models: {
    list: noInput,
    pull: z.strictObject({ id: modelId, mirror: providerUrl.optional() }),
    cancel: z.strictObject({ id: modelId }),
    remove: z.strictObject({ id: modelId }),
    import: z.strictObject({ id: modelId, folder: url, allowUnverified: z.boolean().optional() }),
    detectOllama: noInput,
  },
};
