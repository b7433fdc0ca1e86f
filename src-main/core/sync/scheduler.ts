/**
 * Scheduled incremental syncs: every RAG connection re-syncs every N hours (settings, default 24),
 * pausable; a connection overdue at start syncs right away. It owns one timer per connection,
 * persists each decision in `next_sync_at` (so the UI can show it and a restart keeps it), and only
 * asks `startSync`: the sync engine's advisory lock decides whether a run actually starts.
 */
import type { Result } from '@shared/errors';
import type { SyncRunStatus } from '@shared/models';
import type { EventBus, Unsubscribe } from '../events/event-bus';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';

export interface SchedulerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ScheduledConnection {
  id: string;
  lastSyncAt: Date | null;
  nextSyncAt: Date | null;
}

/** The slice of ConnectionRepository the scheduler needs. */
export interface ScheduleStore {
  /** RAG connections only. */
  syncSchedules(): Promise<ScheduledConnection[]>;
  setNextSyncAt(id: string, at: Date | null): Promise<void>;
}

export interface SyncSchedulerOptions {
  store: ScheduleStore;
  settings: () => Promise<{ syncIntervalHours: number; scheduledSyncPaused: boolean }>;
  /** Starts a background sync; ALREADY_SYNCING is expected and fine. */
  startSync: (connectionId: string) => Promise<Result<unknown>>;
  /** When given, connection changes re-plan and finished runs set the next time. */
  events?: EventBus;
  /**
   * Tells the UI the connections changed (`connections.changed`). A plan made after a run (or a
   * start) changes the time the card shows, and the run's own announcement came before it.
   */
  announce?: () => Promise<void>;
  clock?: SchedulerClock;
  logger?: Logger;
  /** Delay before retrying a connection whose last run failed outright. @default 1 hour (or the interval, if shorter) */
  retryAfterFailureMs?: number;
}

const HOUR_MS = 3_600_000;
// setTimeout holds at most 2^31-1 ms (~24.8 days); longer waits re-arm when the timer fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

