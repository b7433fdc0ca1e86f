/**
 * What a worker thread can build, by name. A registry rather than "import this path" because the
 * Electron build bundles the worker: every target must be reachable from this file by a static
 * import for the bundler to include it. Add an in-process embedder here to move it off the main
 * thread (WorkerHost + WorkerEmbedder serve any of them through the same Embedder interface).
 */
import type { WorkerTarget } from './worker-protocol';

export const WORKER_FACTORIES: Record<string, (options: unknown) => Promise<WorkerTarget>> = {
  /** An installed ONNX model (inference/local-model.ts): embed, rerank, countTokens. */
  'local-onnx': async (options) => {
    const { createLocalModelTarget } = await import('./local-model-target');
    return createLocalModelTarget(options);
  },
  /**
   * Keyword analysis (analyzer.ts toSearchText) for a large sync (sync/keyword-analysis.ts), so
   * the thread that writes to PGlite does not also analyse every chunk.
   */
  'keyword-analysis': async () => {
    const { toSearchText } = await import('../text/analyzer');
    const { CairnError } = await import('../errors');
    return {
      analyze: async (texts: string[], shouldStop: () => boolean) => {
        const out: string[] = [];
        for (const text of texts) {
          if (shouldStop()) throw new CairnError('CANCELLED', 'Cancelled.');
          out.push(toSearchText(text));
        }
        return out;
      },
    };
  },
};
