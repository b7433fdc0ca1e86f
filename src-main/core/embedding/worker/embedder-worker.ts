/**
 * Entry of an embedding worker thread: builds the embedder its WorkerInit names, then embeds the
 * texts the host sends, one request at a time (the thread is the unit of parallelism), and
 * returns the vectors as one transferred buffer. An abort message cancels a request that is
 * running or queued; the embedder sees it through the AbortSignal it is given.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CairnError, toErrorData } from '../../errors';
import { toSearchText } from '../../text/analyzer';
import type { Embedder } from '../embedder';
import type { HostMessage, WorkerEmbedderSpec, WorkerInit, WorkerMessage } from './protocol';
import { WORKER_EMBEDDERS } from './worker-embedders';

const port = parentPort;
if (!port) throw new Error('embedder-worker.ts runs as a worker thread only.');

async function build(spec: WorkerEmbedderSpec): Promise<Embedder> {
  if ('kind' in spec) {
    const factory = WORKER_EMBEDDERS[spec.kind];
    if (!factory) throw new CairnError('INVALID_ARGUMENT', `No worker embedder of kind "${spec.kind}".`);
    return factory(spec.options);
  }
  const module = (await import(spec.module)) as Record<string, unknown>;
  const factory = module[spec.exportName];
  if (typeof factory !== 'function')
    throw new CairnError('INVALID_ARGUMENT', `${spec.module} exports no function "${spec.exportName}".`);
  return (await (factory as (options: unknown) => Embedder | Promise<Embedder>)(spec.options)) as Embedder;
}

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

const controllers = new Map<number, AbortController>();
let queue: Promise<void> = Promise.resolve();

async function embed(embedder: Embedder, request: Extract<HostMessage, { type: 'embed' }>) {
  const { id, texts, kind } = request;
  const controller = controllers.get(id);
  try {
    if (!controller || controller.signal.aborted) throw new CairnError('CANCELLED', 'Cancelled.');
    const result = await embedder.embed(texts, {
      kind,
      signal: controller.signal,
      keywordTexts: request.keywordTexts,
    });
    const dimensions = embedder.space.dimensions;
    if (result.vectors.length !== texts.length)
      throw new CairnError(
        'EMBEDDING_FAILED',
        `The embedder returned ${result.vectors.length} vectors for ${texts.length} inputs.`,
      );
    const out = new Float32Array(texts.length * dimensions);
    result.vectors.forEach((vector, index) => {
      if (vector.length !== dimensions)
        throw new CairnError(
          'EMBEDDING_FAILED',
          `A vector has ${vector.length} dimensions; the space has ${dimensions}.`,
        );
      out.set(vector, index * dimensions);
    });
    send(
      {
        type: 'vectors',
        id,
        buffer: out.buffer,
        count: texts.length,
        tokens: result.tokens,
        calls: result.calls,
        // Analysed here when the embedder did not: this thread, not the caller's, pays for it.
        ...(request.keywordTexts ? { keywordTexts: result.keywordTexts ?? texts.map(toSearchText) } : {}),
      },
      [out.buffer],
    );
  } catch (error) {
    send({ type: 'error', id, error: toErrorData(error) });
  } finally {
    controllers.delete(id);
  }
}

async function start(): Promise<void> {
  const init = workerData as WorkerInit;
  let embedder: Embedder;
  try {
    embedder = await build(init.spec);
  } catch (error) {
    send({ type: 'failed', error: toErrorData(error) });
    return;
  }
  port!.on('message', (message: HostMessage) => {
    if (message.type === 'abort') {
      controllers.get(message.id)?.abort();
      return;
    }
    controllers.set(message.id, new AbortController());
    queue = queue.then(() => embed(embedder, message));
  });
  send({ type: 'ready', space: { ...embedder.space } });
}

void start();
