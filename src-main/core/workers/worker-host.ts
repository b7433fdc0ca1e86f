/**
 * Runs a target built by a registered factory (worker-factories.ts) in a worker thread and calls
 * its methods by name: CPU-heavy work (ONNX inference) stays off the main thread, so the UI,
 * searches and database writes go on while it runs. Generic: any in-process embedder can be put
 * behind it (WorkerEmbedder adapts a host to the Embedder interface).
 *
 * The worker starts on the first call. If it dies (an exception escaping its code, or exiting),
 * every pending call fails with EMBEDDING_FAILED and the next call starts a fresh one.
 * Cancelling a call rejects it at once and tells the worker, which drops it from its queue or
 * stops it at its next step.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CairnError } from '../errors';
import type { HostMessage, WireError, WorkerMessage, WorkerRecipe } from './worker-protocol';

export interface WorkerHostOptions {
  /** For errors and logs, e.g. "bge-small-zh-v1.5 (query lane)". */
  name: string;
  recipe: WorkerRecipe;
  /** @default the bundled worker next to this code, else the source bootstrap */
  entry?: string;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

/** The bundled worker beside the running code (Electron build), else the source bootstrap (tsx). */
export function defaultWorkerEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'embedding-worker.js');
  return existsSync(bundled) ? bundled : join(here, 'embedding-worker-bootstrap.mjs');
}

function toError(error: WireError): CairnError {
  return new CairnError(error.cancelled ? 'CANCELLED' : error.code, error.message);
}

export class WorkerHost {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;

  constructor(private readonly options: WorkerHostOptions) {}

  /** Calls `method(...args)` on the worker's target; lower `priority` runs first. */
  async call<T>(
    method: string,
    args: unknown[],
    options: { priority?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) throw new CairnError('CANCELLED', 'Cancelled.');
    if (this.disposed) throw new CairnError('CANCELLED', `${this.options.name} was shut down.`);
    const worker = this.start();
    const id = this.nextId++;
    const result = new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.pending.get(id)?.cleanup();
        this.pending.delete(id);
        worker.postMessage({ type: 'cancel', id } satisfies HostMessage);
        reject(new CairnError('CANCELLED', 'Cancelled.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: resolve as (value: unknown) => void,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
    });
    worker.postMessage({
      type: 'call',
      id,
      method,
      args,
      priority: options.priority ?? 1,
    } satisfies HostMessage);
    return result;
  }

  /** Resolves once the target is built (its files loaded); rejects with the reason it could not be. */
  async whenReady(): Promise<void> {
    this.start();
    await this.ready;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    this.failAll(new CairnError('CANCELLED', `${this.options.name} was shut down.`));
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.entry ?? defaultWorkerEntry(), { name: this.options.name });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'init-failed') {
          const error = toError(message.error);
          reject(error);
          this.stop(worker, error);
        } else this.settle(message);
      });
    });
    // Nobody may be awaiting `ready`; its failure reaches the pending calls through stop().
    this.ready.catch(() => {});
    worker.on('error', (error) =>
      this.stop(worker, new CairnError('EMBEDDING_FAILED', `${this.options.name} failed: ${error.message}`)),
    );
    worker.on('exit', (code) =>
      this.stop(
        worker,
        new CairnError('EMBEDDING_FAILED', `${this.options.name} stopped (exit code ${code}).`),
      ),
    );
    worker.postMessage({ type: 'init', recipe: this.options.recipe } satisfies HostMessage);
    return worker;
  }

  private settle(message: Extract<WorkerMessage, { type: 'result' }>): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    pending.cleanup();
    if (message.ok) pending.resolve(message.value);
    else pending.reject(toError(message.error));
  }

  private stop(worker: Worker, error: CairnError): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = null;
    this.failAll(error);
    void worker.terminate();
  }

  private failAll(error: CairnError): void {
    for (const pending of this.pending.values()) {
      pending.cleanup();
      pending.reject(error);
    }
    this.pending.clear();
  }
}
