/**
 * The `models` domain: what is catalogued, installed, downloading and in use; downloads in the
 * background (one per model, cancellable, progress as `models.progress`, the outcome as
 * `models.changed`); import from a folder; removal. The download source is the setting, unless
 * CAIRN_MODEL_MIRROR (or the CLI's --mirror) overrides it.
 */
import type { AppErrorData } from '@shared/errors';
import type { ModelsSnapshot, ModelView, SettingsView } from '@shared/models';
import { CairnError, isAbortError, toErrorData } from '../errors';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logging/logger';
import { downloadSize, filesFor, isPinned, type CatalogEntry, type ModelCatalog } from './catalog';
import { endpointFromUrl, HUGGING_FACE, MODELSCOPE, type HubEndpoint } from './hub-client';
import { pullModel, type PullProgress } from './model-download';
import { importModel } from './model-import';
import type { ModelStore } from './model-store';
import type { LocalModels } from './local-models';
import { localModelsUnsupportedReason } from '../inference/onnx-runtime';

export interface ModelServiceDeps {
  store: ModelStore;
  catalog: ModelCatalog;
  local: LocalModels;
  events: EventBus;
  logger: Logger;
  settings: () => Promise<SettingsView>;
  env: Record<string, string | undefined>;
  /** Chunks in the index, for what switching models would cost. */
  chunkCount: () => Promise<number>;
  /** Catalogue ids in use: the active or configured embedding model, and the reranker searches use. */
  inUse: () => Promise<string[]>;
  /** After an install, removal or import: the embedding service may now build (or must drop) a model. */
  onChange: (id: string) => Promise<void>;
  /** Free bytes where models are stored (tests). */
  freeBytes?: (dir: string) => number;
}

interface Job {
  controller: AbortController;
  done: Promise<void>;
  progress: PullProgress | null;
}

/** Windows of a 1,500-character chunk add ~16–24 % encoder work on real corpora (bench/window-coverage.ts). */
const WINDOW_FACTOR = 1.2;

export class ModelService {
  private readonly jobs = new Map<string, Job>();
  private readonly failures = new Map<
    string,
    { state: 'failed' | 'cancelled'; error: AppErrorData | null }
  >();

  constructor(private readonly deps: ModelServiceDeps) {}

  /** Removes what a crash left half installed; call once at start. */
  start(): void {
    const report = this.deps.store.clean();
    if (report.staging.length + report.halfInstalled.length > 0)
      this.deps.logger.warn('removed half-installed models left by an interrupted install', { ...report });
  }

  /** The hub downloads come from: `override` (--mirror), else CAIRN_MODEL_MIRROR, else the setting. */
  async endpoint(
    override?: string,
  ): Promise<{ endpoint: HubEndpoint; kind: ModelsSnapshot['source']['kind']; fromEnv: boolean }> {
    const fromEnv = this.deps.env.CAIRN_MODEL_MIRROR?.trim();
    const url = override?.trim() || fromEnv;
    if (url) {
      const endpoint = endpointFromUrl(url);
      return {
        endpoint,
        kind: endpoint.layout === 'modelscope' ? 'modelscope' : 'mirror',
        fromEnv: !override,
      };
    }
    const { models } = await this.deps.settings();
    if (models.source === 'modelscope') return { endpoint: MODELSCOPE, kind: 'modelscope', fromEnv: false };
    if (models.source === 'mirror' && models.mirrorUrl)
      return { endpoint: endpointFromUrl(models.mirrorUrl), kind: 'mirror', fromEnv: false };
    return { endpoint: HUGGING_FACE, kind: 'huggingface', fromEnv: false };
  }

  async snapshot(): Promise<ModelsSnapshot> {
    const [{ endpoint, kind, fromEnv }, chunks, inUse] = await Promise.all([
      this.endpoint(),
      this.deps.chunkCount(),
      this.deps.inUse(),
    ]);
    return {
      models: this.deps.catalog.entries.map((entry) => this.viewOf(entry, chunks, inUse)),
      dir: this.deps.store.root,
      source: { kind, url: endpoint.base, fromEnv },
      cores: this.deps.local.cores,
    };
  }

  async view(id: string): Promise<ModelView> {
    return this.viewOf(this.deps.catalog.get(id), await this.deps.chunkCount(), await this.deps.inUse());
  }

