/**
 * Owns "which semantic model serves which vector space", and the semantic index's background
 * build (semantic-index.ts). The configured model (settings + the CAIRN_EMBED_* overlay) decides:
 * - none (provider 'builtin', the default): keyword search only. No space, no vectors; a space
 *   left from before (a model the user turned off, or the built-in lexical embedder of older
 *   versions) is dropped, which loses nothing searchable: every chunk's keyword text stays.
 * - a model and no space yet: its space becomes active at once, empty; search is hybrid over the
 *   chunks it covers and keyword over the rest while the builder fills it, most recent documents
 *   first.
 * - a model other than the active space's: a pending space is filled while the active one keeps
 *   serving (its model rebuilt from the settings recorded for it), then it takes over.
 * The build pauses on request (kept across restarts) and runs only in a process that asked for it
 * (the app, `cairn serve`, `cairn sync`), never in a one-shot search. Vectors of two spaces never
 * meet: search asks for the active space's embedder only.
 */
import type { ReindexStatus } from '@shared/models';
import type { Db } from '../db/database';
import { spaceKey, type Embedder, type EmbeddingSpace } from '../embedding/embedder';
import { isKeywordOnly, type EmbeddingSettings } from '../embedding/create-embedder';
import {
  createPendingSpace,
  discardPendingSpace,
  dropEverySpace,
  ensureActiveSpace,
  promotePendingSpace,
  queueMissingOnce,
  readSpaces,
  retireLexicalSpaces,
  sameSpace,
  type SpaceRecord,
} from '../index/embedding-spaces';
import { countVectors } from '../index/ann-index';
import type { Logger } from '../logging/logger';
import type { EventBus } from '../events/event-bus';
import {
  GIVE_UP_ATTEMPTS,
  queueState,
  SemanticIndexBuilder,
  type FillProgress,
  type QueueState,
} from './semantic-index';
import type { SpaceSettingsStore } from './space-settings';

export interface ConfiguredEmbedder {
  /** Null: keyword search only, or a model that cannot be built (a key missing). */
  embedder: Embedder | null;
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
  /** Build the semantic index in this process. @default true */
  build?: boolean;
  /** Applied to error messages the status shows. @default none */
  redact?: (text: string) => string;
  /** Builder options (tests: small batches, short retry waits). */
  builder?: { batchChunks?: number; retryDelaysMs?: readonly number[] };
}

const PAUSED_KEY = 'embedding.paused';
/** Progress events at most this often while building (every batch would flood the renderer). */
const PROGRESS_EVERY_MS = 500;
const ACTIVE_COUNT_MAX_AGE_MS = 30_000;

