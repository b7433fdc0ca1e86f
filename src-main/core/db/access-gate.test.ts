import { describe, expect, it } from 'vitest';
import { AccessGate } from './access-gate';

/** A promise and its resolver, so a test decides when each piece of work ends. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets every pending promise callback run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
}

describe('AccessGate', () => {
  it('a write that asks while a read runs starts only after that read ends', async () => {
    const gate = new AccessGate();
    const order: string[] = [];
    const readDone = deferred();
    const read = gate.read(async () => {
      order.push('read start');
      await readDone.promise;
      order.push('read end');
    });
    const write = gate.write(async () => {
      order.push('write');
    });
    await settle();
    expect(order).toEqual(['read start']);
    readDone.resolve();
    await Promise.all([read, write]);
    expect(order).toEqual(['read start', 'read end', 'write']);
  });

  it('a read that starts while a write waits goes ahead of it', async () => {
    const gate = new AccessGate();
    const order: string[] = [];
    const first = deferred();
    const second = deferred();
    const read1 = gate.read(async () => {
      await first.promise;
      order.push('read 1 end');
    });
    const write = gate.write(async () => {
      order.push('write');
    });
    const read2 = gate.read(async () => {
      order.push('read 2 start');
      await second.promise;
      order.push('read 2 end');
    });
    await settle();
    expect(order).toEqual(['read 2 start']);
    expect(gate.waitingWrites).toBe(1);
    first.resolve();
    await Promise.all([read1, write]);
    // The write did not wait for the read younger than itself: no starvation under steady searches.
    expect(order).toEqual(['read 2 start', 'read 1 end', 'write']);
    second.resolve();
    await read2;
  });

  it('writes run one at a time, in the order they asked', async () => {
    const gate = new AccessGate();
    const order: string[] = [];
    const firstDone = deferred();
    const w1 = gate.write(async () => {
      order.push('w1 start');
      await firstDone.promise;
      order.push('w1 end');
    });
    const w2 = gate.write(async () => {
      order.push('w2');
    });
    await settle();
    expect(order).toEqual(['w1 start']);
    firstDone.resolve();
    await Promise.all([w1, w2]);
    expect(order).toEqual(['w1 start', 'w1 end', 'w2']);
  });

  it('a read that starts during a write is not held back by the gate', async () => {
    const gate = new AccessGate();
    const order: string[] = [];
    const writeDone = deferred();
    const write = gate.write(async () => {
      order.push('write start');
      await writeDone.promise;
      order.push('write end');
    });
    await settle();
    const read = gate.read(async () => {
      order.push('read');
    });
    await read;
    expect(order).toEqual(['write start', 'read']);
    writeDone.resolve();
    await write;
  });

  it('a failed read or write releases the gate', async () => {
    const gate = new AccessGate();
    await expect(
      gate.read(async () => {
        throw new Error('read failed');
      }),
    ).rejects.toThrow('read failed');
    await expect(
      gate.write(async () => {
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    expect(gate.activeReads).toBe(0);
    await expect(gate.write(async () => 'ok')).resolves.toBe('ok');
  });

  it('is busy from a read until the next write starts, so a writer sees searches that came and went', async () => {
    const gate = new AccessGate();
    expect(gate.busy).toBe(false);
    await gate.read(async () => {
      expect(gate.busy).toBe(true);
    });
    expect(gate.busy).toBe(true);
    await gate.write(async () => {
      expect(gate.busy).toBe(false);
    });
    expect(gate.busy).toBe(false);
  });
});