  /** Starts a download (or joins the running one); resolves when it ends. */
  pull(id: string, options: { mirror?: string } = {}): Promise<void> {
    const entry = this.deps.catalog.get(id);
    const running = this.jobs.get(id);
    if (running) return running.done;
    const unsupported = localModelsUnsupportedReason();
    if (unsupported) return Promise.reject(new CairnError('UNSUPPORTED', unsupported));
    const controller = new AbortController();
    this.failures.delete(id);
    const job: Job = { controller, done: Promise.resolve(), progress: null };
    job.done = (async () => {
      try {
        const { endpoint } = await this.endpoint(options.mirror);
        this.deps.logger.info('downloading a local model', { id, from: endpoint.base });
        await this.deps.local.release(id);
        await pullModel({
          store: this.deps.store,
          entry,
          endpoint,
          signal: controller.signal,
          onProgress: (progress) => {
            job.progress = progress;
            const { phase, doneBytes, totalBytes } = progress;
            this.deps.events.emit('models.progress', { id, phase, doneBytes, totalBytes });
          },
          ...(this.deps.freeBytes ? { freeBytes: this.deps.freeBytes } : {}),
        });
        this.deps.logger.info('local model installed', { id });
      } catch (error) {
        const cancelled = isAbortError(error);
        this.failures.set(id, {
          state: cancelled ? 'cancelled' : 'failed',
          error: cancelled ? null : toErrorData(error),
        });
        if (!cancelled) this.deps.logger.warn('local model download failed', { id, error });
        throw error;
      } finally {
        this.jobs.delete(id);
        await this.changed(id);
      }
    })();
    this.jobs.set(id, job);
    return job.done;
  }

  cancel(id: string): void {
    this.deps.catalog.get(id);
    this.jobs.get(id)?.controller.abort();
  }

  async remove(id: string): Promise<void> {
    this.deps.catalog.get(id);
    if ((await this.deps.inUse()).includes(id) && this.deps.catalog.get(id).kind === 'embedder')
      throw new CairnError(
        'INVALID_ARGUMENT',
        `${id} is the embedding model in use: choose another one in Settings (or cairn's CAIRN_EMBED_* settings) first.`,
      );
    this.cancel(id);
    await this.jobs.get(id)?.done.catch(() => {});
    await this.deps.local.release(id);
    if (!this.deps.store.remove(id)) throw new CairnError('NOT_FOUND', `${id} is not installed.`);
    this.failures.delete(id);
    await this.changed(id);
  }

  async import(
    id: string,
    folder: string,
    options: { allowUnverified?: boolean; signal?: AbortSignal } = {},
  ): Promise<ModelView> {
    const entry = this.deps.catalog.get(id);
    await this.deps.local.release(id);
    await importModel({ store: this.deps.store, entry, folder, ...options });
    this.failures.delete(id);
    await this.changed(id);
    return this.view(id);
  }

  /** Resolves when every running download has ended (tests, CLI). */
  async whenIdle(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((job) => job.done.catch(() => {})));
  }

  dispose(): Promise<void> {
    for (const job of this.jobs.values()) job.controller.abort();
    return this.whenIdle();
  }

  private async changed(id: string): Promise<void> {
    try {
      await this.deps.onChange(id);
    } catch (error) {
      this.deps.logger.warn('applying a model change failed', { id, error });
    }
    this.deps.events.emit('models.changed', await this.snapshot());
  }

  private viewOf(entry: CatalogEntry, chunks: number, inUse: string[]): ModelView {
    const record = this.deps.store.installed(entry.id);
    const job = this.jobs.get(entry.id);
    const failure = this.failures.get(entry.id);
    const cores = this.deps.local.cores;
    return {
      id: entry.id,
      kind: entry.kind,
      name: entry.name,
      summary: entry.summary,
      licence: entry.licence,
      languages: entry.languages,
      dimensions: entry.kind === 'embedder' ? entry.dimensions : null,
      downloadBytes: downloadSize(entry),
      recommended: entry.recommended ?? null,
      speed: {
        cpuMsPerChunk: entry.kind === 'embedder' ? entry.cpuMsPerChunk : null,
        cpuMsPerPair: entry.kind === 'reranker' ? entry.cpuMsPerPair : null,
      },
      quality: entry.quality,
      downloadable: isPinned(entry),
      unverifiedFiles: filesFor(entry)
        .filter((f) => f.sha256 === null)
        .map((f) => f.path),
      unavailableReason: localModelsUnsupportedReason(),
      installed: record && {
        at: record.installedAt,
        bytes: record.files.reduce((sum, f) => sum + f.size, 0),
        verified: record.files.every((f) => f.verified),
        origin: record.origin.kind,
      },
      download: job
        ? {
            state: 'running',
            phase: job.progress?.phase ?? 'downloading',
            doneBytes: job.progress?.doneBytes ?? 0,
            totalBytes: job.progress?.totalBytes ?? downloadSize(entry),
            error: null,
          }
        : failure
          ? {
              state: failure.state,
              phase: 'downloading',
              doneBytes: 0,
              totalBytes: downloadSize(entry),
              error: failure.error,
            }
          : null,
      inUse: inUse.includes(entry.id),
      reembed:
        entry.kind === 'embedder'
          ? {
              chunks,
              seconds: Math.round(
                (chunks * entry.cpuMsPerChunk * WINDOW_FACTOR) / 1000 / Math.max(1, cores - 1),
              ),
              vectorBytes: chunks * entry.dimensions * 4,
            }
          : null,
    };
  }
}
