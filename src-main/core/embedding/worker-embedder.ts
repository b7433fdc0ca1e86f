/**
 * An Embedder whose work runs in worker threads (WorkerHost), for any target with
 * `embed(texts, kind)`: the same interface as an in-process embedder, off the main thread.
 *
 * Two lanes: documents (indexing, re-embedding) and queries. With a separate query lane a search
 * never waits behind an indexing batch; where a second copy of the model costs too much memory,
 * both lanes share one worker, queries go first in its queue, and document work is sent in
 * slices so a query waits for one slice at most.
 */
import type { EmbedResult, Embedder, EmbeddingSpace } from './embedder';
import type { WorkerHost } from './worker-host';

export interface WorkerEmbedderOptions {
  space: EmbeddingSpace;
  documents: WorkerHost;
  /** @default `documents` (one shared worker) */
  queries?: WorkerHost;
  /** Texts per call to the document lane. @default 8 */
  slice?: number;
}

/** Priorities in a shared worker's queue: lower runs first. */
export const QUERY_PRIORITY = 0;
export const DOCUMENT_PRIORITY = 1;

export class WorkerEmbedder implements Embedder {
  readonly space: EmbeddingSpace;
  readonly inProcess = false;

  constructor(private readonly options: WorkerEmbedderOptions) {
    this.space = options.space;
  }

  async embed(
    texts: string[],
    options: { kind?: 'document' | 'query'; signal?: AbortSignal } = {},
  ): Promise<EmbedResult> {
    const kind = options.kind ?? 'document';
    if (texts.length === 0) return { vectors: [], tokens: 0, calls: 0 };
    if (kind === 'query') {
      const host = this.options.queries ?? this.options.documents;
      const vectors = await host.call<Float32Array[]>('embed', [texts, kind], {
        priority: QUERY_PRIORITY,
        signal: options.signal,
      });
      return { vectors, tokens: 0, calls: 1 };
    }
    const slice = Math.max(1, this.options.slice ?? 8);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += slice) {
      vectors.push(
        ...(await this.options.documents.call<Float32Array[]>(
          'embed',
          [texts.slice(start, start + slice), kind],
          {
            priority: DOCUMENT_PRIORITY,
            signal: options.signal,
          },
        )),
      );
    }
    return { vectors, tokens: 0, calls: 1 };
  }
}
