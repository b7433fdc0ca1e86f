/**
 * Heavy readers (PDF.js above all) run in a worker thread with a heap limit, so one large file
 * cannot take the app's memory: PDF.js's garbage, collected late by V8 on the main thread (a 17 MB
 * PDF left 290 MB of heap in use, 33 MB after a forced collection), is collected at the worker's
 * limit, and a file that truly needs more kills only the worker. That death, or a reader that
 * sends nothing for `stallMs`, becomes that file's recorded failure (`folder.extract-limit`),
 * never a failed sync. Cancelling terminates the worker.
 *
 * One worker, reused file after file (a folder of small PDFs pays its start-up once), one file at
 * a time; after a file of `recycleAfterBytes` or more it is ended, so the heap it grew is given
 * back, and the next file starts a fresh one. Ended when idle for `idleMs`, and by dispose().
 * Connectors with the default limits share one (sharedExtractorWorkers).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CairnError } from '../../../errors';
import type { LocatedPart } from '../../connector';
import { fileFailure, type Extracted, type ExtractContext } from './extracted';
import type { ExtractReply, ExtractRequest } from './extract-worker-protocol';

export interface ExtractorWorkerOptions {
  /** The worker's V8 heap limit (old generation), MB. @default 128 */
  heapLimitMb?: number;
  /** A file whose reader sends nothing for this long is stopped and failed. @default 120 s */
  stallMs?: number;
  /** After a file this large the worker is ended, giving its heap back. @default 4 MiB */
  recycleAfterBytes?: number;
  /** An idle worker is ended after this long. @default 10 s */
  idleMs?: number;
  /** @default the bundled worker beside the running code, else the source bootstrap */
  entry?: string;
}

interface Job {
  extension: string;
  bytes: Buffer;
  context: ExtractContext;
  resolve: (extracted: Extracted) => void;
  reject: (error: unknown) => void;
}

/** The bundled worker beside the running code (Electron and CLI builds), else the source bootstrap (tsx). */
export function defaultExtractWorkerEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'extract-worker.js');
  return existsSync(bundled) ? bundled : join(here, 'extract-worker-bootstrap.mjs');
}

export class ExtractorWorkers {
  private worker: Worker | null = null;
  private readonly queue: Job[] = [];
  private running = false;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private disposed = false;
  readonly heapLimitMb: number;
  private readonly stallMs: number;
  private readonly recycleAfterBytes: number;
  private readonly idleMs: number;
  /** Workers started so far (tests check reuse and recycling). */
  started = 0;

  /** Whether a worker thread is running now. */
  get alive(): boolean {
    return this.worker !== null;
  }

  constructor(private readonly options: ExtractorWorkerOptions = {}) {
    this.heapLimitMb = options.heapLimitMb ?? 128;
    this.stallMs = options.stallMs ?? 120_000;
    this.recycleAfterBytes = options.recycleAfterBytes ?? 4 * 1024 * 1024;
    this.idleMs = options.idleMs ?? 10_000;
  }

