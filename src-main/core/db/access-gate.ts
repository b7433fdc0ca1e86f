/**
 * Queries first. PGlite runs one statement at a time on its one connection, in arrival order, and
 * a transaction holds the connection until it commits. A search is several statements in a row
 * (connections, spaces, BM25, vectors, rows), so under a sync each of them used to queue behind a
 * whole write transaction: a search paid for several of them (p95 783 ms with 20 searches during
 * a sync, issue #15). Here a large write (a sync's group of documents, an index build) waits
 * until the reads that had started before it asked are done; reads that start while it waits go
 * ahead of it too, except that it never waits for reads younger than itself, so a steady stream
 * of searches cannot starve a sync. A search then waits for at most the one write already running.
 *
 * One gate per database handle (accessGate), so every caller holding the Db shares it without
 * wiring. Ordering only: nothing here measures time (docs/decisions/search-during-sync.md).
 */
import type { Db } from './database';

interface WaitingWrite {
  /** Reads with a smaller ticket started before this write asked; it waits for them. */
  barrier: number;
  start: () => void;
}

export class AccessGate {
  /** Tickets of the reads in progress. */
  private readonly reading = new Set<number>();
  private nextTicket = 0;
  private readonly writes: WaitingWrite[] = [];
  private writing = false;

  /** Reads in progress (tests, diagnostics). */
  get activeReads(): number {
    return this.reading.size;
  }

  /** Writes waiting for their turn (tests, diagnostics; the write batcher keeps groups small then). */
  get waitingWrites(): number {
    return this.writes.length;
  }

  /**
   * True while a read runs or when one ran since the last write started: searches are about, so a
   * writer keeps its transactions short. (A search on a disk-backed PGlite runs start to end in one
   * turn of the event loop, so "one is running" alone would rarely be seen by the writer.)
   */
  get busy(): boolean {
    return this.reading.size > 0 || this.readSinceWrite;
  }

  private readSinceWrite = false;

  /** Runs `work` as a read: it never waits here, and writes that ask meanwhile wait for it. */
  async read<T>(work: () => Promise<T>): Promise<T> {
    const ticket = this.nextTicket++;
    this.reading.add(ticket);
    this.readSinceWrite = true;
    try {
      return await work();
    } finally {
      this.reading.delete(ticket);
      this.release();
    }
  }

  /**
   * Runs `work` as a write: after every read that started before this call, and after the writes
   * queued before it (one write at a time).
   */
  async write<T>(work: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.writes.push({ barrier: this.nextTicket, start });
      this.release();
    });
    try {
      return await work();
    } finally {
      this.writing = false;
      this.release();
    }
  }

  private release(): void {
    const head = this.writes[0];
    if (this.writing || !head) return;
    for (const ticket of this.reading) if (ticket < head.barrier) return;
    this.writes.shift();
    this.writing = true;
    this.readSinceWrite = false;
    head.start();
  }
}

const gates = new WeakMap<Db, AccessGate>();

/** The gate of `db`: the same object for everyone holding this handle. */
export function accessGate(db: Db): AccessGate {
  let gate = gates.get(db);
  if (!gate) {
    gate = new AccessGate();
    gates.set(db, gate);
  }
  return gate;
}
