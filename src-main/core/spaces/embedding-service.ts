/**
 * Owns "which embedder serves which vector space". The configured embedder (settings + the
 * CAIRN_EMBED_* overlay) may differ from the index's active space: then a background re-embed
 * fills a pending space while the active one keeps serving search and syncs, and flips when done.
 * Vectors of two spaces never meet: search asks for the active space's embedder only.
 */
import type { ReindexStatus } from '@shared/models';
import type { Db } from '../db/database';
import { spaceKey, type Embedder, type EmbeddingSpace } from '../embedding/embedder';
import { isAbortError } from '../errors';
import type { EmbeddingSettings } from '../embedding/create-embedder';
import {
  createPendingSpace,
  discardPendingSpace,
  ensureActiveSpace,
  readSpaces,
  sameSpace,
} from '../index/embedding-spaces';
import { runReindex } from './reindex-job';
import type { Logger } from '../logging/logger';
import type { EventBus } from '../events/event-bus';
import type { SpaceSettingsStore } from './space-settings';

export interface ConfiguredEmbedder {
  embedder: Embedder;
  /** The settings it was built from (recorded per space, so it can be rebuilt after a restart). */
  settings: EmbeddingSettings;
}

export interface EmbeddingServiceDeps {
  db: Db;
  events: EventBus;
  logger: Logger;
  /** Builds the embedder the current settings ask for (settings + env overlay + stored key). */
  configuredEmbedder: () => Promise<ConfiguredEmbedder>;
  /** What built each registered space: rebuilds the active space's embedder once the settings moved on. */
  spaceSettings: SpaceSettingsStore;
}

export class EmbeddingService {
  private configured: Embedder | null = null;
  /** The embedder that built the active space, kept when the settings move on: it serves until the flip. */
  private previous: Embedder | null = null;
  private active: EmbeddingSpace | null = null;
  private pending: EmbeddingSpace | null = null;
  private job: { controller: AbortController; done: Promise<void> } | null = null;
  private progress: ReindexStatus = {
    running: false,
    done: 0,
    total: 0,
    activeSpace: '',
    pendingSpace: null,
  };

  constructor(private readonly deps: EmbeddingServiceDeps) {}

  /** Registers the first space, or starts (resumes) the re-embed when the settings moved on. */
  async start(): Promise<void> {
    await this.reconfigure();
  }

  /** Call after the embedding settings changed. */
  async reconfigure(): Promise<void> {
    const { embedder, settings } = await this.deps.configuredEmbedder();
    const spaceSettings = this.deps.spaceSettings;
    // Settings overwrite the old provider (and its key): keep its embedder so the active space
    // keeps its vector channel (search, syncs) while the re-embed runs, or if it fails.
    if (this.configured && this.active && sameSpace(this.configured.space, this.active))
      this.previous = this.configured;
    this.configured = embedder;
    const { active, matches } = await ensureActiveSpace(this.deps.db, embedder.space);
    this.active = active;
    if (matches) {
      await this.stopJob();
      await discardPendingSpace(this.deps.db);
      this.pending = null;
      await spaceSettings.save(active, settings);
      await spaceSettings.prune([active]);
      this.publish({ running: false, done: 0, total: 0, activeSpace: spaceKey(active), pendingSpace: null });
      return;
    }
    // After a restart mid-re-embed nothing is in memory: rebuild the active space's embedder from what built it.
    if (!this.previous || !sameSpace(this.previous.space, active))
      this.previous = await spaceSettings.embedderFor(active);
    const running = this.job !== null && this.pending !== null && sameSpace(this.pending, embedder.space);
    if (!running) await this.stopJob();
    // Registered here (runReindex reuses it) so its settings are on record before any vector lands in it.
    const pending = await createPendingSpace(this.deps.db, embedder.space);
    await spaceSettings.save(pending, settings);
    await spaceSettings.prune([active, pending]);
    if (running) return;
    this.pending = embedder.space;
    this.startJob(embedder);
  }

  /** The embedder that serves `space`, or null (the vector channel is then skipped, keyword still works). */
  forSpace(space: EmbeddingSpace): Embedder | null {
    if (this.configured && sameSpace(this.configured.space, space)) return this.configured;
    if (this.previous && sameSpace(this.previous.space, space)) return this.previous;
    return null;
  }

  /** What a sync embeds with: the active space's embedder, else the configured one (its vectors land in the pending space and the flip catches up). */
  syncEmbedder(): Embedder {
    const activeEmbedder = this.active ? this.forSpace(this.active) : null;
    if (activeEmbedder) return activeEmbedder;
    if (!this.configured) throw new Error('EmbeddingService.start() was not called');
    return this.configured;
  }

  /**
   * Like `syncEmbedder`, but reads the active space from the database: a running sync asks this
   * when a write is refused, since a re-embed may have flipped the space a moment ago.
   */
  async currentSyncEmbedder(): Promise<Embedder> {
    const { active } = await readSpaces(this.deps.db);
    if (active) this.active = active;
    return this.syncEmbedder();
  }

  status(): ReindexStatus {
    return { ...this.progress, activeSpace: this.active ? spaceKey(this.active) : this.progress.activeSpace };
  }

  async dispose(): Promise<void> {
    await this.stopJob();
  }

  /** Resolves when a running re-embed has finished (tests, CLI). */
  async whenIdle(): Promise<void> {
    await this.job?.done;
  }

  private startJob(embedder: Embedder): void {
    const controller = new AbortController();
    const logger = this.deps.logger;
    logger.info('re-embedding the index in the background', { to: spaceKey(embedder.space) });
    const done = runReindex({
      db: this.deps.db,
      embedder,
      signal: controller.signal,
      logger,
      onProgress: (status) => this.publish(status),
    })
      .then(async ({ embedded }) => {
        const { active } = await readSpaces(this.deps.db);
        this.active = active;
        this.pending = null;
        this.previous = null;
        await this.deps.spaceSettings.prune([active]);
        logger.info('re-embed finished', { embedded, active: active ? spaceKey(active) : null });
        this.publish({
          running: false,
          done: embedded,
          total: embedded,
          activeSpace: active ? spaceKey(active) : '',
          pendingSpace: null,
        });
      })
      .catch((error: unknown) => {
        if (!isAbortError(error)) logger.error('re-embed failed; the old index keeps serving', { error });
        this.publish({ ...this.progress, running: false });
      })
      .finally(() => {
        if (this.job?.controller === controller) this.job = null;
      });
    this.job = { controller, done };
  }

  private async stopJob(): Promise<void> {
    const job = this.job;
    if (!job) return;
    job.controller.abort();
    await job.done;
  }

  private publish(status: ReindexStatus): void {
    this.progress = status;
    this.deps.events.emit('reindex.progress', this.status());
  }
}
