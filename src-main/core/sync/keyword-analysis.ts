/**
 * The keyword text of each chunk a sync writes (analyzer.ts `toSearchText` of its embedding input),
 * computed before the write. Analysis (normalisation, ICU segmentation of CJK, stemming) is most
 * of a sync's CPU; PGlite writes on the thread that owns it, so a large sync analyses in a worker
 * thread and both run at once on two cores (docs/decisions/indexing-throughput.md). Starting a
 * worker costs a few hundred ms (it loads the analyzer again), so small syncs stay in this thread,
 * and anything that goes wrong starting it falls back to this thread too.
 *
 * A document of more than KEYWORD_TEXTS_MAX_CHUNKS chunks (a 20 MB export has ~11,000) is not
 * analysed here: the store analyses its rows as it writes them, one statement's worth at a time,
 * so its keyword texts never all exist at once.
 */
import { setImmediate } from 'node:timers/promises';
import type { Chunk } from '../chunking/chunker';
import { throwIfAborted } from '../errors';
import { embeddingInput } from '../index/embedding-input';
import type { Logger } from '../logging/logger';
import { toSearchText } from '../text/analyzer';
import { WorkerHost } from '../workers/worker-host';

export interface KeywordAnalyzer {
  /** Each text's keyword text, in order. */
  analyze(texts: string[], signal?: AbortSignal): Promise<string[]>;
}

/** Documents a sync must fetch before its analysis moves to a worker. */
export const DEFAULT_WORKER_MIN_DOCUMENTS = 250;
/** Largest document (in chunks) whose keyword texts are computed before its write: ~7 MB of text. */
export const KEYWORD_TEXTS_MAX_CHUNKS = 4000;
/** Texts per message to the worker: a large document's chunks go in several. */
const WORKER_SLICE = 256;
/** Texts analysed between yields to the event loop (~30 ms of work: progress, IPC and abort stay responsive). */
const YIELD_EVERY = 16;

/** Analysis in this thread. */
export const inThreadAnalyzer: KeywordAnalyzer = {
  async analyze(texts, signal) {
    const out: string[] = [];
    for (const text of texts) {
      if (out.length > 0 && out.length % YIELD_EVERY === 0) await setImmediate();
      throwIfAborted(signal);
      out.push(toSearchText(text));
    }
    return out;
  },
};

/** Analysis in a worker thread (workers/worker-factories.ts 'keyword-analysis'). */
class WorkerAnalyzer implements KeywordAnalyzer {
  constructor(private readonly host: WorkerHost) {}

  async analyze(texts: string[], signal?: AbortSignal): Promise<string[]> {
    const out: string[] = [];
    for (let start = 0; start < texts.length; start += WORKER_SLICE)
      out.push(
        ...(await this.host.call<string[]>('analyze', [texts.slice(start, start + WORKER_SLICE)], {
          signal,
        })),
      );
    return out;
  }
}

export interface SyncAnalyzer {
  analyzer: KeywordAnalyzer;
  dispose(): Promise<void>;
}

/** The analyzer for a sync that will fetch `documents` documents: a worker's for a large one. */
export async function analyzerForSync(
  documents: number,
  options: { minDocuments?: number; logger: Logger },
): Promise<SyncAnalyzer> {
  const inThread: SyncAnalyzer = { analyzer: inThreadAnalyzer, dispose: async () => {} };
  if (documents < (options.minDocuments ?? DEFAULT_WORKER_MIN_DOCUMENTS)) return inThread;
  const host = new WorkerHost({
    name: 'keyword analysis (sync)',
    recipe: { factory: 'keyword-analysis', options: {} },
  });
  try {
    await host.whenReady();
  } catch (error) {
    await host.dispose();
    options.logger.warn('could not start an analysis worker; analysing in this thread', { error });
    return inThread;
  }
  return { analyzer: new WorkerAnalyzer(host), dispose: () => host.dispose() };
}

/**
 * One document's chunks → their keyword texts (the same input the semantic model embeds:
 * title, heading path, text), or undefined for a document too large to hold them all (see above).
 */
export async function analyzeDocument(
  analyzer: KeywordAnalyzer,
  title: string,
  chunks: readonly Chunk[],
  signal?: AbortSignal,
  maxChunks = KEYWORD_TEXTS_MAX_CHUNKS,
): Promise<string[] | undefined> {
  if (chunks.length > maxChunks) return undefined;
  return analyzer.analyze(
    chunks.map((c) => embeddingInput({ title, headingPath: c.headingPath, text: c.text })),
    signal,
  );
}