  /** Reads one file in the worker; files queue behind each other. */
  extract(extension: string, bytes: Buffer, context: ExtractContext): Promise<Extracted> {
    if (context.signal?.aborted) return Promise.reject(new CairnError('CANCELLED', 'Cancelled.'));
    if (this.disposed) return Promise.reject(new CairnError('CANCELLED', 'The folder reader was shut down.'));
    return new Promise<Extracted>((resolve, reject) => {
      const job: Job = { extension, bytes, context, resolve, reject };
      this.queue.push(job);
      // A cancel while queued leaves the queue at once.
      context.signal?.addEventListener(
        'abort',
        () => {
          const at = this.queue.indexOf(job);
          if (at !== -1) {
            this.queue.splice(at, 1);
            reject(new CairnError('CANCELLED', 'Cancelled.'));
          }
        },
        { once: true },
      );
      this.pump();
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const job of this.queue.splice(0))
      job.reject(new CairnError('CANCELLED', 'The folder reader was shut down.'));
    await this.end();
  }

  private pump(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) {
      this.scheduleIdle();
      return;
    }
    this.running = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.run(job)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running = false;
        this.pump();
      });
  }

  private scheduleIdle(): void {
    if (!this.worker || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      void this.end();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private async end(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private spawn(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.entry ?? defaultExtractWorkerEntry(), {
      name: 'folder reader',
      resourceLimits: { maxOldGenerationSizeMb: this.heapLimitMb },
    });
    this.started += 1;
    this.worker = worker;
    // Between files nothing listens; a crash then only means the next file starts a fresh worker.
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    return worker;
  }

  private run(job: Job): Promise<Extracted> {
    const { context, bytes } = job;
    const worker = this.spawn();
    worker.ref();
    const id = this.nextId++;
    const kind = job.extension.toUpperCase();
    return new Promise<Extracted>((resolve, reject) => {
      const streamed: LocatedPart[] = [];
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (outcome: () => void, kill: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        context.signal?.removeEventListener('abort', onAbort);
        // Between files an idle worker never keeps the process alive (a CLI run ends when done).
        worker.unref();
        if (kill && this.worker === worker) void this.end();
        outcome();
      };
      const fail = (error: unknown) => finish(() => reject(error), true);
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () =>
            // Not `permanent`: a machine busy enough to stall it may read the file next time.
            fail(
              new CairnError(
                'DOCUMENT_FAILED',
                `${context.externalId}: the ${kind} reader stopped responding (nothing read in ${Math.round(this.stallMs / 1000)} s); it was stopped.`,
                { details: { reason: 'folder.extract-limit' } },
              ),
            ),
          this.stallMs,
        );
      };
      const onMessage = (reply: ExtractReply) => {
        if (reply.id !== id) return;
        arm();
        if (reply.type === 'part') streamed.push(reply.part);
        else if (reply.type === 'failed')
          finish(
            () =>
              reject(new CairnError(reply.error.code, reply.error.message, { details: reply.error.details })),
            false,
          );
        else {
          const parts = reply.parts ? [...streamed, ...reply.parts] : streamed;
          const extracted: Extracted = { title: reply.title };
          if (reply.markdown !== undefined && parts.length === 0) extracted.markdown = reply.markdown;
          else extracted.parts = parts;
          finish(() => resolve(extracted), bytes.byteLength >= this.recycleAfterBytes);
        }
      };
      const onError = (error: Error & { code?: string }) =>
        fail(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? fileFailure(
                'folder.extract-limit',
                `${context.externalId} is too large to extract within ${this.heapLimitMb} MB (the ${kind} reader's memory limit); it is not indexed.`,
                { cause: error },
              )
            : new CairnError(
                'DOCUMENT_FAILED',
                `${context.externalId}: the ${kind} reader failed: ${error.message}`,
                {
                  cause: error,
                },
              ),
        );
      const onExit = (code: number) =>
        fail(
          new CairnError(
            'DOCUMENT_FAILED',
            `${context.externalId}: the ${kind} reader stopped (exit code ${code}).`,
          ),
        );
      const onAbort = () => fail(new CairnError('CANCELLED', 'Cancelled.'));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      context.signal?.addEventListener('abort', onAbort, { once: true });
      arm();
      // PDF.js takes ownership of (and may detach) its buffer: the worker gets a copy, transferred.
      const copy = new Uint8Array(bytes);
      const request: ExtractRequest = {
        type: 'extract',
        id,
        extension: job.extension,
        bytes: copy,
        externalId: context.externalId,
        path: context.path,
        ...(context.maxTextChars !== undefined ? { maxTextChars: context.maxTextChars } : {}),
      };
      worker.postMessage(request, [copy.buffer]);
    });
  }
}

let shared: ExtractorWorkers | null = null;

/**
 * The process's one extract worker with the default limits: a connector is made per sync run,
 * and sharing the worker spares each run that reads a PDF the worker's start (~1-3 s from source
 * on a loaded machine), and keeps concurrent syncs of several folders to one worker's memory.
 * Never disposed: idle, it ends itself after `idleMs` and never keeps the process alive.
 */
export function sharedExtractorWorkers(): ExtractorWorkers {
  shared ??= new ExtractorWorkers();
  return shared;
}
