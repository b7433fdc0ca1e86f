/** Settings as the UI shows and patches them, the re-embedding status, and where secrets are kept. */

export type EmbeddingProviderKind = 'builtin' | 'local' | 'dashscope' | 'openai' | 'ollama' | 'custom';
export type ChatProviderKind =
  'none' | 'dashscope' | 'openai' | 'deepseek' | 'ollama' | 'lmstudio' | 'custom';

export interface EmbeddingSettingsView {
  provider: EmbeddingProviderKind;
  baseUrl: string;
  model: string;
  dimensions: number;
  hasApiKey: boolean;
}

export interface ChatSettingsView {
  provider: ChatProviderKind;
  baseUrl: string;
  model: string;
  hasApiKey: boolean;
  /** @default 10 */
  topK: number;
}

/** Where local models are downloaded from: huggingface.co, a mirror with the same layout (e.g. hf-mirror.com), or ModelScope. */
export type ModelSourceKind = 'huggingface' | 'mirror' | 'modelscope';

export interface ModelSettingsView {
  source: ModelSourceKind;
  /** Used when `source` is 'mirror'. CAIRN_MODEL_MIRROR and `--mirror` override both. */
  mirrorUrl: string;
}

export interface RerankerSettingsView {
  /** @default true: an installed reranker is used unless turned off. */
  enabled: boolean;
  /** Catalogue id; '' = the fastest installed reranker that is on by default. */
  model: string;
  /** Time a search may spend reranking. @default 300 */
  budgetMs: number;
}

export interface SettingsView {
  embedding: EmbeddingSettingsView;
  chat: ChatSettingsView;
  models: ModelSettingsView;
  reranker: RerankerSettingsView;
  /** @default 24 */
  syncIntervalHours: number;
  scheduledSyncPaused: boolean;
  language: 'system' | 'zh' | 'en';
}

export interface SettingsPatch {
  embedding?: Partial<Omit<EmbeddingSettingsView, 'hasApiKey'>> & { apiKey?: string };
  chat?: Partial<Omit<ChatSettingsView, 'hasApiKey'>> & { apiKey?: string };
  models?: Partial<ModelSettingsView>;
  reranker?: Partial<RerankerSettingsView>;
  syncIntervalHours?: number;
  scheduledSyncPaused?: boolean;
  language?: 'system' | 'zh' | 'en';
}

/**
 * The semantic index: vectors of the chunks, built in the background after the keyword index
 * (which always serves). `activeSpace` is the space search uses ('' = keyword search only: no
 * semantic model is configured); `pendingSpace` a new model's space being filled while the active
 * one keeps serving. `done`/`total` count the chunks with a vector in the space being filled (the
 * pending one, else the active one).
 */
export interface ReindexStatus {
  /** Vectors are being built now (not paused, not finished, not waiting for the model). */
  running: boolean;
  done: number;
  total: number;
  /** The embedding space that serves search now, e.g. "dashscope/text-embedding-v3/1024"; '' = none. */
  activeSpace: string;
  pendingSpace: string | null;
  /** The user paused building (kept across restarts). */
  paused?: boolean;
  /** Chunks embedded per second lately; null before the first batch. */
  chunksPerSecond?: number | null;
  /** Seconds left at that rate; null when unknown. */
  etaSeconds?: number | null;
  /** Documents the model refused so far (they stay searchable by keyword, and are tried again later). */
  failedDocuments?: number;
  /** Why building stopped or waits (the model unreachable, its key missing); null when fine. */
  error?: string | null;
}

/** How much of the index a search's vector channel covered; absent from a response: keyword search only. */
export interface SemanticCoverage {
  /** The space the vectors are in, e.g. "local/bge-small-zh-v1.5@…/512". */
  space: string;
  /** Chunks with a vector in that space, of all chunks in the index. */
  covered: number;
  total: number;
}

/**
 * Where this Cairn keeps credentials, so the forms and Settings can say it plainly.
 * keychain: encrypted by the operating system's keychain; plain-file: an owner-only file that is
 * NOT encrypted (no keychain on this system); unavailable: nothing can be stored; memory: not kept.
 */
export interface SecretStorageView {
  kind: 'keychain' | 'plain-file' | 'unavailable' | 'memory';
  /** The file, for plain-file. */
  path: string | null;
}
