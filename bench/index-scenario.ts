/**
 * Child-process side of `npm run bench`: index a generated corpus through the real sync, then
 * (optionally) re-sync it unchanged and with 1% of the documents edited. Runs in its own process
 * so its peak RSS is the pipeline's alone.
 */
import { chunkMarkdown } from '../src-main/core/chunking/chunker';
import { silentLogger } from '../src-main/core/logging/logger';
import { offloadEmbedder } from '../src-main/core/sync/offload-embedder';
import type { SyncCounters } from '@shared/models';
import type { Embedder } from '../src-main/core/embedding/embedder';
import { generateDocument } from './corpus';
import { StageClock, TimedEmbedder, TimedStore, timedChunker } from './instrumented';
import { MemoryConnector } from './memory-connector';
import { median } from './metrics';
import { CONNECTION_ID, openPipeline } from './pipeline';
import { directorySize, peakRssMb, sampleMemory, type MemorySample } from './process-stats';
import { VectorFileWriter } from './vector-file';

export interface IndexScenarioOptions {
  dataDir: string;
  embedder: Embedder;
  /** Index documents until the corpus has at least this many chunks … */
  targetChunks?: number;
  /** … or exactly this many documents. */
  documents?: number;
  vectorFile: string | null;
  resync: boolean;
  seed: number;
  /** Documents in flight; undefined = the engine's default. */
  fetchConcurrency?: number;
}

export interface SyncMeasurement {
  wallMs: number;
  cpuMs: number;
  stagesMs: StageClock['ms'];
  embedRequests: number;
  counters: SyncCounters;
  fetches: number;
}

export interface IndexScenarioResult {
  documents: number;
  chunks: number;
  corpusChars: number;
  openMs: number;
  fullIndex: SyncMeasurement;
  resyncUnchanged: { runs: SyncMeasurement[]; medianWallMs: number } | null;
  resyncChanged: (SyncMeasurement & { changedDocuments: number }) | null;
  /** Peak RSS of the whole step (full index and re-syncs). */
  peakRssMb: number;
  /** Peak RSS when the full index (sync and HNSW build) ended, before any re-sync. */
  peakRssFullIndexMb?: number;
  /** The process.memoryUsage() sample with the highest RSS (every 10 s), with the stage it was in. */
  memoryAtPeak?: MemorySample | null;
  diskMb: number;
}

const UNCHANGED_RUNS = 3;
/** How often the memory trace samples (a 100k run takes ~10 minutes). */
const MEMORY_SAMPLE_MS = 10_000;
/** Every 100th document is edited: 1% changed. */
const CHANGE_STRIDE = 100;

