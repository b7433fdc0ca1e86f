/**
 * An Embedder whose work runs in worker threads (WorkerHost), for any target with
 * `embed(texts, kind)`: the same interface as an in-process embedder, off the main thread.
 *
 * Two lanes: documents (indexing, re-embedding) and queries. With a separate query lane a search
 * never waits behind an indexing batch; where a second copy of the model costs too much memory,
 * both lanes share one worker, queries go first in its queue, and document work is sent in
 * slices so a query waits for one slice at most.
 */
import type { EmbedOptions, EmbedResult, Embedder, EmbeddingSpace } from '../embedding/embedder';
import type { WorkerHost } from './worker-host';

export interface WorkerEmbedderOptions {
  space: EmbeddingSpace;
  documents: WorkerHost;
  /** @default `documents` (one shared worker) */
  queries?: WorkerHost;
  /** Texts per call to the document lane. @default 8 */
  slice?: number;
  /**
   * The target also has `embedWithKeywords(texts, kind)` → {vectors, keywordTexts} (the built-in
   * embedder's factory), used when a caller asks for keyword texts (EmbedOptions.keywordTexts).
   */
  keywordTexts?: boolean;
  /** Computes locally (no network round trip to batch for): Embedder.inProcess. @default false */
  inProcess?: boolean;
}

/** Priorities in a shared worker's queue: lower runs first. */
export const QUERY_PRIORITY = 0;
export const DOCUMENT_PRIORITY = 1;

export class WorkerEmbedder implements Embedder {
  readonly space: EmbeddingSpace;
  readonly inProcess: boolean;

  constructor(private readonly options: WorkerEmbedderOptions) {
    this.space = options.space;
    this.inProcess = options.inProcess ?? false;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<EmbedResult> {
    const kind = options.kind ?? 'document';
    if (texts.length === 0) return { vectors: [], tokens: 0, calls: 0 };
    if (options.keywordTexts && this.options.keywordTexts && kind === 'document')
      return this.embedWithKeywords(texts, options.signal);
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

  private async embedWithKeywords(texts: string[], signal?: AbortSignal): Promise<EmbedResult> {
    const slice = Math.max(1, this.options.slice ?? 8);
    const result: EmbedResult = { vectors: [], tokens: 0, calls: 1, keywordTexts: [] };
    for (let start = 0; start < texts.length; start += slice) {
      const part = await this.options.documents.call<{ vectors: Float32Array[]; keywordTexts: string[] }>(
        'embedWithKeywords',
        [texts.slice(start, start + slice), 'document'],
        { priority: DOCUMENT_PRIORITY, signal },
      );
      result.vectors.push(...part.vectors);
      result.keywordTexts!.push(...part.keywordTexts);
    }
    return result;
  }
}
