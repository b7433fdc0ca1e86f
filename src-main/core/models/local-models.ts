/**
 * Installed local models at work: an Embedder per embedding model and a Reranker per reranker,
 * each running in worker threads (workers/worker-host.ts) so the main thread stays free.
 *
 * Threads (docs/decisions/local-models.md): the indexing lane gets max(1, cores − 1) intra-op
 * threads (1 on 2 cores: two were slower under load), the query lane 1, the reranker up to 4.
 * A model that is not installed still has an Embedder, whose calls fail with the command that
 * installs it, so settings can name a model before its download finishes.
 */
import { availableParallelism } from 'node:os';
import type { Embedder, EmbedResult, EmbeddingSpace } from '../embedding/embedder';
import { WorkerEmbedder } from '../workers/worker-embedder';
import { WorkerHost } from '../workers/worker-host';
import { CairnError } from '../errors';
import type { Logger } from '../logging/logger';
import type { Reranker } from '../search/reranking';
import type { ModelCatalog, RerankerEntry } from './catalog';
import type { ModelStore } from './model-store';
import { embedderSpec, localSpace, rerankerSpec } from './runtime-specs';
import type { LocalModelSpec } from '../inference/runtime-spec';

export interface LocalModelsOptions {
  store: ModelStore;
  catalog: ModelCatalog;
  logger: Logger;
  /** @default os.availableParallelism() */
  cores?: number;
  /** Worker entry file (tests, bundles). @default WorkerHost's */
  workerEntry?: string;
}

export interface RerankerChoice {
  enabled: boolean;
  /** '' = the cheapest installed reranker that is on by default. */
  model: string;
}

class MissingModelEmbedder implements Embedder {
  constructor(
    readonly space: EmbeddingSpace,
    private readonly id: string,
  ) {}

  async embed(): Promise<EmbedResult> {
    throw new CairnError(
      'MODEL_NOT_FOUND',
      `The local model ${this.id} is not installed: download it in Settings or run "cairn models pull ${this.id}".`,
    );
  }
}

class LocalReranker implements Reranker {
  private loaded = false;
  private msPerPair: number | null = null;

  constructor(
    readonly model: string,
    private readonly entry: RerankerEntry,
    private readonly host: WorkerHost,
    private readonly threads: number,
  ) {
    // Load now: a search arriving while it loads is not reranked ("loading") rather than kept waiting.
    host.whenReady().then(
      () => (this.loaded = true),
      () => {},
    );
  }

  ready(): boolean {
    return this.loaded;
  }

  estimateMs(pairs: number): number {
    return pairs * (this.msPerPair ?? this.entry.cpuMsPerPair / this.threads);
  }

  async score(query: string, passages: string[], signal: AbortSignal): Promise<number[]> {
    const started = performance.now();
    const scores = await this.host.call<number[]>('rerank', [query, passages], { signal, priority: 0 });
    // What this machine does now, busy or not, steers the next budget check.
    const observed = (performance.now() - started) / Math.max(1, passages.length);
    this.msPerPair = this.msPerPair === null ? observed : 0.7 * this.msPerPair + 0.3 * observed;
    return scores;
  }

  dispose(): Promise<void> {
    return this.host.dispose();
  }
}

export class LocalModels {
  private readonly embedders = new Map<string, { embedder: Embedder; hosts: WorkerHost[] }>();
  private readonly rerankers = new Map<string, LocalReranker>();
  readonly cores: number;

  constructor(private readonly options: LocalModelsOptions) {
    this.cores = options.cores ?? availableParallelism();
  }

  get catalog(): ModelCatalog {
    return this.options.catalog;
  }

  /** Catalogue ids of the completely installed models. */
  installedIds(): string[] {
    return this.options.store.list().map((record) => record.id);
  }

  /** The space an embedding model's vectors live in (installed weights, else the catalogue's pin). */
  spaceOf(id: string): EmbeddingSpace {
    return localSpace(this.options.catalog.embedder(id), this.options.store.installed(id));
  }

  embedder(id: string): Embedder {
    const entry = this.options.catalog.embedder(id);
    const record = this.options.store.installed(id);
    const space = localSpace(entry, record);
    const key = `${id}|${space.model}`;
    const cached = this.embedders.get(key);
    if (cached) return cached.embedder;
    if (!record) return new MissingModelEmbedder(space, id);
    const spec = embedderSpec(entry, this.options.store.dirOf(id));
    const documents = this.host(`${id} (indexing)`, { threads: Math.max(1, this.cores - 1), embedder: spec });
    const queries = entry.separateQueryLane
      ? this.host(`${id} (queries)`, { threads: 1, embedder: spec })
      : documents;
    const embedder = new WorkerEmbedder({ space, documents, queries });
    this.embedders.set(key, { embedder, hosts: [...new Set([documents, queries])] });
    this.options.logger.info('local embedding model ready to load', {
      model: space.model,
      lanes: entry.separateQueryLane ? 2 : 1,
    });
    return embedder;
  }

  /** The reranker searches should use, or null (off, or none installed). */
  reranker(choice: RerankerChoice): Reranker | null {
    if (!choice.enabled) return null;
    const installed = this.options.catalog.entries.filter(
      (entry): entry is RerankerEntry =>
        entry.kind === 'reranker' && this.options.store.installed(entry.id) !== null,
    );
    const entry = choice.model
      ? installed.find((candidate) => candidate.id === choice.model)
      : installed
          .filter((candidate) => candidate.autoEnable)
          .sort((a, b) => a.cpuMsPerPair - b.cpuMsPerPair)[0];
    if (!entry) return null;
    const record = this.options.store.installed(entry.id)!;
    const key = `${entry.id}|${record.installedAt}`;
    let reranker = this.rerankers.get(key);
    if (!reranker) {
      const threads = Math.max(1, Math.min(4, this.cores - 1));
      const host = this.host(`${entry.id} (reranker)`, {
        threads,
        reranker: rerankerSpec(entry, this.options.store.dirOf(entry.id)),
      });
      reranker = new LocalReranker(entry.id, entry, host, threads);
      this.rerankers.set(key, reranker);
    }
    return reranker;
  }

  /** Stops the workers of a model (before it is removed or replaced). */
  async release(id: string): Promise<void> {
    for (const [key, { hosts }] of this.embedders) {
      if (!key.startsWith(`${id}|`)) continue;
      this.embedders.delete(key);
      await Promise.all(hosts.map((host) => host.dispose()));
    }
    for (const [key, reranker] of this.rerankers) {
      if (!key.startsWith(`${id}|`)) continue;
      this.rerankers.delete(key);
      await reranker.dispose();
    }
  }

  async dispose(): Promise<void> {
    const ids = new Set(
      [...this.embedders.keys(), ...this.rerankers.keys()].map((key) => key.split('|')[0]!),
    );
    for (const id of ids) await this.release(id);
  }

  private host(name: string, spec: LocalModelSpec): WorkerHost {
    return new WorkerHost({
      name,
      recipe: { factory: 'local-onnx', options: spec },
      ...(this.options.workerEntry ? { entry: this.options.workerEntry } : {}),
    });
  }
}
