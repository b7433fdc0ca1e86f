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
/**
 * An index is rebuilt once it is this many times the size of its table (rows and their long
 * values) and at least REBUILD_MIN_BYTES. VACUUM frees an index's pages for reuse but never gives
 * them back: after an 18 MB document was killed mid-write the BM25 index kept 62.5 MB over a
 * table that vacuum had emptied. Written whole, that file left it at 0.8x its table; a
 * freshly built HNSW index is 1.46x its table, the grown one (1.97x its rebuilt size) ~2.9x
 * (docs/decisions/large-documents.md).
 */
const REBUILD_RATIO = 2;
/**
 * The BM25 keyword index's own ratio. A bulk sync writes its postings into one large memtable
 * (keyword-index.ts) and spills it into a segment at the end; the memtable's pages stay in the
 * file, free for later writes but never given back. On real-docs (8,680 chunks, 13.1 MB of text)
 * that left the index at 26.3 MB, 1.16x its table, where a rebuild writes 11.5 MB (0.51x); a
 * smaller memtable made it larger still (39.9 MB at 1,024 or 256 pages: more segments, more
 * merges). Rebuilt whole it is 0.5-0.8x its table, so past 1x it carries at least as much dead
 * room as postings.
 */
const KEYWORD_REBUILD_RATIO = 1;
const REBUILD_MIN_BYTES = 16 * 1024 * 1024;

/** One index with its size and its table's (rows and their long values), in bytes. */
export interface IndexSize {
  name: string;
  /** Access method: btree, bm25, hnsw, … */
  method: string;
  bytes: number;
  tableBytes: number;
}

/** The indexes worth rebuilding: far larger than their table, and large enough to matter. */
export function overgrown(indexes: IndexSize[]): { name: string; bytes: number }[] {
  return indexes
    .filter((index) => {
      const ratio = index.method === 'bm25' ? KEYWORD_REBUILD_RATIO : REBUILD_RATIO;
      return index.bytes >= REBUILD_MIN_BYTES && index.bytes > ratio * index.tableBytes;
    })
    .map(({ name, bytes }) => ({ name, bytes }));
}

export interface MaintenanceReport {
  /** Tables vacuumed, with the dead rows each had. */
  vacuumed: { table: string; deadRows: number }[];
  /** Indexes rebuilt, with their size before (bytes). */
  rebuilt: { index: string; bytes: number }[];
  checkpoint: boolean;
}

export class SpaceMaintenance {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<MaintenanceReport> | null = null;
  /** The next run vacuums every table, whatever the statistics say (scheduleAfterCrash). */
  private everyTable = false;
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

  /**
   * After a crash (a run left "running"): what the killed transaction wrote is dead but uncounted,
   * because Postgres discards its row statistics in crash recovery. An 18 MB document killed
   * mid-write left hundreds of MB that way; the next run vacuums every table to give them back.
   */
  scheduleAfterCrash(): void {
    this.everyTable = true;
    this.schedule();
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
    const report: MaintenanceReport = { vacuumed: [], rebuilt: [], checkpoint: false };
    const everyTable = this.everyTable;
    this.everyTable = false;
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
        const fewDead = table.dead === 0 || (table.dead < minDead && table.dead < DEAD_FRACTION * table.live);
        if (fewDead && !everyTable) continue;
        await gate.write(() => db.exec(`VACUUM (ANALYZE) ${quoteIdentifier(table.name)}`));
        report.vacuumed.push({ table: table.name, deadRows: table.dead });
      }
      for (const index of await this.overgrownIndexes()) {
        if (this.disposed) break;
        await gate.write(() => db.exec(`REINDEX INDEX ${quoteIdentifier(index.name)}`));
        report.rebuilt.push({ index: index.name, bytes: index.bytes });
      }
      await gate.write(() => db.exec('CHECKPOINT'));
      report.checkpoint = true;
      if (report.vacuumed.length + report.rebuilt.length > 0)
        this.logger.info('space reclaimed', { vacuumed: report.vacuumed, rebuilt: report.rebuilt });
      return report;
    } catch (error) {
      if (everyTable) this.everyTable = true;
      this.logger.warn('reclaiming space failed; it is tried again after the next writes', { error });
      throw error;
    }
  }

  /** Indexes far larger than their table (after vacuum, so the table's size is its live rows'). */
  private async overgrownIndexes(): Promise<{ name: string; bytes: number }[]> {
    const indexes = await this.options.db.query<{
      name: string;
      method: string;
      bytes: string | number;
      table_bytes: string | number;
    }>(
      `SELECT i.relname AS name, am.amname AS method, pg_relation_size(i.oid) AS bytes, pg_table_size(t.oid) AS table_bytes
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_am am ON am.oid = i.relam
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`,
    );
    return overgrown(
      indexes.rows.map((row) => ({
        name: row.name,
        method: row.method,
        bytes: Number(row.bytes),
        tableBytes: Number(row.table_bytes),
      })),
    );
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
