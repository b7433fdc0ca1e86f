/**
 * Messages between a WorkerHost (main thread) and embedding-worker.ts. Plain data: they cross
 * by structured clone, vectors as transferred Float32Array buffers.
 */
import type { ErrorCode } from '@shared/errors';
import type { WorkerRecipe } from '../embedding/embedder';

/** Which factory in worker-factories.ts builds the worker's target (defined with the Embedder, which carries one). */
export type { WorkerRecipe };

export type HostMessage =
  | { type: 'init'; recipe: WorkerRecipe }
  | { type: 'call'; id: number; method: string; args: unknown[]; priority: number }
  | { type: 'cancel'; id: number };

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-failed'; error: WireError }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: WireError };

export interface WireError {
  code: ErrorCode;
  message: string;
  /** True when the call stopped because it was cancelled. */
  cancelled?: boolean;
}

/**
 * What a factory returns: methods the host may call by name. Each receives its arguments and,
 * last, `shouldStop()`, which long methods check between steps so a cancelled call stops early.
 */
export type WorkerTarget = Record<string, (...args: never[]) => Promise<unknown>> & {
  dispose?: () => Promise<void>;
};
