/** The local model catalogue (embedders, rerankers), downloads and Ollama detection. */
import type { AppErrorData } from '../errors';
import type { ModelSourceKind } from './settings';

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
