/**
 * Any in-process Embedder, run in a worker thread behind the same Embedder interface: the thread
 * that calls `embed` (the main thread, where PGlite writes and searches run) stays free while the
 * worker computes, and on a machine with two cores both are busy at once. Vectors come back in one
 * transferred buffer (no copy). A worker that dies (an uncaught error, out of memory) fails the
 * requests it held with EMBEDDING_FAILED and is started again by the next request.
 *
 * The worker keeps the process alive only while a request is out, so a CLI run that forgets to
 * dispose it still exits.
 */
import type { Worker } from 'node:worker_threads';
import { CairnError } from '../../errors';
import type { EmbedOptions, EmbedResult, Embedder, EmbeddingSpace } from '../embedder';
import type { HostMessage, WorkerEmbedderSpec, WorkerInit, WorkerMessage } from './protocol';
import { startWorker } from './worker-script';

interface Pending {
  resolve: (result: EmbedResult) => void;
  reject: (error: unknown) => void;
}

interface Running {
  worker: Worker;
  space: EmbeddingSpace;
  pending: Map<number, Pending>;
}

function fromData(error: { code: CairnError['code']; message: string }): CairnError {
  return new CairnError(error.code, error.message);
}

/** Starts a worker for `spec` and waits until its embedder is built (or fails to build). */
async function launch(spec: WorkerEmbedderSpec): Promise<Running> {
  const init: WorkerInit = { spec };
  const worker = startWorker('embedder-worker', import.meta.url, { workerData: init });
  const listeners: {
    message?: (m: WorkerMessage) => void;
    error?: (e: Error) => void;
    exit?: (c: number) => void;
  } = {};
  const space = await new Promise<EmbeddingSpace>((resolve, reject) => {
    listeners.message = (message) => {
      if (message.type === 'ready') resolve(message.space);
      else if (message.type === 'failed') reject(fromData(message.error));
    };
    listeners.error = (error) =>
      reject(new CairnError('EMBEDDING_FAILED', `The embedding worker failed to start: ${error.message}`));
    listeners.exit = (code) =>
      reject(new CairnError('EMBEDDING_FAILED', `The embedding worker exited (${code}) while starting.`));
    worker.on('message', listeners.message).on('error', listeners.error).on('exit', listeners.exit);
  })
    .catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    })
    .finally(() => {
      // Only ours: Worker keeps internal listeners of its own (removeAllListeners would break it).
      worker.off('message', listeners.message!).off('error', listeners.error!).off('exit', listeners.exit!);
    });
  worker.unref();
  return { worker, space, pending: new Map() };
}

export class WorkerEmbedder implements Embedder {
  readonly inProcess = true;
  private running: Promise<Running> | null;
  /** The worker requests go to; a dead one is replaced on the next request. */
  private current: Running | null = null;
  private nextId = 1;
  private disposed = false;

  private constructor(
    private readonly spec: WorkerEmbedderSpec,
    first: Running,
  ) {
    this.space = first.space;
    this.running = Promise.resolve(this.watch(first));
  }

  readonly space: EmbeddingSpace;

  /** Builds the embedder `spec` names inside a new worker thread. */
  static async start(spec: WorkerEmbedderSpec): Promise<WorkerEmbedder> {
    return new WorkerEmbedder(spec, await launch(spec));
  }

  async embed(texts: string[], options?: EmbedOptions): Promise<EmbedResult> {
    if (this.disposed) throw new CairnError('CANCELLED', 'The embedding worker was stopped.');
    if (options?.signal?.aborted) throw new CairnError('CANCELLED', 'Cancelled.');
    if (texts.length === 0) return { vectors: [], tokens: 0, calls: 0 };
    this.running ??= launch(this.spec).then(
      (running) => this.watch(running),
      (error: unknown) => {
        this.running = null;
        throw error;
      },
    );
    const running = await this.running;
    const id = this.nextId++;
    const signal = options?.signal;
    return new Promise<EmbedResult>((resolve, reject) => {
      const onAbort = () => {
        if (!running.pending.delete(id)) return;
        this.post(running, { type: 'abort', id });
        settled();
        reject(new CairnError('CANCELLED', 'Cancelled.'));
      };
      const settled = () => {
        signal?.removeEventListener('abort', onAbort);
        if (running.pending.size === 0) running.worker.unref();
      };
      running.pending.set(id, {
        resolve: (result) => {
          settled();
          resolve(result);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      running.worker.ref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.post(running, {
        type: 'embed',
        id,
        texts,
        kind: options?.kind ?? 'document',
        keywordTexts: options?.keywordTexts ?? false,
      });
    });
  }

  /** Stops the worker; requests still out fail with CANCELLED. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const running = await this.running?.catch(() => null);
    this.running = null;
    this.current = null;
    if (!running) return;
    this.failAll(running, new CairnError('CANCELLED', 'The embedding worker was stopped.'));
    await running.worker.terminate();
  }

  private post(running: Running, message: HostMessage): void {
    running.worker.postMessage(message);
  }

  private watch(running: Running): Running {
    const dimensions = this.space.dimensions;
    running.worker.on('message', (message: WorkerMessage) => {
      if (message.type !== 'vectors' && message.type !== 'error') return;
      const pending = running.pending.get(message.id);
      if (!pending) return; // aborted meanwhile
      running.pending.delete(message.id);
      if (message.type === 'error') {
        pending.reject(fromData(message.error));
        return;
      }
      const all = new Float32Array(message.buffer);
      const vectors = Array.from({ length: message.count }, (_, index) =>
        all.subarray(index * dimensions, (index + 1) * dimensions),
      );
      pending.resolve({
        vectors,
        tokens: message.tokens,
        calls: message.calls,
        ...(message.keywordTexts ? { keywordTexts: message.keywordTexts } : {}),
      });
    });
    this.current = running;
    const died = (reason: string) => {
      if (this.current === running) {
        this.current = null;
        this.running = null;
      }
      this.failAll(running, new CairnError('EMBEDDING_FAILED', `The embedding worker stopped: ${reason}`));
    };
    running.worker.once('error', (error) => died(error.message));
    running.worker.once('exit', (code) => died(`exit code ${code}`));
    return running;
  }

  private failAll(running: Running, error: CairnError): void {
    const pending = [...running.pending.values()];
    running.pending.clear();
    for (const p of pending) p.reject(error);
  }
}
