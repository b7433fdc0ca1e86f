/** The worker-thread face of a LocalModel (registered as 'local-onnx' in embedding/worker-factories.ts). */
import type { WorkerTarget } from '../../embedding/worker-protocol';
import { createLocalModel } from './local-model';
import type { LocalModelSpec } from './runtime-spec';

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
