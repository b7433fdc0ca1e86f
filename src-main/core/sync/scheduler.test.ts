import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Result } from '@shared/errors';
import { fail, ok } from '@shared/errors';
import type { SyncRunView } from '@shared/models';
import { ConnectionRepository } from '../connections/connection-repository';
import { EventBus } from '../events/event-bus';
import { openDatabase, type Db } from '../db/database';
import { SyncScheduler, type SchedulerClock } from './scheduler';
import { emptyCounters, finishRun, startRun } from './sync-runs';

const HOUR = 3_600_000;

/** Time only moves when the test says so; due callbacks run in time order. */
class ManualClock implements SchedulerClock {
  time = Date.parse('2025-03-01T00:00:00.000Z');
  private readonly timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;

  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  pending(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = [...this.timers].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].callback();
    }
    this.time = target;
  }
}

let db: Db;
let repo: ConnectionRepository;
let clock: ManualClock;
let settings: { syncIntervalHours: number; scheduledSyncPaused: boolean };
let started: string[];
let answer: (id: string) => Result<unknown>;
let events: EventBus;
/** What the UI heard (`announce`): the stored next sync of each connection at each announcement. */
let announced: Array<Record<string, string | null>>;

beforeAll(async () => {
  db = await openDatabase();
  repo = new ConnectionRepository(db);
});

afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  await db.query('DELETE FROM connections');
  clock = new ManualClock();
  settings = { syncIntervalHours: 24, scheduledSyncPaused: false };
  started = [];
  answer = () => ok({ runId: 1 });
  events = new EventBus();
  announced = [];
});

function scheduler(): SyncScheduler {
  return new SyncScheduler({
    store: repo,
    settings: async () => settings,
    startSync: async (id) => {
      started.push(id);
      return answer(id);
    },
    events,
    announce: async () => {
      announced.push(Object.fromEntries((await repo.list()).map((view) => [view.name, view.nextSyncAt])));
    },
    clock,
  });
}

async function rag(name: string, times: { last?: number; next?: number } = {}): Promise<string> {
  const { id } = await repo.create({
    platform: 'folder',
    name,
    mode: 'rag',
    config: { path: `/${name}` },
    hasSecrets: false,
  });
  await repo.updateSyncState(id, {
    lastSyncAt: times.last === undefined ? null : new Date(clock.now() + times.last),
    nextSyncAt: times.next === undefined ? null : new Date(clock.now() + times.next),
  });
  return id;
}

async function storedNext(id: string): Promise<number | null> {
  const next = (await repo.get(id)).nextSyncAt;
  return next ? Date.parse(next) - clock.now() : null;
}

