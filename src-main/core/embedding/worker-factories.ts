/**
 * What a worker thread can build, by name. A registry rather than "import this path" because the
 * Electron build bundles the worker: every target must be reachable from this file by a static
 * import for the bundler to include it. Add an in-process embedder here to move it off the main
 * thread (WorkerHost + WorkerEmbedder serve any of them through the same Embedder interface).
 */
import type { WorkerTarget } from './worker-protocol';

export const WORKER_FACTORIES: Record<string, (options: unknown) => Promise<WorkerTarget>> = {
  /** An installed ONNX model (models/runtime/local-model.ts): embed, rerank, countTokens. */
  'local-onnx': async (options) => {
    const { createLocalModelTarget } = await import('../models/runtime/local-model-target');
    return createLocalModelTarget(options);
  },
};
