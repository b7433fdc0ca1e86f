/**
 * Child-process side of `npm run bench`: index a generated corpus through the real sync (keyword
 * index), then, with a semantic model, build its vectors through the app's semantic index; then
 * (optionally) re-sync it unchanged and with 1% of the documents edited. Runs in its own process
 * so its peak RSS is the pipeline's alone. The data directory is measured at the end, against the
 * corpus' text (storage-breakdown.ts).
 */
import { chunkMarkdown } from '../src-main/core/chunking/chunker';
import type { SyncCounters } from '@shared/models';
import type { Embedder } from '../src-main/core/embedding/embedder';
import { generateDocument } from './corpus';
import { StageClock, TimedEmbedder, TimedStore, timedChunker } from './instrumented';
import { MemoryConnector } from './memory-connector';
import { median } from './metrics';
import { buildSemanticIndex, CONNECTION_ID, openPipeline } from './pipeline';
import { directorySize, peakRssMb, restartPeakRss, sampleMemory, type MemorySample } from './process-stats';
import { storageBreakdown, type StorageBreakdown } from './storage-breakdown';

export interface IndexScenarioOptions {
  dataDir: string;
  /** The semantic model; null: the default configuration (keyword search only). */
  embedder: Embedder | null;
  /** Index documents until the corpus has at least this many chunks … */
  targetChunks?: number;
  /** … or exactly this many documents. */
  documents?: number;
  resync: boolean;
  seed: number;
  /** Documents in flight; undefined = the engine's default. */
  fetchConcurrency?: number;
}

export interface SyncMeasurement {
  wallMs: number;
  cpuMs: number;
  stagesMs: StageClock['ms'];
  counters: SyncCounters;
  fetches: number;
}

/** The semantic index catching up with what a sync wrote (vectors built in the background). */
export interface SemanticMeasurement {
  wallMs: number;
  cpuMs: number;
  /** Time with an embedder call in flight. */
  embedMs: number;
  embedRequests: number;
  vectors: number;
}

export interface IndexScenarioResult {
  documents: number;
  chunks: number;
  corpusChars: number;
  /** UTF-8 bytes of the corpus' Markdown. */
  corpusBytes: number;
  openMs: number;
  fullIndex: SyncMeasurement;
  /** With a semantic model: its vectors for the full index. */
  semanticIndex: SemanticMeasurement | null;
  resyncUnchanged: { runs: SyncMeasurement[]; medianWallMs: number } | null;
  resyncChanged: (SyncMeasurement & { changedDocuments: number }) | null;
  /** Peak RSS of the whole step (full index and re-syncs). */
  peakRssMb: number;
  /** Peak RSS of the process when the full index (sync and HNSW build) ended, before any re-sync. */
  peakRssFullIndexMb?: number;
  /**
   * Peak RSS during the full index alone (sync and semantic index): from its start, after the
   * database's creation and the corpus' generation, whose own transient peaks (a new PGlite data
   * directory peaks at ~760-840 MB during its creation, then drops to ~550) are not indexing.
   * Absent where the high-water mark cannot be restarted (not Linux).
   */
  peakRssSyncMb?: number;
  /** Peak RSS of the process before the full index: opening (creating) the database and the corpus. */
  peakRssBeforeSyncMb?: number;
  /** The process.memoryUsage() sample with the highest RSS (every 10 s), with the stage it was in. */
  memoryAtPeak?: MemorySample | null;
  diskMb: number;
  /** Where the data directory's bytes go, while open at the end. */
  storage: StorageBreakdown;
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
  const openStarted = performance.now();
  const pipeline = await openPipeline({
    dataDir: options.dataDir,
    embedder: options.embedder,
    chunk: timedChunker(clock),
    fetchConcurrency: options.fetchConcurrency,
    wrapStore: (store) => new TimedStore(store, clock),
  });
  const openMs = performance.now() - openStarted;

