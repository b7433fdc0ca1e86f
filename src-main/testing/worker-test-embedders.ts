/**
 * Embedders for the worker-embedder tests, loaded by module URL inside a worker thread (so they
 * must be plain exported factories over structured-cloneable options).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { CairnError, throwIfAborted } from '../core/errors';
import type { EmbedResult, Embedder } from '../core/embedding/embedder';

/** Vectors [text length, index in the call]; sleeps `delayMs` per text, checking the signal. */
export function slowEmbedder(options: { delayMs: number }): Embedder {
  return {
    space: { provider: 'test', model: 'slow', dimensions: 2 },
    inProcess: true,
    async embed(texts, embedOptions): Promise<EmbedResult> {
      const vectors: Float32Array[] = [];
      for (const [index, text] of texts.entries()) {
        await sleep(options.delayMs);
        throwIfAborted(embedOptions?.signal);
        vectors.push(Float32Array.from([text.length, index]));
      }
      return { vectors, tokens: texts.length, calls: 1 };
    },
  };
}

/** Fails every text containing "bad" with EMBEDDING_FAILED; ends its thread on "crash". */
export function fragileEmbedder(): Embedder {
  return {
    space: { provider: 'test', model: 'fragile', dimensions: 1 },
    async embed(texts): Promise<EmbedResult> {
      if (texts.includes('crash')) process.exit(3);
      if (texts.some((text) => text.includes('bad')))
        throw new CairnError('EMBEDDING_FAILED', 'The test embedder refuses "bad".');
      return { vectors: texts.map((text) => Float32Array.from([text.length])), tokens: 0, calls: 1 };
    },
  };
}

export function unbuildableEmbedder(): Embedder {
  throw new CairnError('INVALID_ARGUMENT', 'This test embedder cannot be built.');
}
