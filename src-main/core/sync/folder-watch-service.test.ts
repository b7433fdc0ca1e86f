/**
 * FolderWatchService's decisions with a watcher the test drives: the catch-up when watching starts
 * and a change during a running sync. (The real watcher: integration/folder-watch.integration.test.ts.)
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionView, SyncRunView } from '@shared/models';
import { CairnError } from '../errors';
import { EventBus } from '../events/event-bus';
import { silentLogger } from '../logging/logger';
import { emptyCounters } from './sync-runs';
import { FolderWatchService } from './folder-watch-service';

let events: EventBus;
let folder: string;
let running: boolean;
let starts: number;
let change: (paths: string[]) => void;
let service: FolderWatchService;
let stop: () => Promise<void>;

function folderView(): ConnectionView {
  return {
    id: 'notes',
    platform: 'folder',
    name: 'notes',
    mode: 'rag',
    config: { path: folder },
    secretFields: [],
    syncStatus: 'syncing',
    syncError: null,
    syncErrorCode: null,
    lastSyncAt: null,
    nextSyncAt: null,
    documentCount: 0,
    chunkCount: 0,
    limitation: null,
    limitationCode: null,
    experimental: false,
  };
}

function finishedRun(): SyncRunView {
  const now = new Date().toISOString();
  return {
    id: 1,
    connectionId: 'notes',
    status: 'succeeded',
    startedAt: now,
    finishedAt: now,
    counters: emptyCounters(),
    errors: [],
    notes: [],
    skippedKinds: {},
    error: null,
  };
}

/** Runs the service's quiet timers and what they start (fake timers: no waiting on the clock). */
const timersRan = () => vi.runAllTimersAsync();

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  folder = await mkdtemp(join(tmpdir(), 'cairn-watch-unit-'));
  events = new EventBus();
  starts = 0;
  // A sync (the scheduler's first one) already runs when the folder starts being watched.
  running = true;
  service = new FolderWatchService({
    events,
    listConnections: async () => [folderView()],
    startSync: async () => {
      starts += 1;
      if (running) throw new CairnError('ALREADY_SYNCING', 'This connection is already syncing.');
      running = true;
    },
    announce: async () => {},
    watch: async (_root, onChange) => {
      change = onChange;
      return { close: async () => {} };
    },
    logger: silentLogger(),
    quietMs: 0,
    maxWaitMs: 0,
  });
  stop = await service.start();
  await timersRan();
});

afterEach(async () => {
  await stop();
  vi.useRealTimers();
});

function finish(): void {
  running = false;
  events.emit('sync.finished', finishedRun());
}

describe('FolderWatchService', () => {
  it('takes a sync that already runs as the catch-up: no second pass after it', async () => {
    expect(starts).toBe(1); // the catch-up, refused: the sync runs
    finish();
    await timersRan();
    expect(starts).toBe(1);
  });

  it('syncs again after a running sync when the folder changed during it', async () => {
    change([join(folder, 'new.md')]);
    await timersRan();
    expect(starts).toBe(2); // refused again: the change waits for the running sync
    finish();
    await timersRan();
    expect({ starts, running }).toEqual({ starts: 3, running: true });
  });
});
