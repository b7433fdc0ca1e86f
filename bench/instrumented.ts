/**
 * Wrappers that let the benchmark see inside a real sync and the semantic index's build without
 * changing them: a chunker, an embedder and a document store that add up the time spent in each
 * stage.
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

  get batching(): Embedder['batching'] {
    return this.inner.batching;
  }

  async embed(texts: string[], options?: EmbedOptions): Promise<EmbedResult> {
    this.clock.embedRequests += 1;
    return this.clock.time('embed', () => this.inner.embed(texts, options));
  }
}

export class TimedStore implements DocumentStore {
  constructor(
    private readonly inner: DocumentStore,
    private readonly clock: StageClock,
  ) {}

  listStates(connectionId: string): Promise<Map<string, StoredDocumentState>> {
    return this.inner.listStates(connectionId);
  }

  writeDocument(doc: DocumentToWrite): Promise<{ documentId: number }> {
    return this.clock.time('write', () => this.inner.writeDocument(doc));
  }

  writeDocuments(docs: DocumentToWrite[]): Promise<{ documentId: number }[]> {
    return this.clock.time('write', () => this.inner.writeDocuments(docs));
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
    await this.clock.time('optimize', async () => this.inner.optimize?.(signal));
  }

  async prepareBulkWrite(plannedDocuments: number): Promise<void> {
    await this.inner.prepareBulkWrite?.(plannedDocuments);
  }

  async endBulkWrite(): Promise<void> {
    await this.inner.endBulkWrite?.();
  }
}
