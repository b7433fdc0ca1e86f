/**
 * Sync: the document store, the engine, the sync service (one run per connection), the 24 h
 * scheduler and the folder watch. Built here, started by `start()` once the rest of the instance
 * exists; a change of the sync interval or pause re-plans the scheduler through `settings.changed`.
 */
import { announceConnections } from '../connections/announce';
import { toResult } from '../errors';
import { PgDocumentStore } from '../index/pg-document-store';
import { SpaceMaintenance } from '../index/space-maintenance';
import { FolderWatchService } from '../sync/folder-watch-service';
import { parcelWatch } from '../sync/folder-watcher';
import { SyncScheduler } from '../sync/scheduler';
import { SyncEngine } from '../sync/sync-engine';
import { SyncLock } from '../sync/sync-lock';
import { closeAbandonedRuns, recordQuarantined } from '../sync/sync-runs';
import { FileDocumentJournal, recoverCrashJournal } from '../sync/crash-journal';
import { SyncService } from '../sync/sync-service';
import type { CreateCairnOptions } from './cairn';
import type { Base } from './wire-base';
import type { ConnectionsWiring } from './wire-connections';
import type { EmbeddingWiring } from './wire-embedding';

export interface SyncWiring {
  service: SyncService;
  /** Gives back the room rewritten and removed documents leave (on disk only). */
  maintenance: SpaceMaintenance | null;
  /** Starts the scheduler (overdue connections sync now) and the folder watch. */
  start(): Promise<void>;
}

export async function wireSync(
  base: Base,
  connections: ConnectionsWiring,
  embedding: EmbeddingWiring,
  options: CreateCairnOptions,
): Promise<SyncWiring> {
  const { db, events, logger, disposers, layout } = base;
  // Documents in hand at the last crash: suspects are read first next time, twice-suspects are
  // recorded as quarantined on the run the crash cut off (sync/crash-journal.ts).
  if (layout) await recordQuarantined(db, recoverCrashJournal(layout.syncJournal));
  // Runs a crash or a kill left "running" are closed before any sync can start.
  const abandoned = await closeAbandonedRuns(db);
  const journal = layout ? new FileDocumentJournal(layout.syncJournal) : null;
  if (journal) disposers.push(() => journal.close());
  const engine = new SyncEngine({
    db,
    store: new PgDocumentStore(db, { logger: logger.child('index') }),
    lock: new SyncLock(db),
    logger: logger.child('sync'),
    redact: base.redact,
    ...(journal ? { journal } : {}),
  });
  const service = new SyncService({
    db,
    engine,
    connectors: connections.connectors,
    repository: connections.repository,
    lifecycle: connections.lifecycle,
    events,
    logger: logger.child('sync'),
  });
  disposers.push(() => service.dispose());
  const maintenance = base.layout ? maintainSpace(base, service, embedding) : null;
  if (abandoned > 0) maintenance?.scheduleAfterCrash();
  const scheduler = options.scheduler === false ? null : scheduleSyncs(base, connections, service);
  const states = connections.folderStates;
  const folderWatch = states
    ? new FolderWatchService({
        events,
        listConnections: () => connections.repository.list(),
        startSync: (connectionId) => service.start(connectionId),
        announce: () => announceConnections(events, connections.repository),
        watch: options.watchFolder ?? parcelWatch,
        logger: logger.child('watch'),
        states,
      })
    : null;
  return {
    service,
    maintenance,
    start: async () => {
      if (scheduler) disposers.push(await scheduler.start());
      if (folderWatch) disposers.push(await folderWatch.start());
    },
  };
}

/**
 * Once the app is idle after writes: a sync that wrote or deleted, or one with failed documents
 * (a write that failed rolled back rows that still take room), a connection change (removal), or
 * the semantic index having stored vectors (its build over or paused); never while either runs.
 */
function maintainSpace(base: Base, service: SyncService, embedding: EmbeddingWiring): SpaceMaintenance {
  const { db, events, logger, disposers } = base;
  const maintenance = new SpaceMaintenance({
    db,
    logger: logger.child('maintenance'),
    busy: () => Object.keys(service.snapshot()).length > 0 || embedding.embeddings.status().running,
  });
  let vectorsStored = false;
  disposers.push(
    events.on('reindex.progress', (status) => {
      if (status.running) vectorsStored = true;
      else if (vectorsStored) {
        vectorsStored = false;
        maintenance.schedule();
      }
    }),
  );
  disposers.push(
    events.on('sync.finished', (run) => {
      const { added, updated, deleted, failed } = run.counters;
      if (added + updated + deleted + failed > 0) maintenance.schedule();
    }),
  );
  disposers.push(events.on('connections.changed', () => maintenance.schedule()));
  disposers.push(() => maintenance.dispose());
  return maintenance;
}

/** Scheduled syncs start through the service, as the card's button does. */
function scheduleSyncs(base: Base, connections: ConnectionsWiring, service: SyncService): SyncScheduler {
  const scheduler = new SyncScheduler({
    store: connections.repository,
    settings: () => base.settings.get(),
    startSync: (connectionId) => toResult(() => service.start(connectionId)),
    events: base.events,
    announce: () => announceConnections(base.events, connections.repository),
    logger: base.logger.child('scheduler'),
  });
  base.disposers.push(
    base.settingsEvents.on('settings.changed', async ({ before, after }) => {
      if (
        before.syncIntervalHours !== after.syncIntervalHours ||
        before.scheduledSyncPaused !== after.scheduledSyncPaused
      )
        await scheduler.refresh();
    }),
  );
  return scheduler;
}
