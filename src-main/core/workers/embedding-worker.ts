/**
 * The worker-thread side of WorkerHost: builds one target from a registered factory, then runs
 * the host's calls one at a time, lowest `priority` first (a search's query before an indexing
 * batch that arrived earlier). A cancelled call leaves the queue, or stops at its next step.
 *
 * Entry points: embedding-worker-bootstrap.mjs from source (tsx), or the bundled
 * out/main/embedding-worker.js in the Electron build (electron.vite.config.ts).
 */
import { parentPort } from 'node:worker_threads';
import { isErrorCode } from '@shared/errors';
import { CairnError, toErrorData } from '../errors';
import { WORKER_FACTORIES } from './worker-factories';
import type { HostMessage, WireError, WorkerMessage, WorkerTarget } from './worker-protocol';

interface Pending {
  id: number;
  method: string;
  args: unknown[];
  priority: number;
}

const port = parentPort;
if (!port) throw new Error('embedding-worker.ts runs only as a worker thread');

let target: WorkerTarget | null = null;
const queue: Pending[] = [];
const cancelled = new Set<number>();
let running = false;

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

function wireError(error: unknown, id?: number): WireError {
  const data = toErrorData(error);
  const wire: WireError = { code: isErrorCode(data.code) ? data.code : 'INTERNAL', message: data.message };
  if (id !== undefined && cancelled.has(id)) wire.cancelled = true;
  return wire;
}

/** Float32Array results (an array of them, or one under `vectors`) move instead of being copied. */
function transferables(value: unknown): ArrayBuffer[] {
  const vectors = Array.isArray(value) ? value : (value as { vectors?: unknown } | null)?.vectors;
  if (!Array.isArray(vectors)) return [];
  return vectors.flatMap((item) =>
    item instanceof Float32Array && item.byteOffset === 0 && item.byteLength === item.buffer.byteLength
      ? [item.buffer as ArrayBuffer]
      : [],
  );
}

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (;;) {
      queue.sort((a, b) => a.priority - b.priority || a.id - b.id);
      const next = queue.shift();
      if (!next) return;
      if (cancelled.delete(next.id)) {
        send({
          type: 'result',
          id: next.id,
          ok: false,
          error: { ...wireError(new CairnError('CANCELLED', 'Cancelled.')), cancelled: true },
        });
        continue;
      }
      try {
        const method = target?.[next.method];
        if (typeof method !== 'function')
          throw new CairnError('INTERNAL', `The worker target has no method "${next.method}".`);
        const shouldStop = () => cancelled.has(next.id);
        const value = await (method as (...args: unknown[]) => Promise<unknown>).apply(target, [
          ...next.args,
          shouldStop,
        ]);
        send({ type: 'result', id: next.id, ok: true, value }, transferables(value));
      } catch (error) {
        send({ type: 'result', id: next.id, ok: false, error: wireError(error, next.id) });
      } finally {
        cancelled.delete(next.id);
      }
    }
  } finally {
    running = false;
  }
}

port.on('message', (message: HostMessage) => {
  if (message.type === 'init') {
    const factory = WORKER_FACTORIES[message.recipe.factory];
    if (!factory) {
      send({
        type: 'init-failed',
        error: { code: 'INTERNAL', message: `Unknown worker factory "${message.recipe.factory}".` },
      });
      return;
    }
    factory(message.recipe.options).then(
      (built) => {
        target = built;
        send({ type: 'ready' });
        void drain();
      },
      (error: unknown) => send({ type: 'init-failed', error: wireError(error) }),
    );
  } else if (message.type === 'call') {
    queue.push({ id: message.id, method: message.method, args: message.args, priority: message.priority });
    if (target) void drain();
  } else if (message.type === 'cancel') {
    cancelled.add(message.id);
  }
});