export class EmbeddingService {
  private configured: Embedder | null = null;
  private keywordOnly = true;
  /** The embedder that built the active space, kept when the settings move on: it serves until the switch. */
  private previous: Embedder | null = null;
  private active: SpaceRecord | null = null;
  private pending: SpaceRecord | null = null;
  private paused = false;
  private unavailable: string | null = null;
  private readonly builder: SemanticIndexBuilder;
  private fill: FillProgress | null = null;
  /** During a re-embed: the active space's vectors, counted now and then (it is not the one being filled). */
  private activeCount: { vectors: number; at: number } | null = null;
  private lastEmit = 0;
  private emitTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly deps: EmbeddingServiceDeps) {
    this.builder = new SemanticIndexBuilder({
      db: deps.db,
      logger: deps.logger,
      onProgress: (progress) => {
        this.fill = progress;
        this.emitThrottled();
      },
      onCaughtUp: (space, state) => this.switchWhenFilled(space, state),
      ...(deps.redact ? { redact: deps.redact } : {}),
      ...deps.builder,
    });
    // Documents written by a sync are queued by the store; the builder looks at the queue again.
    this.unsubscribe.push(
      deps.events.on('sync.progress', () => this.builder.wake()),
      deps.events.on('sync.finished', () => this.builder.wake()),
    );
  }

  /** Reads the pause switch, retires spaces older versions left, applies the settings. */
  async start(): Promise<void> {
    const paused = await this.deps.db.query<{ value: unknown }>(
      'SELECT value FROM index_meta WHERE key = $1',
      [PAUSED_KEY],
    );
    this.paused = paused.rows[0]?.value === true;
    const retired = await retireLexicalSpaces(this.deps.db);
    if (retired.length > 0)
      this.deps.logger.info('dropped the vectors of the built-in lexical embedder', {
        spaces: retired.map(spaceKey),
      });
    await queueMissingOnce(this.deps.db);
    await this.reconfigure();
  }

  /** Call after the embedding settings changed. */
  async reconfigure(): Promise<void> {
    const { embedder, settings } = await this.deps.configuredEmbedder();
    const spaceSettings = this.deps.spaceSettings;
    // Settings overwrite the old provider (and its key): keep its embedder so the active space
    // keeps its vector channel while the new space fills, or if that fails.
    if (this.configured && this.active && sameSpace(this.configured.space, this.active))
      this.previous = this.configured;
    this.configured = embedder;
    this.keywordOnly = isKeywordOnly(settings);
    this.unavailable = null;
    if (this.keywordOnly) {
      await this.builder.stop();
      // Only a process that builds (the app, `cairn serve`, `cairn sync`) applies "no semantic
      // model" to the index: a one-shot command run without the CAIRN_EMBED_* overlay that built
      // the vectors searches by keyword and leaves them be.
      if (this.deps.build !== false) {
        const dropped = await dropEverySpace(this.deps.db);
        if (dropped.length > 0)
          this.deps.logger.info('keyword search only: dropped the vectors', {
            spaces: dropped.map(spaceKey),
          });
        await spaceSettings.prune([]);
      }
      this.active = this.pending = this.previous = null;
      return this.afterChange();
    }
    const spaces = await readSpaces(this.deps.db);
    this.active = spaces.active;
    this.pending = spaces.pending;
    if (!embedder) {
      // A model the settings name but that cannot be built now (its key is missing): what exists
      // keeps serving and filling with the models recorded for it; the status says why not more.
      this.unavailable = `The embedding provider ${settings.provider} needs an API key; search uses the vectors that exist.`;
      await this.rebuildPrevious();
      return this.afterChange();
    }
    const { active, matches } = await ensureActiveSpace(this.deps.db, embedder.space);
    this.active = active;
    if (matches) {
      if (this.pending) {
        await this.builder.stop();
        await discardPendingSpace(this.deps.db);
        this.pending = null;
      }
      await spaceSettings.save(active, settings);
      await spaceSettings.prune([active]);
      return this.afterChange();
    }
    await this.rebuildPrevious();
    // Registered here so its settings are on record before any vector lands in it.
    this.pending = await createPendingSpace(this.deps.db, embedder.space);
    await spaceSettings.save(this.pending, settings);
    await spaceSettings.prune([active, this.pending]);
    return this.afterChange();
  }

  /** The embedder that serves `space`, or null (the vector channel is then skipped, keyword still works). */
  forSpace(space: EmbeddingSpace): Embedder | null {
    if (this.configured && sameSpace(this.configured.space, space)) return this.configured;
    if (this.previous && sameSpace(this.previous.space, space)) return this.previous;
    return null;
  }

  /** Pauses or resumes building the semantic index (kept across restarts). */
  async setPaused(paused: boolean): Promise<ReindexStatus> {
    await this.deps.db.query(
      'INSERT INTO index_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
      [PAUSED_KEY, JSON.stringify(paused)],
    );
    this.paused = paused;
    await this.afterChange();
    return this.status();
  }

  /** A document was opened: the builder reads its priority list again (opened documents go first). */
  documentOpened(): void {
    this.builder.wake();
  }

  /**
   * How much of the index the active space covers, for a search's response; null: keyword search
   * only. During a re-embed the active space is not the one being filled: its vectors are counted
   * every half minute at most (a search never waits for it).
   */
  coverage(): { space: string; covered: number; total: number } | null {
    if (!this.active) return null;
    const total = this.fill?.total ?? 0;
    if (!this.pending)
      return { space: spaceKey(this.active), covered: Math.min(this.fill?.done ?? 0, total), total };
    const active = this.active;
    if (!this.activeCount || performance.now() - this.activeCount.at > ACTIVE_COUNT_MAX_AGE_MS) {
      this.activeCount = { vectors: this.activeCount?.vectors ?? total, at: performance.now() };
      void countVectors(this.deps.db, active)
        .then((vectors) => (this.activeCount = { vectors, at: performance.now() }))
        .catch(() => undefined);
    }
    return { space: spaceKey(active), covered: Math.min(this.activeCount.vectors, total), total };
  }

  status(): ReindexStatus {
    const fill = this.fill;
    const target = this.pending ?? this.active;
    return {
      running: !this.paused && target !== null && (fill?.running ?? false),
      done: target ? (fill?.done ?? 0) : 0,
      total: target ? (fill?.total ?? 0) : 0,
      activeSpace: this.active ? spaceKey(this.active) : '',
      pendingSpace: this.pending ? spaceKey(this.pending) : null,
      paused: this.paused,
      chunksPerSecond: fill?.chunksPerSecond ?? null,
      etaSeconds: this.paused ? null : (fill?.etaSeconds ?? null),
      failedDocuments: fill?.failedDocuments ?? 0,
      error: this.unavailable ?? fill?.error ?? null,
    };
  }

  async dispose(): Promise<void> {
    for (const off of this.unsubscribe) off();
    if (this.emitTimer) clearTimeout(this.emitTimer);
    await this.builder.stop();
  }

  /** Resolves when the builder has nothing to do now (tests, `cairn sync`). */
  async whenIdle(): Promise<void> {
    await this.builder.whenIdle();
  }

  /** After a restart mid-re-embed nothing is in memory: rebuild the active space's embedder from what built it. */
  private async rebuildPrevious(): Promise<void> {
    if (this.active && !this.forSpace(this.active))
      this.previous = await this.deps.spaceSettings.embedderFor(this.active);
  }

  /** Starts, moves or stops the builder to match the spaces, the models and the pause switch. */
  private async afterChange(): Promise<void> {
    const target = this.pending ?? this.active;
    const embedder = target ? this.forSpace(target) : null;
    if (target && !embedder && !this.unavailable)
      this.unavailable = `The model of ${spaceKey(target)} is not available in this process; search uses the vectors that exist.`;
    if (!target || !embedder || this.paused || this.deps.build === false) await this.builder.stop();
    else await this.builder.start(target, embedder);
    // The counts, even when nothing builds here (`cairn status`).
    if (target) this.fill = this.builder.target ? this.builder.current() : await this.counted();
    else this.fill = null;
    this.emitNow();
  }

  private async counted(): Promise<FillProgress> {
    const state = await queueState(this.deps.db);
    return {
      running: false,
      done: state.total - state.queued,
      total: state.total,
      chunksPerSecond: null,
      etaSeconds: null,
      failedDocuments: state.failedDocuments,
      error: null,
    };
  }

  /** The builder caught up with the pending space: it takes over (in one transaction), the old one goes. */
  private async switchWhenFilled(space: SpaceRecord, state: QueueState): Promise<void> {
    if (!this.pending || this.pending.id !== space.id || state.blocking > 0) return;
    const switched = await this.deps.db.transaction(async (tx) => {
      // A sync may have queued documents since the builder looked: then it goes on filling.
      const waiting = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM embedding_queue WHERE attempts < ${GIVE_UP_ATTEMPTS}`,
      );
      if ((waiting.rows[0]?.n ?? 0) > 0) return false;
      await promotePendingSpace(tx, space);
      return true;
    });
    if (!switched) return this.builder.wake();
    this.deps.logger.info('the new embedding space serves search', { space: spaceKey(space) });
    this.active = space;
    this.pending = null;
    this.previous = null;
    await this.deps.spaceSettings.prune([space]);
    this.emitNow();
  }

  private emitThrottled(): void {
    const wait = PROGRESS_EVERY_MS - (performance.now() - this.lastEmit);
    if (wait <= 0) return this.emitNow();
    this.emitTimer ??= setTimeout(() => this.emitNow(), wait);
  }

  private emitNow(): void {
    if (this.emitTimer) clearTimeout(this.emitTimer);
    this.emitTimer = null;
    this.lastEmit = performance.now();
    this.deps.events.emit('reindex.progress', this.status());
  }
}
