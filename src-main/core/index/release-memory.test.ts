/**
 * releaseMemory runs a real full collection in this runtime (no --expose-gc on the command line):
 * an object nothing refers to any more is gone right after it, not at V8's next major GC.
 */
import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { releaseMemory } from './release-memory';

function unreferenced(): WeakRef<object> {
  return new WeakRef({ text: 'x'.repeat(1_000_000).split('') });
}

describe('releaseMemory', () => {
  it('collects garbage at once', async () => {
    const ref = unreferenced();
    // A WeakRef's target stays alive until the job that created it has ended.
    await setImmediate();
    expect(releaseMemory()).toBe(true);
    expect(ref.deref()).toBeUndefined();
  });
});
