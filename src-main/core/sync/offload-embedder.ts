/**
 * A large sync embeds in a worker thread. PGlite writes on the thread that owns it, and an
 * in-process embedder (the built-in one: hashing plus ICU analysis, ~40% of a sync's CPU) would
 * take turns with it on that thread; in a worker both run at once on two cores, and the keyword
 * text comes back with the vectors, analysed there (docs/decisions/indexing-throughput.md).
 * Starting a worker costs a few hundred ms (it loads the embedder again), so small syncs stay
 * in-process, and anything that goes wrong starting it falls back to in-process too.
 */
import type { Embedder } from '../embedding/embedder';
import { WorkerEmbedder } from '../workers/worker-embedder';
import { WorkerHost } from '../workers/worker-host';
import type { Logger } from '../logging/logger';

/** Documents a sync must fetch before its embedder moves to a worker. */
export const DEFAULT_WORKER_MIN_DOCUMENTS = 250;

/**
 * Texts per message to the worker: the sync's batches (embed-batcher.ts, up to 64 texts) go in
 * one message each; nothing else waits in that worker's queue.
 */
const SLICE = 256;

export interface Offloaded {
  embedder: Embedder;
  dispose(): Promise<void>;
}

export async function offloadEmbedder(
  embedder: Embedder,
  documents: number,
  options: { minDocuments?: number; logger: Logger },
): Promise<Offloaded> {
  const recipe = embedder.workerRecipe;
  const inProcess: Offloaded = { embedder, dispose: async () => {} };
  if (!recipe || documents < (options.minDocuments ?? DEFAULT_WORKER_MIN_DOCUMENTS)) return inProcess;
  const host = new WorkerHost({ name: `${embedder.space.model} (sync)`, recipe });
  try {
    await host.whenReady();
  } catch (error) {
    await host.dispose();
    options.logger.warn('could not start an embedding worker; embedding in this thread', { error });
    return inProcess;
  }
  return {
    embedder: new WorkerEmbedder({
      space: embedder.space,
      documents: host,
      slice: SLICE,
      keywordTexts: recipe.factory === 'builtin',
      inProcess: embedder.inProcess ?? false,
    }),
    dispose: () => host.dispose(),
  };
}
