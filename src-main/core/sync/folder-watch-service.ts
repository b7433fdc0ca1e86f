/**
 * Live syncs of local folders while the app or `cairn serve` runs. Each RAG folder connection
 * that has not turned watching off (`noWatch`) is watched; changes are debounced (quiet for
 * `quietMs`, at most `maxWaitMs` after the first) into ONE incremental sync, so a save is
 * searchable in about a second and a `git checkout` of 1,000 files is one sync, not 1,000.
 * Changes during a sync queue one more sync after it. Starting to watch syncs once, which
 * catches up on what changed while Cairn was closed (the sync compares mtime+size, then hashes);
 * when a sync already runs then (a new connection's first sync, started by the scheduler), that
 * sync is the catch-up, and no second pass follows it.
 * The service follows `connections.changed`: added, edited, removed or switched connections
 * start, restart or stop their watcher.
 */
import type { ConnectionView, FolderState } from '@shared/models';
import { CairnError } from '../errors';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logging/logger';
import { expandHome } from '../connectors/folder/home-path';
import { obsidianVaultName } from '../connectors/folder/obsidian';
import type { FolderWatcher, WatchFolder } from './folder-watcher';

export interface FolderWatchServiceDeps {
  events: EventBus;
  listConnections(): Promise<ConnectionView[]>;
  /** Starts a sync; throws CairnError ALREADY_SYNCING when one runs. */
  startSync(connectionId: string): Promise<unknown>;
  /** Tells the UI the connections changed (the card shows "watching"). */
  announce(): Promise<void>;
  watch: WatchFolder;
  logger: Logger;
  /** Quiet time after the last change before syncing. @default 300 */
  quietMs?: number;
  /** Longest wait after the first change of a burst. @default 2000 */
  maxWaitMs?: number;
  /** Where the cards' folder state is kept (the connection repository reads it). @default its own */
  states?: FolderWatchStates;
}

interface Watched {
  /** What the watcher was built from; a change of it restarts the watcher. */
  key: string;
  root: string;
  watcher: FolderWatcher | null;
  error: string | null;
  timer: NodeJS.Timeout | null;
  firstChangeAt: number | null;
  /** The watcher reported a change since the last sync this service started (not only the catch-up). */
  changed: boolean;
  /** Changes arrived while a sync ran: sync again when it ends. */
  pending: boolean;
  closed: boolean;
}

function watchKey(view: ConnectionView): string | null {
  if (view.platform !== 'folder' || view.mode !== 'rag' || view.config['noWatch'] === true) return null;
  const path = view.config['path'];
  return typeof path === 'string' && path.trim() ? expandHome(path) : null;
}

/**
 * What the cards show of each folder connection: whether it is watched, the watcher's error, its
 * Obsidian vault. The watch service writes it and the connection repository reads it into views;
 * it stands apart from the service so the repository, built before the syncs the service starts,
 * is given it at once.
 */
export class FolderWatchStates {
  /** The watchers, by connection id (written by FolderWatchService only). */
  readonly watched = new Map<string, Watched>();
  /** Obsidian vault names of every folder connection, watched or not ("Open in Obsidian"). */
  readonly vaults = new Map<string, string | null>();

  /** The card's folder state; undefined for connections that are not local folders. */
  stateOf(view: Pick<ConnectionView, 'id' | 'platform'>): FolderState | undefined {
    if (view.platform !== 'folder') return undefined;
    const entry = this.watched.get(view.id);
    return {
      watching: entry?.watcher !== null && entry?.watcher !== undefined,
      watchError: entry?.error ?? null,
      obsidianVault: this.vaults.get(view.id) ?? null,
    };
  }
}

export class FolderWatchService {
  private readonly watched: Map<string, Watched>;
  private readonly vaults: Map<string, string | null>;
  private readonly states: FolderWatchStates;
  private reconciling: Promise<void> = Promise.resolve();
  private disposed = false;
  /** Syncs started by this service (tests and the bench wait on them). */
  syncsStarted = 0;

  constructor(private readonly deps: FolderWatchServiceDeps) {
    this.states = deps.states ?? new FolderWatchStates();
    this.watched = this.states.watched;
    this.vaults = this.states.vaults;
  }

