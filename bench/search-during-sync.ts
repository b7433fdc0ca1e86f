/**
 * `npm run bench -- --only search-during-sync` (child-process side): searches while a sync runs.
 * One process, as in the app: a base index of generated documents, then `concurrency` search loops
 * over the app's HybridSearch, first on the idle index, then while the real SyncEngine indexes more
 * documents with the offline embedder (in its worker thread, as the engine does for a large sync)
 * into the same PGlite. Each search is timed on its own; the two phases use the same queries, so
 * their percentiles compare within one run. Only searches that start and end inside the sync
 * count for the sync phase.
 */
import type { HybridSearch } from '../src-main/core/search/hybrid-search';
import { generateDocument, generateQueries } from './corpus';
import { summarizeLatencies, type LatencySummary } from './metrics';
import { MemoryConnector } from './memory-connector';
import { CONNECTION_ID, hybridSearchFor, openPipeline } from './pipeline';
import { peakRssMb } from './process-stats';

export interface SearchDuringSyncOptions {
  dataDir: string;
  seed: number;
  /** Documents indexed before the measurement. */
  baseDocuments: number;
  /** Documents the measured sync adds. */
  syncDocuments: number;
  /** Searches issued at once in a burst. */
  concurrency: number;
  /** Bursts in the idle phase. */
  idleBursts: number;
}

export interface SearchDuringSyncResult {
  baseDocuments: number;
  baseChunks: number;
  syncDocuments: number;
  syncChunks: number;
  concurrency: number;
  idle: LatencySummary & { wallMs: number };
  duringSync: LatencySummary & { wallMs: number };
  /** The sync under search load: wall time, chunks/s, and its own stage times (run.timings). */
  sync: { wallMs: number; chunksPerS: number; timings: Record<string, number> };
  /** Searches per second over each phase (all loops together). */
  idleSearchesPerS: number;
  syncSearchesPerS: number;
  peakRssMb: number;
}

export const SEARCH_DURING_SYNC_DEFAULTS = {
  baseDocuments: 1_000,
  syncDocuments: 1_500,
  concurrency: 20,
  idleBursts: 10,
} as const;

export async function runSearchDuringSync(options: SearchDuringSyncOptions): Promise<SearchDuringSyncResult> {
  // The default configuration: keyword search only, no vectors.
  const pipeline = await openPipeline({ dataDir: options.dataDir });
  const connector = new MemoryConnector();
  for (let i = 0; i < options.baseDocuments; i++) connector.put(generateDocument(i, { seed: options.seed }));
  log(`indexing the base of ${options.baseDocuments} documents`);
  const base = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
  if (base.status !== 'succeeded') throw new Error(`Base sync ${base.status}`);
  const baseChunks = base.counters.chunksWritten;

  const search = hybridSearchFor(pipeline.db, null);
  const queries = generateQueries(200, options.seed);
  for (const query of generateQueries(10, options.seed + 1)) await search.search({ query });

  log(`idle: ${options.idleBursts} bursts of ${options.concurrency} searches`);
  let next = 0;
  const idleTimes: number[] = [];
  const idleStarted = performance.now();
  for (let b = 0; b < options.idleBursts; b++) {
    idleTimes.push(...(await burst(search, queries, next, options.concurrency)));
    next += options.concurrency;
    await pause();
  }
  const idleWallMs = performance.now() - idleStarted;

  for (let i = options.baseDocuments; i < options.baseDocuments + options.syncDocuments; i++)
    connector.put(generateDocument(i, { seed: options.seed }));
  log(`sync of ${options.syncDocuments} more documents under bursts of ${options.concurrency} searches`);
  next = 0;
  let syncing = true;
  const syncTimes: number[] = [];
  const syncStarted = performance.now();
  let logged = 0;
  const sync = pipeline.engine
    .run({
      connectionId: CONNECTION_ID,
      connector,
      onProgress: (p) => {
        if (p.documentsDone - logged < 250) return;
        logged = p.documentsDone;
        log(
          `  ${p.documentsDone}/${p.documentsTotal} documents after ${((performance.now() - syncStarted) / 1000).toFixed(0)} s, ${syncTimes.length} searches`,
        );
      },
    })
    .finally(() => (syncing = false));
  const loops = (async () => {
    while (syncing) {
      const started = performance.now();
      const times = await burst(search, queries, next, options.concurrency);
      next += options.concurrency;
      // A burst that ended after the sync did is not a burst during the sync.
      if (syncing && started >= syncStarted) syncTimes.push(...times);
      await pause();
    }
  })();
  const run = await sync;
  const syncWallMs = performance.now() - syncStarted;
  await loops;
  if (run.status !== 'succeeded') throw new Error(`Measured sync ${run.status}`);
  log(`sync took ${(syncWallMs / 1000).toFixed(1)} s; ${syncTimes.length} searches during it`);
  const timings =
    (
      await pipeline.db.query<{ timings: Record<string, number> }>(
        'SELECT timings FROM sync_runs WHERE id = $1',
        [run.id],
      )
    ).rows[0]?.timings ?? {};
  await pipeline.db.close();
  return {
    baseDocuments: options.baseDocuments,
    baseChunks,
    syncDocuments: options.syncDocuments,
    syncChunks: run.counters.chunksWritten,
    concurrency: options.concurrency,
    idle: { ...summarizeLatencies(idleTimes), wallMs: idleWallMs },
    duringSync: { ...summarizeLatencies(syncTimes), wallMs: syncWallMs },
    sync: {
      wallMs: syncWallMs,
      chunksPerS: run.counters.chunksWritten / (syncWallMs / 1000),
      timings,
    },
    idleSearchesPerS: idleTimes.length / (idleWallMs / 1000),
    syncSearchesPerS: syncTimes.length / (syncWallMs / 1000),
    peakRssMb: peakRssMb(),
  };
}

/** Between bursts: the sync has the process to itself for a moment, as between a user's searches. */
const PAUSE_MS = 250;

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
}

/** `count` searches issued at once; each one's latency from its issue to its answer. */
function burst(search: HybridSearch, queries: string[], offset: number, count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, (_v, i) => timedSearch(search, queries[(offset + i) % queries.length]!)),
  );
}

/**
 * One search as one request: it starts on a turn of the event loop of its own, as an IPC or HTTP
 * request does, and its latency counts from its issue, so the wait for the searches and sync work
 * ahead of it is part of it. (Back-to-back awaits would chain microtasks only, and on a
 * disk-backed PGlite, whose statements never leave the microtask queue, the sync's worker-thread
 * messages and timers would never run: the searches would starve the sync completely.)
 */
async function timedSearch(search: HybridSearch, query: string): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve) => setImmediate(resolve));
  await search.search({ query, k: 10 });
  return performance.now() - started;
}

function log(message: string): void {
  process.stderr.write(`  [search-during-sync] ${message}\n`);
}
