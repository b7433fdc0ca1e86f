/** Plain data shapes shared by main, preload, renderer and the headless host. No behaviour here. */
import type { AppErrorData, ErrorCode } from './errors';

export const PLATFORMS = ['folder', 'feishu', 'lark', 'yuque', 'dingtalk', 'ima'] as const;
export type Platform = (typeof PLATFORMS)[number];

export type ConnectionMode = 'rag' | 'direct';

/** The longest connection name, in characters: one limit for the form, the API, core and the database. */
export const CONNECTION_NAME_MAX_LENGTH = 80;
export type SyncStatus = 'idle' | 'syncing' | 'synced' | 'failed';

/** What the UI and CLI see of a connection. Never carries a secret. */
export interface ConnectionView {
  id: string;
  platform: Platform;
  name: string;
  mode: ConnectionMode;
  /** Non-secret settings, e.g. `{ path }` for a folder or `{ baseUrl }` for a platform. */
  config: Record<string, string | number | boolean>;
  /** Names of the secret fields that are stored (values never leave main). */
  secretFields: string[];
  syncStatus: SyncStatus;
  /** Why the last sync failed or was partial: core's English sentence (names, numbers)… */
  syncError: string | null;
  /** …and its code, so the UI can say it in its own language; null when there is no syncError (or it predates the code). */
  syncErrorCode: ErrorCode | null;
  lastSyncAt: string | null;
  nextSyncAt: string | null;
  documentCount: number;
  chunkCount: number;
  /** A plain statement (English) of what this connection cannot do, e.g. "full text unavailable: direct search only". */
  limitation: string | null;
  /** A stable code for `limitation` (e.g. "dingtalk.no-stream"): the UI shows its own translation of known codes, else `limitation`. */
  limitationCode: string | null;
  experimental: boolean;
  /** Platforms with a user sign-in (Feishu/Lark) only: whether search and My Library are authorised. */
  userAuth?: UserAuthState;
  /** Documents the last listing run deferred to the next sync (the platform's request limit or quota). */
  deferred?: number;
  /** Items the last listing run skipped per kind (no text API), e.g. `{ mindnote: 3 }`. */
  skippedKinds?: Record<string, number>;
  /** The platform gives this connection no full text: it can only be searched live (direct mode). */
  directOnly?: boolean;
  /** Local folders only: watching and vault state. */
  folder?: FolderState;
}