export function systemClock(): SchedulerClock {
  return {
    now: () => Date.now(),
    setTimeout: (callback, ms) => {
      const handle = setTimeout(callback, ms);
      handle.unref?.();
      return handle;
    },
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

export class SyncScheduler {
  private readonly clock: SchedulerClock;
  private readonly logger: Logger;
  private readonly timers = new Map<string, { handle: unknown; due: number }>();
  private readonly firing = new Set<string>();
  /**
   * Connections whose last run was stopped in this process (the user cancelled it): not restarted
   * before this time, although their next sync is recorded as due now so that the next start of
   * Cairn catches up at once.
   */
  private readonly heldOff = new Map<string, number>();
  private readonly unsubscribers: Unsubscribe[] = [];
  private tail: Promise<void> = Promise.resolve();
  private lastIntervalMs: number | null = null;
  private disposed = false;

  constructor(private readonly options: SyncSchedulerOptions) {
    this.clock = options.clock ?? systemClock();
    this.logger = options.logger ?? silentLogger();
  }

  /** Plans every RAG connection (overdue ones start now) and returns the dispose function. */
  async start(): Promise<() => void> {
    const events = this.options.events;
    if (events) {
      this.unsubscribers.push(
        events.on('connections.changed', () => void this.refresh()),
        events.on(
          'sync.finished',
          (run) => void this.enqueue(() => this.afterRun(run.connectionId, run.status, run.finishedAt)),
        ),
      );
    }
    await this.refresh();
    return () => this.dispose();
  }

  /** Re-plans after connections or settings changed (interval, pause). Idempotent. */
  refresh(): Promise<void> {
    return this.enqueue(() => this.reconcile());
  }

  /** Resolves when all queued planning work is done (tests, orderly shutdown). */
  async whenIdle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.tail;
      await seen;
    } while (seen !== this.tail);
  }

  /** When each connection's timer is due (ms since epoch). */
  plannedTimes(): Map<string, number> {
    return new Map([...this.timers].map(([id, timer]) => [id, timer.due]));
  }

  dispose(): void {
    this.disposed = true;
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    for (const id of [...this.timers.keys()]) this.disarm(id);
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.tail.then(async () => {
      if (this.disposed) return;
      try {
        await work();
      } catch (error) {
        this.logger.error('scheduler step failed', { error });
      }
    });
    this.tail = run;
    return run;
  }

  private async reconcile(): Promise<void> {
    const { intervalMs, paused } = await this.readSettings();
    const intervalChanged = this.lastIntervalMs !== null && this.lastIntervalMs !== intervalMs;
    this.lastIntervalMs = intervalMs;
    if (paused) {
      for (const id of [...this.timers.keys()]) this.disarm(id);
      return;
    }
    const connections = await this.options.store.syncSchedules();
    const wanted = new Set(connections.map((connection) => connection.id));
    for (const id of [...this.timers.keys()]) if (!wanted.has(id)) this.disarm(id);
    const now = this.clock.now();
    let replanned = false;
    for (const connection of connections) {
      let due: number;
      if (connection.nextSyncAt && !intervalChanged) due = connection.nextSyncAt.getTime();
      else if (connection.lastSyncAt) due = connection.lastSyncAt.getTime() + intervalMs;
      else due = connection.nextSyncAt?.getTime() ?? now; // never synced: sync now
      if (connection.nextSyncAt?.getTime() !== due) {
        await this.options.store.setNextSyncAt(connection.id, new Date(due));
        replanned = true;
      }
      this.arm(connection.id, Math.max(due, this.heldOff.get(connection.id) ?? 0));
    }
    if (replanned) await this.options.announce?.();
  }

  private async fire(id: string): Promise<void> {
    const { intervalMs, paused } = await this.readSettings();
    if (paused || !(await this.isScheduled(id))) return;
    let result: Result<unknown>;
    try {
      result = await this.options.startSync(id);
    } catch (error) {
      result = {
        ok: false,
        error: { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) },
      };
    }
    if (!result.ok && result.error.code === 'NOT_FOUND') return; // removed meanwhile
    // UNSUPPORTED (e.g. DingTalk without full text) will not change by retrying: the connection
    // shows its limitation, and the scheduler asks again only after a full interval.
    const permanent = !result.ok && result.error.code === 'UNSUPPORTED';
    if (!result.ok && result.error.code !== 'ALREADY_SYNCING') {
      const fields = { connectionId: id, code: result.error.code, message: result.error.message };
      if (permanent) this.logger.info('scheduled sync did not start', fields);
      else this.logger.warn('scheduled sync did not start', fields);
    }
    const failed = !result.ok && result.error.code !== 'ALREADY_SYNCING' && !permanent;
    await this.planNext(id, this.clock.now() + (failed ? this.retryDelay(intervalMs) : intervalMs));
  }

  /**
   * Any finished run (scheduled or manual) restarts the countdown from its end. A stopped one did
   * not sync: its next sync stays due (recorded by the run), and here it waits the retry delay.
   */
  private async afterRun(id: string, status: SyncRunStatus, finishedAt: string | null): Promise<void> {
    const { intervalMs, paused } = await this.readSettings();
    if (paused || !(await this.isScheduled(id))) return;
    const end = finishedAt ? Date.parse(finishedAt) : this.clock.now();
    if (status === 'cancelled') {
      const resume = end + this.retryDelay(intervalMs);
      this.heldOff.set(id, resume);
      this.arm(id, resume);
      return;
    }
    this.heldOff.delete(id);
    await this.planNext(id, end + (status === 'failed' ? this.retryDelay(intervalMs) : intervalMs));
  }

  private async isScheduled(id: string): Promise<boolean> {
    return (await this.options.store.syncSchedules()).some((connection) => connection.id === id);
  }

  private async planNext(id: string, due: number): Promise<void> {
    await this.options.store.setNextSyncAt(id, new Date(due));
    this.arm(id, due);
    await this.options.announce?.();
  }

  private retryDelay(intervalMs: number): number {
    return Math.min(this.options.retryAfterFailureMs ?? HOUR_MS, intervalMs);
  }

  /** Exactly one timer (or one queued start) per connection: arming replaces any existing one. */
  private arm(id: string, due: number): void {
    if (this.disposed) return;
    const existing = this.timers.get(id);
    if (existing?.due === due) return;
    if (existing) this.disarm(id);
    if (due <= this.clock.now()) {
      // Overdue: queue the start now, so "overdue at start" syncs before start() settles.
      if (this.firing.has(id)) return;
      this.firing.add(id);
      void this.enqueue(() => this.fire(id).finally(() => this.firing.delete(id)));
      return;
    }
    const delay = Math.min(Math.max(0, due - this.clock.now()), MAX_TIMER_MS);
    const handle = this.clock.setTimeout(() => {
      if (this.timers.get(id)?.handle !== handle) return;
      this.timers.delete(id);
      this.arm(id, due);
    }, delay);
    this.timers.set(id, { handle, due });
  }

  private disarm(id: string): void {
    const timer = this.timers.get(id);
    if (!timer) return;
    this.clock.clearTimeout(timer.handle);
    this.timers.delete(id);
  }

  private async readSettings(): Promise<{ intervalMs: number; paused: boolean }> {
    const settings = await this.options.settings();
    return {
      intervalMs: Math.max(1, settings.syncIntervalHours) * HOUR_MS,
      paused: settings.scheduledSyncPaused,
    };
  }
}