describe('SyncScheduler', () => {
  it('syncs overdue and never-synced RAG connections at start, plans the rest, and re-syncs every interval', async () => {
    const overdue = await rag('overdue', { last: -30 * HOUR, next: -6 * HOUR });
    const later = await rag('later', { last: -19 * HOUR, next: 5 * HOUR });
    const fresh = await rag('fresh');
    const lastOnly = await rag('last-only', { last: -20 * HOUR });
    await repo.create({
      platform: 'folder',
      name: 'direct',
      mode: 'direct',
      config: { path: '/d' },
      hasSecrets: false,
    });
    const s = scheduler();
    await s.start();
    await s.whenIdle();
    expect(started).toEqual([overdue, fresh]);
    expect({
      overdue: await storedNext(overdue),
      later: await storedNext(later),
      fresh: await storedNext(fresh),
      lastOnly: await storedNext(lastOnly),
    }).toEqual({
      overdue: 24 * HOUR,
      later: 5 * HOUR,
      fresh: 24 * HOUR,
      lastOnly: 4 * HOUR,
    });
    clock.advance(5 * HOUR);
    await s.whenIdle();
    expect(started).toEqual([overdue, fresh, lastOnly, later]);
    clock.advance(24 * HOUR);
    await s.whenIdle();
    expect(started.slice(4).sort()).toEqual([overdue, fresh, lastOnly, later].sort());
    s.dispose();
  });

  it('keeps exactly one timer per connection however often it re-plans', async () => {
    await rag('a', { next: HOUR });
    await rag('b', { next: 2 * HOUR });
    const s = scheduler();
    await s.start();
    await Promise.all([s.refresh(), s.refresh(), s.refresh()]);
    events.emit('connections.changed', []);
    await s.whenIdle();
    expect(clock.pending()).toBe(2);
    s.dispose();
    expect(clock.pending()).toBe(0);
  });

  it('treats ALREADY_SYNCING as fine and retries other start failures sooner', async () => {
    const busy = await rag('busy', { next: -1 });
    const broken = await rag('broken', { next: -1 });
    answer = (id) =>
      id === busy ? fail('ALREADY_SYNCING', 'already syncing') : fail('SOURCE_UNREACHABLE', 'offline');
    const s = scheduler();
    await s.start();
    await s.whenIdle();
    expect({ busy: await storedNext(busy), broken: await storedNext(broken) }).toEqual({
      busy: 24 * HOUR,
      broken: HOUR,
    });
    s.dispose();
  });

  it('does not retry hourly a connection that cannot sync at all (UNSUPPORTED, e.g. DingTalk without full text)', async () => {
    const id = await rag('titles-only', { next: -1 });
    answer = () => fail('UNSUPPORTED', 'full text is unavailable for this platform');
    const s = scheduler();
    await s.start();
    await s.whenIdle();
    clock.advance(6 * HOUR);
    await s.whenIdle();
    expect({ started, next: await storedNext(id) }).toEqual({ started: [id], next: 18 * HOUR });
    s.dispose();
  });

  it('does nothing while paused and catches up when resumed', async () => {
    const id = await rag('paused', { next: -HOUR });
    settings.scheduledSyncPaused = true;
    const s = scheduler();
    await s.start();
    clock.advance(48 * HOUR);
    await s.whenIdle();
    expect({ started, timers: clock.pending() }).toEqual({ started: [], timers: 0 });
    settings.scheduledSyncPaused = false;
    await s.refresh();
    await s.whenIdle();
    expect(started).toEqual([id]);
    s.dispose();
  });

  it('re-plans from the last sync when the interval changes, and from the end of each finished run', async () => {
    const id = await rag('interval', { last: -2 * HOUR, next: 22 * HOUR });
    const s = scheduler();
    await s.start();
    settings.syncIntervalHours = 6;
    await s.refresh();
    expect(await storedNext(id)).toBe(4 * HOUR);
    const run = (status: SyncRunView['status']): SyncRunView => ({
      id: 1,
      connectionId: id,
      status,
      startedAt: new Date(clock.now() - HOUR).toISOString(),
      finishedAt: new Date(clock.now()).toISOString(),
      counters: emptyCounters(),
      errors: [],
      notes: [],
      skippedKinds: {},
      error: null,
    });
    events.emit('sync.finished', run('succeeded'));
    await s.whenIdle();
    expect(await storedNext(id)).toBe(6 * HOUR);
    events.emit('sync.finished', run('failed'));
    await s.whenIdle();
    expect({ next: await storedNext(id), planned: s.plannedTimes().get(id) }).toEqual({
      next: HOUR,
      planned: clock.now() + HOUR,
    });
    s.dispose();
  });

  it('tells the UI each time it plans, so a card never shows the time planned before a run', async () => {
    const id = await rag('told');
    const s = scheduler();
    await s.start();
    await s.whenIdle();
    // Never synced: planned now, started, then planned an interval after the start.
    expect(announced.map((views) => views['told'])).toEqual([
      new Date(clock.now()).toISOString(),
      new Date(clock.now() + 24 * HOUR).toISOString(),
    ]);
    clock.advance(HOUR);
    const end = clock.now();
    events.emit('sync.finished', {
      id: 1,
      connectionId: id,
      status: 'succeeded',
      startedAt: new Date(end - HOUR).toISOString(),
      finishedAt: new Date(end).toISOString(),
      counters: emptyCounters(),
      errors: [],
      notes: [],
      skippedKinds: {},
      error: null,
    });
    await s.whenIdle();
    expect(announced.at(-1)).toEqual({ told: new Date(end + 24 * HOUR).toISOString() });
    // A re-plan that changes nothing says nothing.
    const told = announced.length;
    await s.refresh();
    expect(announced).toHaveLength(told);
    s.dispose();
  });

  it('after a stopped run: the next sync stays due, this process waits the retry delay (across re-plans), the next start syncs at once', async () => {
    // The run records its times with the database's clock: this test's clock starts at the real time.
    clock.time = Date.now();
    const started0 = clock.time;
    const id = await rag('stopped', { last: -2 * HOUR, next: 22 * HOUR });
    const s = scheduler();
    await s.start();
    // What the engine records when a run is cancelled (Cancel, Ctrl-C, SIGTERM, quitting).
    const { runId, previousStatus } = await startRun(db, id);
    const finished = await finishRun(
      db,
      id,
      runId,
      {
        status: 'cancelled',
        counters: emptyCounters(),
        errors: [],
        notes: [],
        skippedKinds: {},
        error: null,
        timings: {},
      },
      previousStatus,
    );
    clock.time = Math.max(clock.time, Date.parse(finished.finishedAt ?? ''));
    events.emit('sync.finished', finished);
    await s.whenIdle();
    events.emit('connections.changed', []);
    await s.whenIdle();
    const view = await repo.get(id);
    const thisProcess = {
      lastSync: Date.parse(view.lastSyncAt ?? '') - started0,
      nextDueBy: Date.parse(view.nextSyncAt ?? '') <= clock.now(),
      note: view.syncErrorCode,
      planned: s.plannedTimes().get(id),
      started: [...started],
    };
    s.dispose();
    const restarted = scheduler();
    await restarted.start();
    await restarted.whenIdle();
    expect({ thisProcess, nextStart: started }).toEqual({
      thisProcess: {
        lastSync: -2 * HOUR,
        nextDueBy: true,
        note: 'CANCELLED',
        planned: clock.now() + HOUR,
        started: [],
      },
      nextStart: [id],
    });
    restarted.dispose();
  });

  it('drops the timer of a connection that left RAG mode, and nothing runs after dispose', async () => {
    const id = await rag('leaving', { next: HOUR });
    const stays = await rag('staying', { next: HOUR });
    const s = scheduler();
    const dispose = await s.start();
    await repo.setMode(id, 'direct');
    await s.refresh();
    expect([...s.plannedTimes().keys()]).toEqual([stays]);
    dispose();
    clock.advance(48 * HOUR);
    events.emit('connections.changed', []);
    await s.whenIdle();
    expect({ started, timers: clock.pending() }).toEqual({ started: [], timers: 0 });
  });
});
