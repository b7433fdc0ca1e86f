/**
 * feedBounded keeps only a few documents waiting in the queue however many the run has, still
 * runs every one, stops feeding at the cancel, and throws a failure once the rest have settled.
 */
import { setImmediate } from 'node:timers/promises';
import PQueue from 'p-queue';
import { describe, expect, it } from 'vitest';
import { feedBounded } from './bounded-feed';

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

describe('feedBounded', () => {
  it('never holds more than `ahead` documents waiting, and runs every one in order', async () => {
    const queue = new PQueue({ concurrency: 4 });
    let mostWaiting = 0;
    const ran: number[] = [];
    await feedBounded(
      range(1000),
      queue,
      (item) => {
        const task = queue.add(async () => {
          await setImmediate();
          ran.push(item);
        });
        mostWaiting = Math.max(mostWaiting, queue.size);
        return task;
      },
      { ahead: 8 },
    );
    expect(mostWaiting).toBeLessThanOrEqual(8);
    expect(ran).toEqual(range(1000));
  });

  it('queues nothing more once stopped, and waits for what it started', async () => {
    const queue = new PQueue({ concurrency: 2 });
    let stopped = false;
    const finished: number[] = [];
    await feedBounded(
      range(500),
      queue,
      (item) =>
        queue.add(async () => {
          await setImmediate();
          if (item === 20) stopped = true;
          finished.push(item);
        }),
      { ahead: 4, stopped: () => stopped },
    );
    expect(finished).toContain(20);
    // Stopped at item 20 with at most 2 running and 4 waiting: a few more finish, never the rest.
    expect(finished.length).toBeLessThanOrEqual(21 + 6);
    expect(queue.pending + queue.size).toBe(0);
  });

  it('throws the first failure after the others have settled', async () => {
    const queue = new PQueue({ concurrency: 2 });
    const finished: number[] = [];
    const fed = feedBounded(
      range(10),
      queue,
      (item) =>
        queue.add(async () => {
          await setImmediate();
          if (item === 3) throw new Error('document 3 failed');
          finished.push(item);
        }),
      { ahead: 2 },
    );
    await expect(fed).rejects.toThrow('document 3 failed');
    expect(queue.pending).toBe(0);
    expect(finished).toContain(2);
  });
});
