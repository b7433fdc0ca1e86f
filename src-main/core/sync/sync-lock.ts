/**
 * One sync per connection. Two guards, both needed:
 * - an in-process set, because PGlite is ONE Postgres session and advisory locks are re-entrant
 *   within a session (https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS):
 *   a second pg_try_advisory_lock from the same app would succeed;
 * - pg_try_advisory_lock keyed by connection, for the scale path where several app instances
 *   share one PostgreSQL server (docs/DESIGN.md "Scale path"): there it stops a second machine.
 */
import type { Db } from '../db/database';
import { CairnError } from '../errors';

/** First key of the two-int advisory lock space: "Cairn sync" (arbitrary, fixed). */
const SYNC_LOCK_CLASS = 0x4361_726e;

export type ReleaseLock = () => Promise<void>;

export class SyncLock {
  private readonly held = new Set<string>();

  constructor(private readonly db: Db) {}

  isHeld(connectionId: string): boolean {
    return this.held.has(connectionId);
  }

  /** Takes the lock or throws ALREADY_SYNCING at once; never waits. */
  async acquire(connectionId: string): Promise<ReleaseLock> {
    // Claimed synchronously, before any await, so two calls in the same tick cannot both pass.
    if (this.held.has(connectionId))
      throw new CairnError('ALREADY_SYNCING', 'This connection is already syncing.');
    this.held.add(connectionId);
    try {
      const row = await this.db.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
        [SYNC_LOCK_CLASS, connectionId],
      );
      if (!row.rows[0]?.locked)
        throw new CairnError('ALREADY_SYNCING', 'This connection is already syncing elsewhere.');
    } catch (error) {
      this.held.delete(connectionId);
      throw error;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      try {
        await this.db.query('SELECT pg_advisory_unlock($1, hashtext($2))', [SYNC_LOCK_CLASS, connectionId]);
      } finally {
        this.held.delete(connectionId);
      }
    };
  }
}