export async function runIndexScenario(options: IndexScenarioOptions): Promise<IndexScenarioResult> {
  const clock = new StageClock();
  let phase = 'open';
  const memory = sampleMemory(
    MEMORY_SAMPLE_MS,
    () => `${phase}${clock.busy().length > 0 ? `: ${clock.busy().join('+')}` : ''}`,
    log,
  );
  const vectors = options.vectorFile
    ? new VectorFileWriter(options.vectorFile, options.embedder.space.dimensions)
    : null;
  let timedStore: TimedStore | null = null;
  const openStarted = performance.now();
  const pipeline = await openPipeline({
    dataDir: options.dataDir,
    embedder: options.embedder,
    chunk: timedChunker(clock),
    fetchConcurrency: options.fetchConcurrency,
    wrapStore: (store) => {
      timedStore = new TimedStore(
        store,
        clock,
        vectors ? (id, chunks, v) => vectors.append(id, chunks, v) : null,
      );
      return timedStore;
    },
  });
  const openMs = performance.now() - openStarted;

  const connector = new MemoryConnector();
  let chunks = 0;
  let corpusChars = 0;
  for (
    let i = 0;
    options.documents !== undefined ? i < options.documents : chunks < (options.targetChunks ?? 0);
    i++
  ) {
    const doc = generateDocument(i, { seed: options.seed });
    const index = i;
    connector.put({ ...doc, markdown: () => generateDocument(index, { seed: options.seed }).markdown });
    corpusChars += doc.markdown.length;
    if (options.documents === undefined) chunks += chunkMarkdown(doc.markdown).length;
  }

  let inWorker = false;
  /**
   * One sync of the connector. As the engine does for a sync of `toFetch` documents
   * (offload-embedder.ts, sync-engine.ts), here so the stage clock still sees the embedder (the
   * timed wrapper has no workerRecipe, so the engine does not move it again): the embedder runs in
   * a worker thread from 250 documents on, started inside the timed sync, and the worker is gone
   * before optimize() (the HNSW build), so peak RSS does not count a worker the app has closed.
   */
  async function measuredSync(toFetch: number): Promise<SyncMeasurement> {
    clock.reset();
    const fetchesBefore = connector.fetchCount;
    const regenerateBefore = connector.regenerateMs;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const offloaded = await offloadEmbedder(options.embedder, toFetch, { logger: silentLogger() });
    inWorker ||= offloaded.embedder !== options.embedder;
    const embedder = new TimedEmbedder(offloaded.embedder, clock);
    timedStore!.beforeOptimize = () => offloaded.dispose();
    const run = await pipeline.engine
      .run({ connectionId: CONNECTION_ID, connector, embedder })
      .finally(() => offloaded.dispose());
    // Regenerating the corpus on fetch is synchronous work of the bench on the main thread: taken
    // out of both clocks, so throughput stays comparable with runs that held the corpus in memory.
    const regenerateMs = connector.regenerateMs - regenerateBefore;
    const wallMs = performance.now() - started - regenerateMs;
    const cpu = process.cpuUsage(cpuBefore);
    if (run.status !== 'succeeded')
      throw new Error(`Sync ${run.status}: ${JSON.stringify(run.error ?? run.errors.slice(0, 3))}`);
    return {
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000 - regenerateMs,
      stagesMs: { ...clock.ms },
      embedRequests: clock.embedRequests,
      counters: run.counters,
      fetches: connector.fetchCount - fetchesBefore,
    };
  }

  log(
    `indexing ${connector.size} documents with ${options.embedder.space.provider}/${options.embedder.space.model}`,
  );
  phase = 'full sync';
  const fullIndex = await measuredSync(connector.size);
  log(
    `embedded ${inWorker ? 'in a worker thread' : 'in process'}; peak RSS so far ${peakRssMb().toFixed(0)} MB`,
  );
  const peakRssFullIndexMb = peakRssMb();
  log(`indexed ${fullIndex.counters.chunksEmbedded} chunks in ${(fullIndex.wallMs / 1000).toFixed(1)} s`);

  let resyncUnchanged: IndexScenarioResult['resyncUnchanged'] = null;
  let resyncChanged: IndexScenarioResult['resyncChanged'] = null;
  if (options.resync) {
    phase = 're-sync';
    const runs: SyncMeasurement[] = [];
    for (let r = 0; r < UNCHANGED_RUNS; r++) runs.push(await measuredSync(0));
    resyncUnchanged = { runs, medianWallMs: median(runs.map((m) => m.wallMs)) };
    let changedDocuments = 0;
    for (let i = 0; i < connector.size; i += CHANGE_STRIDE) {
      const edited = generateDocument(i, { seed: options.seed, version: 2 });
      const index = i;
      connector.put({
        ...edited,
        markdown: () => generateDocument(index, { seed: options.seed, version: 2 }).markdown,
      });
      changedDocuments++;
    }
    resyncChanged = { ...(await measuredSync(changedDocuments)), changedDocuments };
    log(
      `re-sync unchanged ${resyncUnchanged.medianWallMs.toFixed(0)} ms (median of ${UNCHANGED_RUNS}), 1% changed ${resyncChanged.wallMs.toFixed(0)} ms`,
    );
  }

  phase = 'close';
  const counts = await pipeline.store.counts(CONNECTION_ID);
  await pipeline.db.close();
  vectors?.close();
  return {
    documents: counts.documents,
    chunks: counts.chunks,
    corpusChars,
    openMs,
    fullIndex,
    resyncUnchanged,
    resyncChanged,
    peakRssMb: peakRssMb(),
    peakRssFullIndexMb,
    memoryAtPeak: memory.stop(),
    diskMb: directorySize(options.dataDir) / 2 ** 20,
  };
}

function log(message: string): void {
  process.stderr.write(`  [index] ${message}\n`);
}
