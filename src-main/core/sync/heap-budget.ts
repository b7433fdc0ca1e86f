/**
 * Keeps a large sync's JS heap near what is live. Each document in flight (its text, chunks and
 * keyword texts) waits for PGlite long enough to be promoted to V8's old generation, where it is
 * garbage once written; V8 collects that generation only when it has grown well past what the last
 * collection left, so at 100k chunks the heap climbed ~7 MB/s to ~470 MB of mostly written
 * documents before a major GC, and the pages it had taken stayed in the RSS (peak 1,025 MB against
 * #26's 800 MB budget). The sync instead runs a full collection itself each time the heap has grown
 * by `growthBytes` since the last one: the heap stayed at 130-230 MB and the peak RSS was 900 MB,
 * at 594 chunks per CPU second against 575 before (docs/benchmarks.md).
 */
import { getHeapStatistics } from 'node:v8';
import { releaseMemory } from '../index/release-memory';

/** Heap growth (bytes) a sync allows itself past what the last collection left. */
export const SYNC_HEAP_GROWTH_BYTES = 64 * 2 ** 20;

export interface HeapBudgetOptions {
  /** @default SYNC_HEAP_GROWTH_BYTES */
  growthBytes?: number;
  /** Bytes in use on the JS heap. @default V8's used_heap_size */
  usedHeap?: () => number;
  /** A full collection; false when the runtime offers none. @default releaseMemory */
  collect?: () => boolean;
}

export class HeapBudget {
  /** Collections this budget ran (diagnostics, tests). */
  collections = 0;
  private readonly growthBytes: number;
  private readonly usedHeap: () => number;
  private readonly collect: () => boolean;
  /** What was in use after the last collection (or when the sync started). */
  private baseline: number;
  /** The runtime offers no collection: checking is then pointless. */
  private unavailable = false;

  constructor(options: HeapBudgetOptions = {}) {
    this.growthBytes = options.growthBytes ?? SYNC_HEAP_GROWTH_BYTES;
    this.usedHeap = options.usedHeap ?? (() => getHeapStatistics().used_heap_size);
    this.collect = options.collect ?? releaseMemory;
    this.baseline = this.usedHeap();
  }

  /** Called as documents are written: collects when the heap has outgrown the budget. True if it did. */
  check(): boolean {
    if (this.unavailable || this.usedHeap() - this.baseline < this.growthBytes) return false;
    if (!this.collect()) {
      this.unavailable = true;
      return false;
    }
    this.collections += 1;
    this.baseline = this.usedHeap();
    return true;
  }
}