  const connector = new MemoryConnector();
  let chunks = 0;
  let corpusChars = 0;
  let corpusBytes = 0;
  for (
    let i = 0;
    options.documents !== undefined ? i < options.documents : chunks < (options.targetChunks ?? 0);
    i++
  ) {
    const doc = generateDocument(i, { seed: options.seed });
    const index = i;
    connector.put({ ...doc, markdown: () => generateDocument(index, { seed: options.seed }).markdown });
    corpusChars += doc.markdown.length;
    corpusBytes += Buffer.byteLength(doc.markdown);
    if (options.documents === undefined) chunks += chunkMarkdown(doc.markdown).length;
  }

  /** One sync of the connector (the engine analyses in a worker thread from 250 documents on). */
  async function measuredSync(): Promise<SyncMeasurement> {
    clock.reset();
    const fetchesBefore = connector.fetchCount;
    const regenerateBefore = connector.regenerateMs;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const run = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
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
      counters: run.counters,
      fetches: connector.fetchCount - fetchesBefore,
    };
  }

  /** The semantic index catching up with the queue (nothing to do without a semantic model). */
  async function measuredSemanticIndex(): Promise<SemanticMeasurement | null> {
    if (!options.embedder) return null;
    clock.reset();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const { vectors } = await buildSemanticIndex(pipeline.db, new TimedEmbedder(options.embedder, clock));
    const cpu = process.cpuUsage(cpuBefore);
    return {
      wallMs: performance.now() - started,
      cpuMs: (cpu.user + cpu.system) / 1000,
      embedMs: clock.ms.embed,
      embedRequests: clock.embedRequests,
      vectors,
    };
  }

  const model = options.embedder
    ? `${options.embedder.space.provider}/${options.embedder.space.model}`
    : null;
  log(`indexing ${connector.size} documents, ${model ? `semantic model ${model}` : 'keyword search only'}`);
  phase = 'full sync';
  const peakRssBeforeSyncMb = peakRssMb();
  const syncPeakOwn = restartPeakRss();
  const fullIndex = await measuredSync();
  log(`indexed ${fullIndex.counters.chunksWritten} chunks in ${(fullIndex.wallMs / 1000).toFixed(1)} s`);
  phase = 'semantic index';
  const semanticIndex = await measuredSemanticIndex();
  if (semanticIndex)
    log(`embedded ${semanticIndex.vectors} chunks in ${(semanticIndex.wallMs / 1000).toFixed(1)} s`);
  const peakRssSyncMb = syncPeakOwn ? peakRssMb() : undefined;
  // The process' peak so far: the restart above forgot what came before the sync.
  const peakRssFullIndexMb = Math.max(peakRssBeforeSyncMb, peakRssMb());

  let resyncUnchanged: IndexScenarioResult['resyncUnchanged'] = null;
  let resyncChanged: IndexScenarioResult['resyncChanged'] = null;
  if (options.resync) {
    phase = 're-sync';
    const runs: SyncMeasurement[] = [];
    for (let r = 0; r < UNCHANGED_RUNS; r++) runs.push(await measuredSync());
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
    resyncChanged = { ...(await measuredSync()), changedDocuments };
    await measuredSemanticIndex();
    log(
      `re-sync unchanged ${resyncUnchanged.medianWallMs.toFixed(0)} ms (median of ${UNCHANGED_RUNS}), 1% changed ${resyncChanged.wallMs.toFixed(0)} ms`,
    );
  }

  phase = 'close';
  const counts = await pipeline.store.counts(CONNECTION_ID);
  const storage = await storageBreakdown(pipeline.db, options.dataDir);
  await pipeline.db.close();
  return {
    documents: counts.documents,
    chunks: counts.chunks,
    corpusChars,
    corpusBytes,
    openMs,
    fullIndex,
    semanticIndex,
    resyncUnchanged,
    resyncChanged,
    peakRssMb: Math.max(peakRssFullIndexMb, peakRssMb()),
    peakRssFullIndexMb,
    ...(peakRssSyncMb !== undefined ? { peakRssSyncMb } : {}),
    peakRssBeforeSyncMb,
    memoryAtPeak: memory.stop(),
    diskMb: directorySize(options.dataDir) / 2 ** 20,
    storage,
  };
}

function log(message: string): void {
  process.stderr.write(`  [index] ${message}\n`);
}
