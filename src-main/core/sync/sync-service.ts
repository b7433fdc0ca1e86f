/**
 * The contract's `sync` domain: starts background runs of the sync engine (one per connection:
 * the engine's lock answers ALREADY_SYNCING to the tray, the card and the scheduler alike),
 * relays progress as events, cancels on request, and keeps the latest progress of running syncs
 * for the status snapshot.
 */
import type { SyncProgress, SyncRunView } from '@shared/models';
import type { Db } from '../db/database';
import { CairnError, throwIfAborted } from '../errors';
import type { Logger } from '../logging/logger';
import type { SyncEngine } from './sync-engine';
import { directModeSyncError } from './sync-errors';
import { listRuns } from './sync-runs';
import { announceConnections } from '../connections/announce';
import type { ConnectionConnectors } from '../connections/connection-connectors';
import type { ConnectionRepository } from '../connections/connection-repository';
import type { Connector } from '../connectors/connector';
import type { ConnectionEventBus } from '../events/connection-events';
import type { EventBus } from '../events/event-bus';

export interface SyncServiceDeps {
  db: Db;
  engine: SyncEngine;
  connectors: ConnectionConnectors;
  repository: ConnectionRepository;
  /** A connection being removed, switched to direct mode or signed out of stops its sync. */
  lifecycle: ConnectionEventBus;
  events: EventBus;
  logger: Logger;
}

interface RunningSync {
  controller: AbortController;
  /** Null while the run is still being set up (connector built, run recorded). */
  progress: SyncProgress | null;
  done: Promise<SyncRunView | null>;
}

export class SyncService {
  private readonly running = new Map<string, RunningSync>();
  /** Connections whose settings or credentials are being saved: no sync may start meanwhile. */
  private readonly editing = new Set<string>();

  private readonly unsubscribe: (() => void)[];

  constructor(private readonly deps: SyncServiceDeps) {
    this.unsubscribe = [
      deps.lifecycle.on('removing', ({ connectionId }) => this.cancel(connectionId)),
      // A running sync holds the user's authorisation and keeps rotating it: sign-out waits for it to stop.
      deps.lifecycle.on('signingOut', ({ connectionId }) => this.cancel(connectionId)),
      // The mode changed first, so no new sync starts; the index stays on disk.
      deps.lifecycle.on('modeChanged', ({ connectionId, mode }) =>
        mode === 'direct' ? this.cancel(connectionId) : undefined,
      ),
    ];
  }

  async start(connectionId: string): Promise<{ runId: number }> {
    if (this.running.has(connectionId)) {
      const name = (await this.deps.repository.findById(connectionId))?.name ?? connectionId;
      // details.running: a caller may follow that run instead (cairn sync beside the scheduler).
      throw new CairnError('ALREADY_SYNCING', `"${name}" is already syncing.`, {
        details: { running: true },
      });
    }
    if (this.editing.has(connectionId)) {
      const name = (await this.deps.repository.findById(connectionId))?.name ?? connectionId;
      throw new CairnError(
        'ALREADY_SYNCING',
        `"${name}" is being edited; sync it once the changes are saved.`,
      );
    }
    // Claimed before the first await, so a cancel or a remove arriving during the set-up finds
    // the run and stops it instead of missing it.
    const controller = new AbortController();
    let settle: (run: SyncRunView | null) => void = () => {};
    const entry: RunningSync = {
      controller,
      progress: null,
      done: new Promise((resolve) => (settle = resolve)),
    };
    this.running.set(connectionId, entry);
    let started: { runId: number; done: Promise<SyncRunView> };
    let connector: Connector | null = null;
    try {
      const view = await this.deps.repository.get(connectionId);
      if (view.mode !== 'rag') throw directModeSyncError(view.name);
      throwIfAborted(controller.signal);
      connector = await this.deps.connectors.forConnection(connectionId);
      if (!connector.capabilities.fullText) {
        const limitation = (
          connector.capabilities.limitation?.message ?? 'full text is unavailable for this platform'
        ).replace(/[.\s]+$/, '');
        throw new CairnError('UNSUPPORTED', `"${view.name}": ${limitation}. Switch it to direct search.`);
      }
      throwIfAborted(controller.signal);
      started = await this.deps.engine.start({
        connectionId,
        connector,
        signal: controller.signal,
        onProgress: (progress) => {
          entry.progress = progress;
          this.deps.events.emit('sync.progress', progress);
        },
      });
    } catch (error) {
      this.running.delete(connectionId);
      settle(null);
      await connector?.dispose?.();
      throw error;
    }
    const activeConnector = connector;
    entry.progress ??= {
      connectionId,
      runId: started.runId,
      phase: 'listing',
      documentsDone: 0,
      documentsTotal: 0,
      chunksWritten: 0,
      errors: 0,
    };
    started.done
      .then((run) => {
        this.deps.events.emit('sync.finished', run);
        return run;
      })
      .catch((error: unknown) => {
        this.deps.logger.error('sync run ended unexpectedly', { connectionId, error });
        return null;
      })
      .then(async (run) => {
        this.running.delete(connectionId);
        try {
          await activeConnector.dispose?.();
          await this.announce();
        } catch (error) {
          this.deps.logger.warn('clean-up after a sync failed', { connectionId, error });
        }
        settle(run);
      });
    await this.announce();
    return { runId: started.runId };
  }

  /**
   * Runs an edit of a connection's settings or credentials while no sync of it runs or can start:
   * a running sync holds a connector built from the old ones. Refused (ALREADY_SYNCING) rather than
   * cancelling it, so that saving an edit never silently throws away a sync's work.
   */
  async withoutSync<T>(connectionId: string, edit: () => Promise<T>): Promise<T> {
    if (this.running.has(connectionId) || this.editing.has(connectionId)) {
      const name = (await this.deps.repository.findById(connectionId))?.name ?? connectionId;
      throw new CairnError('ALREADY_SYNCING', `"${name}" is syncing: stop the sync, then save the changes.`);
    }
    this.editing.add(connectionId);
    try {
      return await edit();
    } finally {
      this.editing.delete(connectionId);
    }
  }

  /** Starts every RAG connection that is not already syncing; returns the ones started. */
  async startAll(): Promise<{ started: string[] }> {
    const started: string[] = [];
    for (const view of await this.deps.repository.list()) {
      if (view.mode !== 'rag' || this.running.has(view.id)) continue;
      try {
        await this.start(view.id);
        started.push(view.id);
      } catch (error) {
        this.deps.logger.warn('could not start sync', { connectionId: view.id, error });
      }
    }
    return { started };
  }

  async cancel(connectionId: string): Promise<void> {
    const entry = this.running.get(connectionId);
    if (!entry) return;
    entry.controller.abort();
    await entry.done;
  }

  runs(connectionId: string, limit?: number): Promise<SyncRunView[]> {
    return listRuns(this.deps.db, connectionId, Math.min(Math.max(1, limit ?? 20), 200));
  }

  /** Latest progress of each running sync (for the status snapshot). */
  snapshot(): Record<string, SyncProgress> {
    return Object.fromEntries(
      [...this.running].flatMap(([id, entry]) => (entry.progress ? [[id, entry.progress]] : [])),
    );
  }

  /** Resolves when every running sync has finished. */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((entry) => entry.done));
  }

  async dispose(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const entry of this.running.values()) entry.controller.abort();
    await this.whenIdle();
  }

  private announce(): Promise<void> {
    return announceConnections(this.deps.events, this.deps.repository);
  }
}
