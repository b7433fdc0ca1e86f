/**
 * Feeds a sync's documents to its queue a few at a time instead of all at once. Each queued
 * document holds its task's closures and promises until it starts: 86 MB of live JS heap for the
 * 58,768 documents of the 100k-chunk benchmark when every one was queued up front, held through the
 * whole run and raising the level V8 lets the heap grow from (#26 item 6's peak RSS).
 */
import type PQueue from 'p-queue';

/** Documents waiting in the queue beyond those running: enough that a worker never waits for the feed. */
export const FEED_AHEAD = 64;

/**
 * Starts `start(item)` for each item, with at most `ahead` waiting in `queue` at any time, and
 * resolves once every started one has settled. Stops feeding when `stopped()` says so (the run's
 * cancel) or one of them rejects; the first rejection is thrown once the rest have settled.
 */
export async function feedBounded<T>(
  items: Iterable<T>,
  queue: PQueue,
  start: (item: T) => Promise<unknown>,
  options: { ahead?: number; stopped?: () => boolean } = {},
): Promise<void> {
  const ahead = Math.max(1, options.ahead ?? FEED_AHEAD);
  const unsettled = new Set<Promise<void>>();
  /** The first rejection (an array: TypeScript does not see it set from a callback). */
  const failures: unknown[] = [];
  for (const item of items) {
    if (failures.length > 0 || options.stopped?.()) break;
    if (queue.size >= ahead) await queue.onSizeLessThan(ahead);
    // Checked again: the run may have been cancelled while the feed waited.
    if (failures.length > 0 || options.stopped?.()) break;
    const settled: Promise<void> = start(item).then(
      () => {
        unsettled.delete(settled);
      },
      (error: unknown) => {
        unsettled.delete(settled);
        if (failures.length === 0) failures.push(error);
      },
    );
    unsettled.add(settled);
  }
  while (unsettled.size > 0) await Promise.all(unsettled);
  if (failures.length > 0) throw failures[0];
}
