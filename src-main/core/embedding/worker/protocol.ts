/**
 * Messages between a WorkerEmbedder (host, any thread) and its worker (embedder-worker.ts).
 * Texts go in by structured clone; vectors come back as ONE transferred ArrayBuffer of
 * `count × dimensions` float32s, so no copy is made on the way out.
 */
import type { AppErrorData } from '@shared/errors';
import type { EmbeddingSpace } from '../embedder';

/**
 * What the worker builds: a kind registered in worker-embedders.ts (bundled with the app), or the
 * named export of a module (a file URL; tests and extensions), called with `options`, which must
 * be structured-cloneable.
 */
export type WorkerEmbedderSpec =
  { kind: string; options?: unknown } | { module: string; exportName: string; options?: unknown };

/** The worker's `workerData`. */
export interface WorkerInit {
  spec: WorkerEmbedderSpec;
}

export type HostMessage =
  | { type: 'embed'; id: number; texts: string[]; kind: 'document' | 'query'; keywordTexts: boolean }
  | { type: 'abort'; id: number };

export type WorkerMessage =
  | { type: 'ready'; space: EmbeddingSpace }
  | { type: 'failed'; error: AppErrorData }
  | {
      type: 'vectors';
      id: number;
      buffer: ArrayBuffer;
      count: number;
      tokens: number;
      calls: number;
      keywordTexts?: string[];
    }
  | { type: 'error'; id: number; error: AppErrorData };
