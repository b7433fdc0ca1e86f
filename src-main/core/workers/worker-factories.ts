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
   * The built-in embedder ({dimensions}), for a large sync (sync/offload-embedder.ts).
   * `embedWithKeywords` also returns each input's keyword text from the same analysis, so the
   * main thread does not analyse the text a second time.
   */
  builtin: async (options) => {
    const { BuiltinEmbedder } = await import('../embedding/builtin-embedder');
    const dimensions = (options as { dimensions?: unknown } | undefined)?.dimensions;
    const embedder = new BuiltinEmbedder(typeof dimensions === 'number' ? dimensions : undefined);
    return {
      embed: async (texts: string[], kind: 'document' | 'query') =>
        (await embedder.embed(texts, { kind })).vectors,
      embedWithKeywords: async (texts: string[], kind: 'document' | 'query') => {
        const { vectors, keywordTexts } = await embedder.embed(texts, { kind, keywordTexts: true });
        return { vectors, keywordTexts };
      },
    };
  },
};
