/**
 * Wrappers that let the benchmark see inside a real sync without changing it: a chunker, an
 * embedder and a document store that add up the time spent in each stage, the store also copying
 * every written vector to a sink (for the exact brute-force reference).
 *
 * A stage's time is the wall time during which at least one call of it was in flight (the union
 * of its calls' intervals), so overlapping calls (four documents written at once, two remote
 * requests) are not counted twice. Stages can still overlap each other: writing one document
 * while a remote request is out, for instance.
 */
import { chunkMarkdown, type Chunk } from '../src-main/core/chunking/chunker';
import type {
  EmbedOptions,
  EmbedResult,
  Embedder,
  EmbeddingSpace,
} from '../src-main/core/embedding/embedder';
import type { DocumentRef } from '../src-main/core/connectors/connector';
import type {
  DocumentStore,
  DocumentToWrite,
  StoredDocumentState,
} from '../src-main/core/index/document-store';

type Stage = 'chunk' | 'embed' | 'write' | 'optimize';

export class StageClock {
  readonly ms: Record<Stage, number> = { chunk: 0, embed: 0, write: 0, optimize: 0 };
  embedRequests = 0;
  private readonly inFlight: Record<Stage, number> = { chunk: 0, embed: 0, write: 0, optimize: 0 };
  private readonly since: Record<Stage, number> = { chunk: 0, embed: 0, write: 0, optimize: 0 };

  /** @param now the clock, injectable for tests. @default performance.now */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The stages with a call in flight now (for the memory trace). */
  busy(): Stage[] {
    return (Object.keys(this.inFlight) as Stage[]).filter((stage) => this.inFlight[stage] > 0);
  }

  reset(): void {
    for (const key of Object.keys(this.ms) as Stage[]) this.ms[key] = 0;
    this.embedRequests = 0;
  }

  /** Marks a call of `stage` as started; the returned function marks it finished. */
  start(stage: Stage): () => void {
    if (this.inFlight[stage]++ === 0) this.since[stage] = this.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.inFlight[stage] === 0) this.ms[stage] += this.now() - this.since[stage];
    };
  }

  async time<T>(stage: Stage, work: () => Promise<T>): Promise<T> {
    const stop = this.start(stage);
    try {
      return await work();
    } finally {
      stop();
    }
  }
}

export function timedChunker(clock: StageClock): (markdown: string) => Chunk[] {
  return function chunk(markdown: string): Chunk[] {
    const stop = clock.start('chunk');
    try {
      return chunkMarkdown(markdown);
    } finally {
      stop();
    }
  };
}

export class TimedEmbedder implements Embedder {
  constructor(
    private readonly inner: Embedder,
    private readonly clock: StageClock,
  ) {}

  get space(): EmbeddingSpace {
    return this.inner.space;
  }

  get inProcess(): boolean | undefined {
    return this.inner.inProcess;
  }

  async embed(texts: string[], options?: EmbedOptions): Promise<EmbedResult> {
    this.clock.embedRequests += 1;
    return this.clock.time('embed', () => this.inner.embed(texts, options));
  }
}

export type VectorSink = (
  documentId: number,
  chunks: readonly Chunk[],
  vectors: readonly Float32Array[],
) => void;

export class TimedStore implements DocumentStore {
  /** Runs before each optimize(): the bench disposes its embedding worker there, as the engine does. */
  beforeOptimize: (() => Promise<void>) | null = null;

  constructor(
    private readonly inner: DocumentStore,
    private readonly clock: StageClock,
    private readonly sink: VectorSink | null = null,
  ) {}

  listStates(connectionId: string): Promise<Map<string, StoredDocumentState>> {
    return this.inner.listStates(connectionId);
  }

  async writeDocument(doc: DocumentToWrite): Promise<{ documentId: number }> {
    const written = await this.clock.time('write', () => this.inner.writeDocument(doc));
    this.sink?.(written.documentId, doc.chunks, doc.vectors);
    return written;
  }

  async writeDocuments(docs: DocumentToWrite[]): Promise<{ documentId: number }[]> {
    const written = await this.clock.time('write', () => this.inner.writeDocuments(docs));
    docs.forEach((doc, index) => this.sink?.(written[index]!.documentId, doc.chunks, doc.vectors));
    return written;
  }

  touchDocument(connectionId: string, ref: DocumentRef, title: string): Promise<void> {
    return this.inner.touchDocument(connectionId, ref, title);
  }

  deleteDocuments(connectionId: string, externalIds: string[]): Promise<number> {
    return this.inner.deleteDocuments(connectionId, externalIds);
  }

  counts(connectionId: string): Promise<{ documents: number; chunks: number }> {
    return this.inner.counts(connectionId);
  }

  async optimize(signal?: AbortSignal): Promise<void> {
    await this.beforeOptimize?.();
    await this.clock.time('optimize', async () => this.inner.optimize?.(signal));
  }

  async prepareBulkWrite(space: EmbeddingSpace, plannedDocuments: number): Promise<void> {
    await this.inner.prepareBulkWrite?.(space, plannedDocuments);
  }
}
