/**
 * Batches embedding inputs ACROSS documents (a folder of short notes would otherwise make one
 * provider call per note), while each document still gets its own vectors back and its own
 * failure: when a combined batch fails, its documents are retried one by one so a single bad
 * input fails only its own document.
 */
import PQueue from 'p-queue';
import type { Embedder } from '../embedding/embedder';
import { CairnError, isAbortError, throwIfAborted } from '../errors';

export interface EmbedBatcherOptions {
  /** Inputs per embedder call. @default 64 */
  maxBatch?: number;
  /**
   * How long a partial batch waits for more documents. @default 15, or 0 for an in-process
   * embedder: waiting buys a remote provider fewer requests, but only leaves the CPU idle for a
   * local one (measured: ~20% of a 10k-chunk sync's wall time, docs/decisions/indexing-throughput.md)
   */
  maxWaitMs?: number;
  /** Embedder calls in flight. @default 2 */
  concurrency?: number;
  signal?: AbortSignal;
}

/** One document's vectors, and its inputs' keyword texts when the embedder had them at hand. */
export interface Embedded {
  vectors: Float32Array[];
  keywordTexts?: string[];
}

interface Waiting {
  texts: string[];
  resolve: (embedded: Embedded) => void;
  reject: (error: unknown) => void;
}

export class EmbedBatcher {
  calls = 0;
  tokens = 0;
  private waiting: Waiting[] = [];
  private waitingTexts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly queue: PQueue;
  private readonly maxBatch: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly embedder: Embedder,
    private readonly options: EmbedBatcherOptions = {},
  ) {
    this.maxBatch = Math.max(1, options.maxBatch ?? 64);
    this.maxWaitMs = options.maxWaitMs ?? (embedder.inProcess ? 0 : 15);
    this.queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 2) });
  }

  /** The vectors of one document's inputs, in order (and their keyword texts, see EmbedResult). */
  embed(texts: string[]): Promise<Embedded> {
    if (texts.length === 0) return Promise.resolve({ vectors: [] });
    return new Promise((resolve, reject) => {
      this.waiting.push({ texts, resolve, reject });
      this.waitingTexts += texts.length;
      if (this.waitingTexts >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  /** Sends everything waiting now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const group = this.waiting;
    this.waiting = [];
    this.waitingTexts = 0;
    if (group.length > 0) void this.queue.add(() => this.run(group)).catch(() => {});
  }

  private async run(group: Waiting[]): Promise<void> {
    try {
      const all = await this.embedAll(group.flatMap((w) => w.texts));
      let offset = 0;
      for (const w of group) {
        const end = offset + w.texts.length;
        w.resolve({
          vectors: all.vectors.slice(offset, end),
          ...(all.keywordTexts ? { keywordTexts: all.keywordTexts.slice(offset, end) } : {}),
        });
        offset = end;
      }
    } catch (error) {
      if (group.length === 1 || isAbortError(error) || this.options.signal?.aborted) {
        for (const w of group) w.reject(error);
        return;
      }
      for (const w of group) {
        try {
          w.resolve(await this.embedAll(w.texts));
        } catch (single) {
          w.reject(single);
        }
      }
    }
  }

  /** Splits into calls of at most maxBatch inputs (a 5 MB document has thousands of chunks). */
  private async embedAll(texts: string[]): Promise<Embedded> {
    const vectors: Float32Array[] = [];
    let keywordTexts: string[] | undefined = [];
    for (let start = 0; start < texts.length; start += this.maxBatch) {
      throwIfAborted(this.options.signal);
      const slice = texts.slice(start, start + this.maxBatch);
      const result = await this.embedder.embed(slice, {
        kind: 'document',
        signal: this.options.signal,
        keywordTexts: true,
      });
      // A remote provider reports its HTTP requests; an in-process embedder counts as one call per batch.
      this.calls += Math.max(1, result.calls);
      this.tokens += result.tokens;
      if (result.vectors.length !== slice.length)
        throw new CairnError(
          'EMBEDDING_FAILED',
          `The embedder returned ${result.vectors.length} vectors for ${slice.length} inputs.`,
        );
      vectors.push(...result.vectors);
      if (result.keywordTexts?.length === slice.length) keywordTexts?.push(...result.keywordTexts);
      else keywordTexts = undefined;
    }
    return keywordTexts ? { vectors, keywordTexts } : { vectors };
  }
}