/** Kinds of files a local-folder connection reads (for counts such as "12 PDF, 40 Markdown"). */
export const FILE_KINDS = [
  'markdown',
  'text',
  'pdf',
  'word',
  'powerpoint',
  'spreadsheet',
  'html',
  'epub',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** What adding a folder would index (`connections.previewFolder`), before it is added. */
export interface FolderPreview {
  /** The absolute folder path (`~` expanded). */
  path: string;
  /** Files Cairn would read, by kind. */
  counts: Partial<Record<FileKind, number>>;
  total: number;
  /** True when counting stopped at the cap (the folder holds more). */
  capped: boolean;
  /** Seen but not to be indexed, by reason (`folder.link-outside`, `folder.too-large`, …). */
  skipped: Partial<Record<string, number>>;
  /** Subfolders that cannot be read. */
  unreadable: string[];
  /** The Obsidian vault name when the folder is a vault. */
  obsidianVault: string | null;
}

/** A local-folder connection's live state, for its card. */
export interface FolderState {
  /** The watcher is running: saved files are indexed within seconds. */
  watching: boolean;
  /** Why watching is not running although it is turned on (e.g. the system's watch limit). */
  watchError: string | null;
  /** The Obsidian vault name when the folder is a vault ("Open in Obsidian"). */
  obsidianVault: string | null;
}

/** none: never signed in; pending: a browser sign-in is waiting; expired: the platform refused the stored authorisation. */
export type UserAuthState = 'none' | 'pending' | 'authorized' | 'expired';

/**
 * A success from core (a passing connection test): `message` is core's English sentence (the CLI,
 * logs), with the names and counts it found; `code` and `params` let the UI say it in its own
 * language, as errors are (messages-*.ts `success.*`).
 */
export interface CoreMessage {
  message: string;
  /** e.g. "connection.ok". */
  code: string;
  params: Record<string, string | number>;
}

export interface NewConnection {
  platform: Platform;
  name: string;
  mode: ConnectionMode;
  config: Record<string, string | number | boolean>;
  /** Secret credential fields (app secret, token, API key). Stored in the secret store only. */
  secrets: Record<string, string>;
}

/** An edit of a saved connection (`connections.update`); its index and history stay. */
export interface ConnectionUpdate {
  id: string;
  name?: string;
  /** Non-secret fields to change; "" clears an optional one. Fields left out keep their value. */
  config?: Record<string, string | number | boolean>;
  /** Secret fields to replace; a field left out or "" keeps the stored value (never sent back). */
  secrets?: Record<string, string>;
  /** Optional secret fields to remove from the secret store (a required one is refused). */
  clearSecrets?: string[];
}

export type SyncPhase = 'listing' | 'detecting' | 'fetching' | 'embedding' | 'writing' | 'deleting' | 'done';

export interface SyncCounters {
  seen: number;
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
  /** Listed documents the platform's request limit kept this run from fetching: the next sync takes them. Never failures. */
  deferred: number;
  /**
   * Seen but deliberately not indexed: kinds Cairn cannot turn into text (e.g. Feishu mind notes,
   * counted per kind in the run's `skippedKinds`) and files left out on purpose (a link leaving a
   * local folder, a scanned PDF, a file over the size limit; listed in `errors` with a `reason`).
   */
  skipped: number;
  chunksEmbedded: number;
  embedderCalls: number;
  embeddingTokens: number;
}

export interface DocumentError {
  externalId: string;
  title: string;
  code: string;
  message: string;
  /**
   * A finer, stable reason the UI groups and translates (e.g. `folder.no-text`: "3 PDFs have no
   * text: scanned images"; `folder.link-outside`; `listing.incomplete`). Absent for plain failures.
   */
  reason?: string;
  /** True when the document was skipped on purpose rather than failed (counted in `counters.skipped`). */
  skipped?: boolean;
  /** The listed revision this failure happened at: an unchanged file is not tried again until it changes. */
  revision?: string | null;
}

/** A listed item a run did not index that is not a failure: what it is and why. */
export interface DocumentNote {
  externalId: string;
  title: string;
  /** deferred: the platform said stop (request limit or quota) before it was fetched; skipped: Cairn cannot read its kind. */
  status: 'deferred' | 'skipped';
  /** The platform's kind of item, e.g. "sheet", "mindnote", "slides", "file"; set for skipped items. */
  kind?: string;
  reason: string;
}

export interface SyncProgress {
  connectionId: string;
  runId: number;
  phase: SyncPhase;
  documentsDone: number;
  documentsTotal: number;
  chunksWritten: number;
  errors: number;
}

export type SyncRunStatus = 'running' | 'succeeded' | 'partial' | 'failed' | 'cancelled';

export interface SyncRunView {
  id: number;
  connectionId: string;
  status: SyncRunStatus;
  startedAt: string;
  finishedAt: string | null;
  counters: SyncCounters;
  errors: DocumentError[];
  /** Deferred and skipped items (bounded like `errors`). */
  notes: DocumentNote[];
  /** Skipped items per kind, e.g. `{ mindnote: 3, slides: 1 }` (all of them, unbounded counts). */
  skippedKinds: Record<string, number>;
  error: AppErrorData | null;
}

export interface SearchRequest {
  query: string;
  /** @default 10 */
  k?: number;
  /** Restrict to these connections; all when absent (an empty list searches none). Same as `filters.connectionIds`. */
  connectionIds?: string[];
  /** Narrows the search before ranking: the top k is the best among the matching documents. */
  filters?: SearchFilters;
}

/**
 * What a search may return. Within a field any listed value matches; across fields all must
 * (connection AND platform AND knowledge base AND tag AND date). An absent or empty list does
 * not filter. Applied inside both index channels (docs/DESIGN.md, "Search filters").
 */
export interface SearchFilters {
  connectionIds?: string[];
  platforms?: Platform[];
  /** Knowledge base (space, wiki, book, folder) names as the index shows them, matched exactly. */
  knowledgeBases?: string[];
  /** Front matter tags, matched without regard to case and a leading "#" (Obsidian's rule). */
  tags?: string[];
  /**
   * Modified at or after this instant (ISO 8601; a bare date is UTC midnight). The platform's or
   * file's own modified time; the time it was indexed for a source that reports none (Tencent IMA).
   */
  modifiedAfter?: string;
  /** Modified before this instant (exclusive; ISO 8601 like `modifiedAfter`). */
  modifiedBefore?: string;
}

/** The filters a live platform search cannot apply (its results carry no date or tags). */
export type LiveFilterGap = 'modified' | 'tags';

/** What the filter bar offers: every value in the index with its document count, cheap to compute. */
export interface SearchFacets {
  /** Every connection; `documents` counts the indexed ones (0 for a direct-mode connection: searched live). */
  connections: { id: string; name: string; platform: Platform; mode: ConnectionMode; documents: number }[];
  platforms: { platform: Platform; documents: number }[];
  /** By name; `connectionIds` says where a name occurs (two connections may share one). */
  knowledgeBases: { name: string; documents: number; connectionIds: string[] }[];
  tags: { tag: string; documents: number }[];
  /** The oldest and newest modified time among indexed documents; null for an empty index. */
  modified: { oldest: string; newest: string } | null;
}

/**
 * Where a passage sits in its original file, for the source card ("p. 12", "slide 3", "Sheet1,
 * rows 2–40") and for "Open original" (a PDF opens at `page` where the viewer supports it).
 * Pages, slides and rows are 1-based; the `end*`/`lastRow` fields are set when a passage spans several.
 */
export type ChunkLocation =
  | { kind: 'page'; page: number; endPage?: number }
  | { kind: 'slide'; slide: number; endSlide?: number }
  | { kind: 'rows'; sheet: string; firstRow: number; lastRow: number };

export interface SearchHit {
  /** Stable key: `chunk:<id>` for local hits, `direct:<connectionId>:<externalId>` for live ones. */
  key: string;
  source: 'index' | 'direct';
  connectionId: string;
  platform: Platform;
  documentId: number | null;
  externalId: string;
  title: string;
  knowledgeBase: string;
  url: string | null;
  headingPath: string;
  text: string;
  charStart: number | null;
  charEnd: number | null;
  /** Page, slide or rows of the original file (PDF, PPTX, XLSX/CSV); absent or null when the format has none. */
  location?: ChunkLocation | null;
  score: number;
  /** 1-based rank in each channel that found it, for "why did this rank"; `rerank` after a reranker reordered the candidates. */
  ranks: { vector?: number; keyword?: number; direct?: number; rerank?: number };
}

/** One document in the results, ranked by its best passage (see docs/decisions for why core groups). */
export interface SearchDocument {
  /** The document's best-ranked passage; a live (direct) hit is a document of one passage. */
  best: SearchHit;
  /** Its other matching passages, best first (at most two: core keeps three chunks per document). */
  more: SearchHit[];
}

export interface SearchResponse {
  /** The top-k passages (chunks), several per document possible: what chat retrieval and the eval use. */
  hits: SearchHit[];
  /** The top-k documents, one entry per document: what people are shown (app, CLI). */
  documents: SearchDocument[];
  /** Direct-mode connections that failed or timed out; the local results still stand. */
  warnings: { connectionId: string; error: AppErrorData }[];
  /**
   * Direct-mode connections not asked because a filter in the request cannot be applied to their
   * live results (modified date, tags): left out rather than shown unfiltered. Absent when none.
   */
  liveSkipped?: { connectionId: string; filters: LiveFilterGap[] }[];
  tookMs: number;
  /** What the local reranker did; absent when none is in use (none installed, or turned off). */
  rerank?: RerankInfo;
}

export interface RerankInfo {
  status: 'applied' | 'skipped';
  /** The reranker's catalogue id. */
  model: string;
  /** Why it was skipped: over the time budget, still loading, fewer than 2 candidates, or it failed. */
  reason: 'budget' | 'timeout' | 'loading' | 'too-few' | 'error' | null;
  /** Candidates reordered (the fused top-30, fewer when only fewer fit the budget). */
  depth: number;
  tookMs: number;
  /** The cost estimated before running (for a skip: of the full depth). */
  estimatedMs: number | null;
}

/** One chunk of an indexed document: where it sits in the document's Markdown. */
export interface DocumentChunkView {
  id: number;
  /** 0-based position in the document. */
  ord: number;
  headingPath: string;
  /** Offsets into `DocumentView.markdown`: `markdown.slice(charStart, charEnd)` is the chunk's text. */
  charStart: number;
  charEnd: number;
}

/** A document's front matter as the index keeps it (searchable, never body text). */
export interface DocumentMetadataView {
  title?: string;
  tags?: string[];
  aliases?: string[];
  summary?: string;
}

/** A heading (or title) from an indexed document, offered as a search to try or a question to ask. */
export interface DocumentTopic {
  text: string;
  documentId: number;
  /** The document it comes from. */
  title: string;
}

/** A document as the index holds it (`documents.get`): the in-app preview and MCP's fetch read it. */
export interface DocumentView {
  id: number;
  connectionId: string;
  externalId: string;
  title: string;
  platform: Platform;
  knowledgeBase: string;
  url: string | null;
  /** When the platform (or the file system) last changed it, when known. */
  updatedAt: string | null;
  indexedAt: string;
  /**
   * The Markdown the index holds (what was chunked and searched: site-generator markup and front
   * matter removed, core/text/clean-markdown.ts), not the platform's live copy.
   */
  markdown: string;
  /** Front matter metadata (tags for a tag filter, aliases, summary); {} when the document had none. */
  metadata: DocumentMetadataView;
  /** In document order. */
  chunks: DocumentChunkView[];
}

/** A document in a listing (`documents.list`): what MCP resources and listings show, without its text. */
export type DocumentSummary = Omit<DocumentView, 'markdown' | 'chunks'> & { chunkCount: number };

export interface DocumentPage {
  documents: DocumentSummary[];
  /** How many documents match in all (the page is `documents`). */
  total: number;
}

export interface SourceCard {
  /** The [n] the answer uses. */
  n: number;
  title: string;
  platform: Platform;
  knowledgeBase: string;
  connectionId: string;
  documentId: number | null;
  externalId: string;
  url: string | null;
  headingPath: string;
  /** The paragraph shown on the card. */
  paragraph: string;
  charStart: number | null;
  charEnd: number | null;
  /** Page, slide or rows of the original file; absent or null when the format has none. */
  location?: ChunkLocation | null;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ChatAnswer {
  conversationId: string;
  messageId: string;
  text: string;
  /** Sources actually cited by a valid [n] in the text. */
  citations: SourceCard[];
  /** All sources given to the model (or used by the extractive answer). */
  sources: SourceCard[];
  /** Markers that pointed to no source and were removed. */
  droppedMarkers: number[];
  mode: 'model' | 'extractive';
  incomplete: boolean;
  error: AppErrorData | null;
  usage: TokenUsage | null;
}

export interface ChatMessageView {
  id: string;
  role: 'user' | 'assistant';
  /** For an answer still running (`answer` null), the text streamed so far. */
  text: string;
  createdAt: string;
  answer: ChatAnswer | null;
}

export interface ConversationView {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

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

export interface ReindexStatus {
  running: boolean;
  done: number;
  total: number;
  /** The embedding space that serves search now, e.g. "builtin/cairn-hash-v1/1024". */
  activeSpace: string;
  pendingSpace: string | null;
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

export interface StatusSnapshot {
  version: string;
  dataDir: string;
  secretStorage: SecretStorageView;
  connections: ConnectionView[];
  settings: SettingsView;
  reindex: ReindexStatus;
  /** Running syncs' latest progress, keyed by connection id. */
  syncing: Record<string, SyncProgress>;
}

/** How an AI tool starts `cairn mcp` for this data directory, and ready-to-paste configurations. */
export interface McpSetup {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** JSON for Claude Desktop (claude_desktop_config.json) and Cursor (~/.cursor/mcp.json): `mcpServers`. */
  json: string;
  /** Where Claude Desktop keeps that file on this OS. */
  claudeConfigPath: string;
}

/** What the Settings "Test" saw: `cairn mcp` started as an AI tool starts it, through the official MCP client. */
export interface McpTestReport {
  tools: string[];
  query: string;
  results: number;
  firstTitle: string | null;
  tookMs: number;
}

/** A catalogued local model as the settings screen and `cairn models list` show it. */
export interface ModelView {
  id: string;
  kind: 'embedder' | 'reranker';
  name: string;
  summary: { en: string; zh: string };
  licence: string;
  languages: string[];
  /** Vector width (embedders). */
  dimensions: number | null;
  /** Bytes to download on this machine; null when a file's size is not known in advance. */
  downloadBytes: number | null;
  recommended: 'default' | 'multilingual' | 'best' | 'fast' | 'slow-best' | null;
  /** Measured here (2 shared cores) on a random-weight model of the same architecture. */
  speed: { cpuMsPerChunk: number | null; cpuMsPerPair: number | null };
  /** Published quality with sources (not measured here). */
  quality: { metric: string; value: string; source: string }[];
  /** False when the catalogue lacks a pinned revision or a checksum: import only. */
  downloadable: boolean;
  unverifiedFiles: string[];
  /** Set when this machine cannot run it (e.g. no ONNX runtime build). */
  unavailableReason: string | null;
  installed: { at: string; bytes: number; verified: boolean; origin: 'download' | 'import' } | null;
  download: ModelDownloadView | null;
  /** The active embedding model, or the reranker searches use. */
  inUse: boolean;
  /** Embedders: what switching to it would cost for the current index (estimates). */
  reembed: { chunks: number; seconds: number; vectorBytes: number } | null;
}

export interface ModelDownloadView {
  state: 'running' | 'failed' | 'cancelled';
  phase: 'downloading' | 'verifying' | 'installing';
  doneBytes: number;
  totalBytes: number | null;
  error: AppErrorData | null;
}

export interface ModelsSnapshot {
  models: ModelView[];
  /** Where models are installed. */
  dir: string;
  /** The download source in effect, and whether CAIRN_MODEL_MIRROR overrides the setting. */
  source: { kind: ModelSourceKind; url: string; fromEnv: boolean };
  cores: number;
}

export interface ModelProgress {
  id: string;
  phase: 'downloading' | 'verifying' | 'installing';
  doneBytes: number;
  totalBytes: number | null;
}

/** Ollama on this machine: the models it has that embed (capability "embedding"), with their vector width. */
export interface OllamaDetection {
  baseUrl: string;
  reachable: boolean;
  models: { name: string; dimensions: number }[];
}
