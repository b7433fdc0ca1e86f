/**
 * The peer-engine scenarios (`npm run bench -- --only lancedb-10k`, `lancedb-100k` with --large or
 * --only): Cairn indexes and queries the generated corpus with the built-in lexical embedder's
 * vectors (which the app no longer builds: issue #26), then a fresh worker loads the same chunks, vectors and queries into LanceDB (lancedb-scenario.ts), and
 * this prints both side by side with their ratios. Skips with a message when LanceDB's native
 * module cannot load (it is a devDependency with per-platform builds).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario, ScenarioOutcome } from './bench-report';
import type { LanceDbScenarioResult } from './lancedb-scenario';
import { comparePeer, peerWins, ratioCell, type PeerRow, type PeerSide } from './peer-compare';
import { markdownTable, num } from './report';

/** Scenario id → target chunks. 10k runs by default; 100k with --large or --only. */
export const PEER_SCENARIOS = { 'lancedb-10k': 10_000, 'lancedb-100k': 100_000 } as const;
export type PeerScenarioId = keyof typeof PEER_SCENARIOS;

export interface PeerBenchResult {
  id: PeerScenarioId;
  /** Why the scenario did not run, or null. */
  skipped: string | null;
  cairn: (PeerSide & { fullIndexWallS: number; exactP50Ms: number; chunks: number }) | null;
  lancedb: LanceDbScenarioResult | null;
  comparison: PeerRow[];
}

/** LanceDB loads (its native build for this platform is installed), or the reason it does not. */
export async function lanceDbUnavailable(): Promise<string | null> {
  try {
    await import('@lancedb/lancedb');
    return null;
  } catch (error) {
    return `@lancedb/lancedb (a devDependency with a native build per platform) does not load here: ${firstSentence(error)}. Install dev dependencies with \`npm ci\` on a supported platform to run it.`;
  }
}

/** The loader's first sentence ("Cannot find native binding"), without its advice for npm users. */
function firstSentence(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split(/\.(\s|$)/)[0]!.trim();
}

export async function runPeerBench(
  id: PeerScenarioId,
  options: {
    workDir: string;
    queries: number;
    seed: number;
    keep: boolean;
    /** bench.ts' runner of a Cairn index + query scenario (keeps its data directory and vectors). */
    runCairn: (scenario: Scenario) => ScenarioOutcome;
    runWorker: (args: string[]) => void;
  },
): Promise<PeerBenchResult> {
  const unavailable = await lanceDbUnavailable();
  if (unavailable) {
    console.log(`  skipped: ${unavailable}`);
    return { id, skipped: unavailable, cairn: null, lancedb: null, comparison: [] };
  }
  const scenario: Scenario = {
    id: `${id}-cairn`,
    embedder: 'lexical',
    targetChunks: PEER_SCENARIOS[id],
    resync: false,
    queries: true,
  };
  const dataDir = join(options.workDir, scenario.id);
  const lanceDir = join(options.workDir, `${id}.lance`);
  const out = join(options.workDir, `${id}.json`);
  try {
    const outcome = options.runCairn(scenario);
    options.runWorker([
      'lancedb',
      '--data-dir',
      dataDir,
      '--lance-dir',
      lanceDir,
      '--queries',
      String(options.queries),
      '--seed',
      String(options.seed),
      '--out',
      out,
    ]);
    const lancedb = JSON.parse(readFileSync(out, 'utf8')) as LanceDbScenarioResult;
    const cairn = cairnSide(outcome);
    return { id, skipped: null, cairn, lancedb, comparison: comparePeer(cairn, lanceSide(lancedb)) };
  } finally {
    if (!options.keep) for (const path of [dataDir, lanceDir]) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Cairn's build is its store + index stages (chunk writes, BM25, HNSW), not chunking or embedding.
 * Its latencies are parts of the app's own searches (query-scenario.ts): the vector side is the
 * index statement (the vector channel with the hits' rows and term checks, an upper bound on the
 * channel alone), the keyword side the BM25 scans.
 */
export function cairnSide(outcome: ScenarioOutcome): NonNullable<PeerBenchResult['cairn']> {
  const { index, query } = outcome;
  if (!query?.exact || query.recallAt10 === null)
    throw new Error(`${outcome.scenario.id} ran no vector queries.`);
  return {
    buildS: (index.fullIndex.stagesMs.write + index.fullIndex.stagesMs.optimize) / 1000,
    vectorP50Ms: query.indexStatement.p50,
    recallAt10: query.recallAt10,
    keywordP50Ms: query.keywordScans.p50,
    diskMb: index.diskMb,
    fullIndexWallS: index.fullIndex.wallMs / 1000,
    exactP50Ms: query.exact.p50,
    chunks: index.chunks,
  };
}

export function lanceSide(result: LanceDbScenarioResult): PeerSide {
  const compared = result.vector[0]!;
  return {
    buildS: result.build.totalMs / 1000,
    vectorP50Ms: compared.latency.p50,
    recallAt10: compared.recallAt10,
    keywordP50Ms: result.keyword.p50,
    diskMb: result.diskMb,
  };
}

export function printPeerReport(result: PeerBenchResult): void {
  const { cairn, lancedb } = result;
  if (!cairn || !lancedb) {
    console.log(`\n### ${result.id}: skipped (${result.skipped})`);
    return;
  }
  console.log(
    `\n### Cairn vs LanceDB ${lancedb.version} (${result.id}: ${cairn.chunks.toLocaleString('en')} chunks, ${lancedb.dimensions}-d vectors, ${lancedb.queries} queries, same run)\n`,
  );
  const digits = (measure: PeerRow['measure']) =>
    measure === 'recallAt10' ? 3 : measure === 'buildS' ? 1 : 2;
  console.log(
    markdownTable(
      ['measure', 'Cairn', 'LanceDB', 'better by'],
      result.comparison.map((row) => [
        row.label,
        num(row.cairn, digits(row.measure)),
        num(row.peer, digits(row.measure)),
        ratioCell(row),
      ]),
    ),
  );
  console.log(
    `\nLanceDB vector index: ${lancedb.vectorIndex}; build = add ${num(lancedb.build.addMs)} ms + vector index ${num(lancedb.build.vectorIndexMs)} ms + FTS ${num(lancedb.build.keywordIndexMs)} ms.`,
  );
  console.log(
    `Cairn build = its write + optimize stages during the full index (${num(cairn.fullIndexWallS, 1)} s wall with chunking and embedding); exact scan p50 ${num(cairn.exactP50Ms, 2)} ms.`,
  );
  console.log(
    markdownTable(
      ['LanceDB vector query', 'p50 ms', 'p95 ms', 'recall@10'],
      lancedb.vector.map((v) => [v.name, num(v.latency.p50, 2), num(v.latency.p95, 2), num(v.recallAt10, 3)]),
    ),
  );
  console.log(
    `LanceDB FTS on Cairn's analysed text: ${lancedb.keyword.queriesWithHits}/${lancedb.queries} queries with hits, p50 ${num(lancedb.keywordCandidates.p50, 2)} ms for the top ${lancedb.keywordCandidates.limit} (Cairn's keyword statement returns that many as vector candidates); on the raw text with its default tokenizer: p50 ${num(lancedb.keywordRawText.p50, 2)} ms, ${lancedb.keywordRawText.queriesWithHits}/${lancedb.queries} with hits.`,
  );
  const wins = peerWins(result.comparison);
  if (wins.length > 0)
    console.log(`LanceDB is ahead on: ${wins.join(', ')} (README "Side by side with LanceDB" says why).`);
}
