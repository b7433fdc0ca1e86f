/**
 * Whether the open database can still be used, and the volume it lives on. Postgres PANICs when it
 * cannot write its log (a full disk), and a PGlite instance that PANICked never answers again: its
 * next statement spins in WebAssembly at 100 % CPU, holding the one thread, so nothing (not even a
 * signal handler, nor the ROLLBACK its own transaction() sends after the error) gets to run. This
 * watches every message PGlite's backend answers with; after a PANIC the instance is never entered
 * again: every call fails at once with the reason (so nothing hangs), `close()` only lets go of it,
 * and `onStopped` listeners hear of it. A write that fails for space without a
 * PANIC (Postgres's ERROR, SQLSTATE 53100: the transaction rolled back) becomes DISK_FULL with the
 * volume's free space.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { AppErrorData } from '@shared/errors';
import { CairnError } from '../errors';
import { diskFullError, type DiskSpace } from './disk-space';

/** Postgres's SQLSTATE for "disk full" (errcode_for_file_access maps ENOSPC to it). */
const DISK_FULL_SQLSTATE = '53100';

export class DatabaseHealth {
  private failure: CairnError | null = null;
  private readonly listeners = new Set<(failure: AppErrorData) => void>();

  constructor(
    /** The database's volume; null for an in-memory database. */
    readonly space: DiskSpace | null,
  ) {}

  /** Why the database stopped for good (a PANIC), or null while it works. */
  get stopped(): CairnError | null {
    return this.failure;
  }

  /** Called once, when the database stops for good. Returns its own unsubscribe. */
  onStopped(listener: (failure: AppErrorData) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Throws DISK_FULL unless `bytes` more fit on the volume with the database's reserve still free. */
  ensureSpace(bytes: number, outcome?: string): void {
    if (this.failure) throw this.failure;
    this.space?.ensure(bytes, outcome);
  }

  /** The error a failed call ends with: DISK_FULL for want of space, else as it was. */
  translate(error: unknown): unknown {
    if (this.failure) return this.failure;
    if (this.space && isOutOfSpace(error))
      return diskFullError(this.space.now(), 'the change was not made.', { cause: error });
    return error;
  }

  markStopped(message: string): void {
    if (this.failure) return;
    const outOfSpace = /no space left on device/i.test(message);
    const space = this.space?.now();
    this.failure =
      outOfSpace && space
        ? diskFullError(
            space,
            'the database stopped before the change; the index keeps its last good state. Free some space: Cairn opens it again.',
          )
        : new CairnError('INTERNAL', `The database stopped (${message}); restart Cairn.`);
    const data = { code: this.failure.code, message: this.failure.message };
    for (const listener of [...this.listeners]) {
      try {
        listener(data);
      } catch {
        // A listener's failure is its own.
      }
    }
  }
}

function isOutOfSpace(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === DISK_FULL_SQLSTATE ||
    code === 'ENOSPC' ||
    (typeof message === 'string' && /no space left on device/i.test(message))
  );
}

const healthOf = new WeakMap<object, DatabaseHealth>();
const IN_MEMORY = new DatabaseHealth(null);

/** The health of `db`: the same object for everyone holding the handle (none tracked: in memory). */
export function databaseHealth(db: object): DatabaseHealth {
  return healthOf.get(db) ?? IN_MEMORY;
}

/** What a PGlite instance exposes that this wraps (public methods of PGlite 0.5). */
type Watched = Pick<
  PGlite,
  'query' | 'exec' | 'transaction' | 'close' | 'execProtocol' | 'execProtocolStream' | 'execProtocolRawSync'
>;

/**
 * Watches `db` from now on. Own properties shadow PGlite's methods on this one instance, so every
 * caller holding it goes through them, and so does PGlite itself: each statement of a query ends
 * with a Sync message sent from a `finally` (and a failed transaction with a ROLLBACK), which must
 * not reach a backend that PANICked, so the PANIC is caught on the protocol call that reports it.
 */
export function watchDatabase(db: PGlite, space: DiskSpace | null): DatabaseHealth {
  const health = new DatabaseHealth(space);
  healthOf.set(db, health);
  const target = db as Watched;
  const original = {
    rawSync: db.execProtocolRawSync.bind(db),
    protocol: db.execProtocol.bind(db),
    stream: db.execProtocolStream.bind(db),
    query: db.query.bind(db) as Watched['query'],
    exec: db.exec.bind(db),
    transaction: db.transaction.bind(db) as Watched['transaction'],
    close: db.close.bind(db),
  };
  const notePanic = (error: unknown): never => {
    const { severity, message } = (error ?? {}) as { severity?: unknown; message?: unknown };
    if (severity === 'PANIC') health.markStopped(typeof message === 'string' ? message : 'PANIC');
    throw error;
  };
  // Nothing enters a stopped backend: this is the one door of every message to it.
  target.execProtocolRawSync = (message) => {
    if (health.stopped) throw health.stopped;
    return original.rawSync(message);
  };
  target.execProtocol = (message, options) => original.protocol(message, options).catch(notePanic);
  target.execProtocolStream = (message, options) => original.stream(message, options).catch(notePanic);
  const translated =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        throw health.translate(error);
      }
    };
  target.query = translated(original.query) as Watched['query'];
  target.exec = translated(original.exec);
  target.transaction = translated(original.transaction) as Watched['transaction'];
  // A stopped instance is let go of, not shut down: its shutdown would run the backend again.
  target.close = async () => {
    if (!health.stopped) await original.close();
  };
  return health;
}
