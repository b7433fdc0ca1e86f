/**
 * The embedders a worker thread can host, by kind. A worker cannot receive an object, only data,
 * so each kind is a factory from structured-cloneable options to an in-process Embedder built
 * inside the worker. Add a kind here to run another embedder (an ONNX model, say) off the main
 * thread; nothing else changes.
 */
import { BuiltinEmbedder } from '../builtin-embedder';
import type { Embedder } from '../embedder';

export type WorkerEmbedderFactory = (options: unknown) => Embedder | Promise<Embedder>;

function dimensionsOf(options: unknown): number | undefined {
  const value = (options as { dimensions?: unknown } | undefined)?.dimensions;
  return typeof value === 'number' ? value : undefined;
}

export const WORKER_EMBEDDERS: Record<string, WorkerEmbedderFactory> = {
  builtin: (options) => new BuiltinEmbedder(dimensionsOf(options)),
};
