/**
 * The contract's `sync` domain: starts background runs of the sync engine (one per connection:
 * the engine's lock answers ALREADY_SYNCING to the tray, the card and the scheduler alike),
 * relays progress as events, cancels on request, and keeps the latest progress of running syncs
 * for the status snapshot.
 */
import type { CairnApi } from '../../../src-shared/contract';
import type { SyncProgress, SyncRunView } from '../../../src-shared/models';
import type { Db } from '../db/database';
import { CairnError, toResult } from '../errors';
import type { Logger } from '../logging/logger';
import type { SyncEngine } from '../sync/sync-engine';
import { listRuns } from '../sync/sync-runs';
import type { ConnectionRepository } from './connection-repository';
import type { ConnectionService } from './connection-service';
import type { EmbeddingService } from './embedding-service';
import type { EventBus } from './event-bus';

export interface SyncServiceDeps {
  db: Db;
  engine: SyncEngine;
  connections: ConnectionService;
  repository: ConnectionRepository;
  embeddings: EmbeddingService;
  events: EventBus;
  logger: Logger;
}

interface RunningSync {
  controller: AbortController;
  progress: SyncProgress;
  done: Promise<SyncRunView | null>;
}

export class SyncService {
  private readonly running = new Map<string, RunningSync>();

  constructor(private readonly deps: SyncServiceDeps) {}

  async start(connectionId: string): Promise<{ runId: number }> {
    const view = await this.deps.repository.get(connectionId);
    if (view.mode !== 'rag') throw new CairnError('INVALID_ARGUMENT', `"${view.name}" is in direct mode: it is searched live and has nothing to sync.`);
    if (this.running.has(connectionId)) throw new CairnError('ALREADY_SYNCING', `"${view.name}" is already syncing.`);
    const connector = await this.deps.connections.connectorFor(connectionId);
    if (!connector.capabilities.fullText) {
      await connector.dispose?.();
      throw new CairnError('UNSUPPORTED', `"${view.name}": ${connector.capabilities.limitation ?? 'full text is unavailable for this platform'}. Switch it to direct search.`);
    }
    const controller = new AbortController();
    const started = await this.deps.engine
      .start({
        connectionId,
        connector,
        embedder: this.deps.embeddings.syncEmbedder(),
        signal: controller.signal,
        onProgress: (progress) => {
          const entry = this.running.get(connectionId);
          if (entry) entry.progress = progress;
          this.deps.events.emit('sync.progress', progress);
        },
      })
      .catch(async (error: unknown) => {
        await connector.dispose?.();
        throw error;
      });
    const progress: SyncProgress = { connectionId, runId: started.runId, phase: 'listing', documentsDone: 0, documentsTotal: 0, chunksWritten: 0, errors: 0 };
    const done = started.done
      .then(async (run) => {
        this.deps.events.emit('sync.finished', run);
        return run;
      })
      .catch((error: unknown) => {
        this.deps.logger.error('sync run ended unexpectedly', { connectionId, error });
        return null;
      })
      .finally(async () => {
        this.running.delete(connectionId);
        await connector.dispose?.();
        await this.announce();
      });
    this.running.set(connectionId, { controller, progress, done });
    await this.announce();
    return { runId: started.runId };
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
    return Object.fromEntries([...this.running].map(([id, entry]) => [id, entry.progress]));
  }

  /** Resolves when every running sync has finished. */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((entry) => entry.done));
  }

  async dispose(): Promise<void> {
    for (const entry of this.running.values()) entry.controller.abort();
    await this.whenIdle();
  }

  private async announce(): Promise<void> {
    this.deps.events.emit('connections.changed', await this.deps.repository.list());
  }
}

export function syncApi(service: SyncService): CairnApi['sync'] {
  return {
    start: (input) => toResult(() => service.start(input.connectionId)),
    startAll: () => toResult(() => service.startAll()),
    cancel: (input) => toResult(() => service.cancel(input.connectionId)),
    runs: (input) => toResult(() => service.runs(input.connectionId, input.limit)),
  };
}
