/** The worker-thread face of a LocalModel (registered as 'local-onnx' in worker-factories.ts). */
import type { WorkerTarget } from './worker-protocol';
import { createLocalModel } from '../inference/local-model';
import type { LocalModelSpec } from '../inference/runtime-spec';

export async function createLocalModelTarget(options: unknown): Promise<WorkerTarget> {
  const model = await createLocalModel(options as LocalModelSpec);
  return {
    embed: (texts: string[], kind: 'document' | 'query', shouldStop?: () => boolean) =>
      model.embed(texts, kind, shouldStop),
    rerank: (query: string, passages: string[], shouldStop?: () => boolean) =>
      model.rerank(query, passages, shouldStop),
    countTokens: async (texts: string[]) => model.countTokens(texts),
    dispose: () => model.dispose(),
  };
}
