/**
 * Gives back the room that syncs and removals leave behind (issue #25 item 7). A sync rewrites a
 * changed document's rows and a removal deletes them; Postgres keeps the dead rows' room until
 * VACUUM marks it free for the next writes (and gives the empty end of a table back to the disk),
 * and keeps the write-ahead log until a checkpoint (PGlite has no checkpointer of its own, so the
 * log otherwise grew toward its 1 GB bound: db/database.ts WAL_LIMITS). So after writes, once the
 * app is idle (no sync running, nothing written for `idleMs`), every table with dead rows past a
 * threshold is vacuumed, one table per statement, then a checkpoint lets go of the log. Each
 * statement asks the access gate as a write (db/access-gate.ts): searches that started go first,
 * and a search waits for at most the one statement running. Nothing here is needed for
 * correctness: a failure is logged and retried at the next writes.
 */
import { accessGate } from '../db/access-gate';
import type { Db } from '../db/database';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';

export interface SpaceMaintenanceOptions {
  db: Db;
  logger?: Logger;
  /** True while writes are under way (a sync running): maintenance waits for them to end. */
  busy?: () => boolean;
  /** Quiet time after the last write before maintenance runs. @default 60_000 */
  idleMs?: number;
  /** Dead rows a table needs, beside DEAD_FRACTION of its live ones, to be vacuumed. @default 1000 */
  minDeadRows?: number;
}

/** A table is vacuumed once its dead rows reach this fraction of its live ones (or minDeadRows). */
const DEAD_FRACTION = 0.1;

export interface MaintenanceReport {
  /** Tables vacuumed, with the dead rows each had. */
  vacuumed: { table: string; deadRows: number }[];
  checkpoint: boolean;
}

export class SpaceMaintenance {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<MaintenanceReport> | null = null;
  private disposed = false;
  private readonly logger: Logger;

  constructor(private readonly options: SpaceMaintenanceOptions) {
    this.logger = options.logger ?? silentLogger();
  }

  /** Notes that writes happened: maintenance runs once the app has been idle for `idleMs`. */
  schedule(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.options.busy?.()) return this.schedule();
      void this.runNow().catch(() => {});
    }, this.options.idleMs ?? 60_000);
    this.timer.unref?.();
  }

  /** Runs maintenance now (one run at a time; a second call joins the running one). */
  runNow(): Promise<MaintenanceReport> {
    this.running ??= this.maintain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops scheduling and waits for a run under way. */
  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  private async maintain(): Promise<MaintenanceReport> {
    const { db } = this.options;
    const gate = accessGate(db);
    const report: MaintenanceReport = { vacuumed: [], checkpoint: false };
    try {
      const minDead = this.options.minDeadRows ?? 1000;
      // Postgres publishes a backend's row counts at most once a second: a removal just made would
      // not be counted yet. This publishes them at the end of this statement.
      await db.query('SELECT pg_stat_force_next_flush()');
      const tables = await db.query<{ name: string; dead: number; live: number }>(
        `SELECT relname AS name, n_dead_tup::int AS dead, n_live_tup::int AS live
         FROM pg_stat_user_tables WHERE schemaname = 'public' ORDER BY n_dead_tup DESC`,
      );
      for (const table of tables.rows) {
        if (this.disposed) break;
        if (table.dead === 0 || (table.dead < minDead && table.dead < DEAD_FRACTION * table.live)) continue;
        await gate.write(() => db.exec(`VACUUM (ANALYZE) ${quoteIdentifier(table.name)}`));
        report.vacuumed.push({ table: table.name, deadRows: table.dead });
      }
      await gate.write(() => db.exec('CHECKPOINT'));
      report.checkpoint = true;
      if (report.vacuumed.length > 0) this.logger.info('space reclaimed', { vacuumed: report.vacuumed });
      return report;
    } catch (error) {
      this.logger.warn('reclaiming space failed; it is tried again after the next writes', { error });
      throw error;
    }
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