  /** Watches the current connections and follows their changes; returns the disposer. */
  async start(): Promise<() => Promise<void>> {
    const offChanged = this.deps.events.on('connections.changed', (views) => this.reconcile(views));
    const offFinished = this.deps.events.on('sync.finished', (run) => {
      const entry = this.watched.get(run.connectionId);
      if (entry?.pending) {
        entry.pending = false;
        this.schedule(run.connectionId, entry, 0);
      }
    });
    await this.reconcile(await this.deps.listConnections());
    return async () => {
      offChanged();
      offFinished();
      await this.dispose();
    };
  }

  /** The card's folder state; undefined for connections that are not local folders. */
  stateOf(view: Pick<ConnectionView, 'id' | 'platform'>): FolderState | undefined {
    return this.states.stateOf(view);
  }

  reconcile(views: ConnectionView[]): Promise<void> {
    this.reconciling = this.reconciling
      .then(() => this.apply(views))
      .catch((error: unknown) => {
        this.deps.logger.error('folder watching could not follow a connection change', { error });
      });
    return this.reconciling;
  }

  private async apply(views: ConnectionView[]): Promise<void> {
    if (this.disposed) return;
    let changed = false;
    for (const view of views) {
      if (view.platform !== 'folder' || typeof view.config['path'] !== 'string') continue;
      const vault = await obsidianVaultName(expandHome(view.config['path']));
      if ((this.vaults.get(view.id) ?? null) !== vault || !this.vaults.has(view.id)) changed = true;
      this.vaults.set(view.id, vault);
    }
    const wanted = new Map(views.flatMap((view) => (watchKey(view) ? [[view.id, watchKey(view)!]] : [])));
    for (const [id, entry] of this.watched)
      if (wanted.get(id) !== entry.key) {
        await this.stop(id, entry);
        changed = true;
      }
    for (const [id, key] of wanted) {
      if (this.watched.has(id)) continue;
      await this.begin(id, key);
      changed = true;
    }
    if (changed) await this.deps.announce();
  }

  private async begin(id: string, root: string): Promise<void> {
    const entry: Watched = {
      key: root,
      root,
      watcher: null,
      error: null,
      timer: null,
      firstChangeAt: null,
      changed: false,
      pending: false,
      closed: false,
    };
    this.watched.set(id, entry);
    try {
      entry.watcher = await this.deps.watch(
        root,
        () => {
          entry.changed = true;
          this.schedule(id, entry);
        },
        (error) => {
          entry.error = error.message;
          this.deps.logger.warn('folder watcher reported an error', { connectionId: id, error });
        },
      );
    } catch (error) {
      // E.g. the folder is gone, or the system's inotify watch limit is reached: the 24 h and
      // manual syncs still work, and the card says why it is not watching.
      entry.error = (error as Error).message;
      this.deps.logger.warn('could not watch a folder', { connectionId: id, root, error });
      return;
    }
    // Catch up on what changed while Cairn was not watching.
    this.schedule(id, entry, 0);
  }

  private async stop(id: string, entry: Watched): Promise<void> {
    entry.closed = true;
    if (entry.timer) clearTimeout(entry.timer);
    this.watched.delete(id);
    try {
      await entry.watcher?.close();
    } catch (error) {
      this.deps.logger.warn('closing a folder watcher failed', { connectionId: id, error });
    }
  }

  private schedule(id: string, entry: Watched, delay = this.deps.quietMs ?? 300): void {
    if (entry.closed) return;
    const now = Date.now();
    entry.firstChangeAt ??= now;
    const latest = entry.firstChangeAt + (this.deps.maxWaitMs ?? 2000);
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.fire(id, entry), Math.max(0, Math.min(delay, latest - now)));
  }

  private async fire(id: string, entry: Watched): Promise<void> {
    entry.timer = null;
    entry.firstChangeAt = null;
    if (entry.closed) return;
    const changed = entry.changed;
    entry.changed = false;
    try {
      await this.deps.startSync(id);
      this.syncsStarted += 1;
    } catch (error) {
      // Only a change the running sync may have listed too early needs another pass.
      if (error instanceof CairnError && error.code === 'ALREADY_SYNCING') entry.pending ||= changed;
      else this.deps.logger.warn('a watched folder could not start its sync', { connectionId: id, error });
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.reconciling;
    for (const [id, entry] of [...this.watched]) await this.stop(id, entry);
  }
}
