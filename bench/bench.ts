/**
 * `npm run bench -- --models [--only <model id,…>] [--precision int8|fp32] [--quick]`: chunks/s of
 * every catalogued local model, fp32 and int8, on random-weight models of their architectures (bench/model-speed.ts).
 * `npm run bench [-- --large] [-- --only <id,id>] [-- --keep]`: speed and scale of the real pipeline on
 * a generated corpus. Each step runs in its own child process (bench-worker.ts) so peak RSS and
 * cold open are honest; this process only orchestrates, prints the tables and writes
 * bench-results/bench-<date>.json + latest-bench.json. It reports numbers; it never fails on one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { IndexScenarioResult } from './index-scenario';
import { machineFacts } from './process-stats';
import type { QueryScenarioResult } from './query-scenario';
import { currentCommit, markdownTable, num, REPO_ROOT, writeResults } from './report';
import { runStartupScenario, type StartupResult } from './startup-scenario';
import { evaluateTargets, printBenchReport, type Scenario, type ScenarioOutcome } from './bench-report';
import { printFolderReport, runFolderBench } from './folder-report';
import {
  PEER_SCENARIOS,
  printPeerReport,
  runPeerBench,
  type PeerBenchResult,
  type PeerScenarioId,
} from './peer-scenario';
import { PERF_STEPS, printPerfReport, runPerfBench } from './perf-steps';

/** Local folders (issue #10): sync, watch latency, a burst, large files, an idle watched tree. */
const FOLDER_SCENARIO = 'folder' as const;

const DEFAULT_SCENARIOS: Scenario[] = [
  { id: 'offline-1k', embedder: 'offline', targetChunks: 1_000, resync: false, queries: true },
  { id: 'offline-10k', embedder: 'offline', targetChunks: 10_000, resync: false, queries: true },
  { id: 'offline-10kdocs', embedder: 'offline', documents: 10_000, resync: true, queries: false },
  { id: 'remote-1k', embedder: 'remote', targetChunks: 1_000, resync: false, queries: false },
  // The semantic configuration beside offline-10k: the same corpus, its vectors, its searches.
  { id: 'remote-10k', embedder: 'remote', targetChunks: 10_000, resync: false, queries: true },
  { id: 'remote-10kdocs', embedder: 'remote', documents: 10_000, resync: true, queries: false },
  // The same remote run with more documents in flight, so the batcher can fill its batches.
  {
    id: 'remote-10k-fetch32',
    embedder: 'remote',
    targetChunks: 10_000,
    resync: false,
    queries: false,
    fetchConcurrency: 32,
  },
];
/** Scenarios of their own kind, run after the index/query ones (default run included). */
const EXTRA_SCENARIOS = ['cli-startup', FOLDER_SCENARIO, ...PERF_STEPS] as const;
/** Cairn and LanceDB on the same corpus, vectors and queries (peer-scenario.ts); 100k only on request. */
const PEER_DEFAULT: PeerScenarioId[] = ['lancedb-10k'];
const PEER_LARGE: PeerScenarioId[] = ['lancedb-100k'];
const LARGE_SCENARIOS: Scenario[] = [
  { id: 'offline-100k', embedder: 'offline', targetChunks: 100_000, resync: true, queries: true },
];

/** The fake remote embedder's latency per request, as the benchmarks issue asks. */
export const REMOTE_LATENCY_MS = 100;
/**
 * The searches of a remote scenario embed their query at a fake server that answers at once: a
 * search's time is then Cairn's own and a local HTTP round trip, not a latency the bench chose.
 */
const QUERY_EMBED_LATENCY_MS = 0;

const WORKER = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));
const FAKE_SERVER = fileURLToPath(new URL('./fake-embedding-process.ts', import.meta.url));

interface FakeServer {
  url: string;
  apiKey: string;
  stop(): Promise<void>;
}

/** Starts the fake embeddings server in its own process and waits for its READY line. */
async function startFakeServer(latencyMs: number): Promise<FakeServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', FAKE_SERVER, String(latencyMs)], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`The fake embeddings server exited with ${code} before it was ready.`)),
    );
  });
  const [, url, apiKey] = ready.split(' ');
  if (!url || !apiKey) throw new Error(`Unexpected line from the fake embeddings server: ${ready}`);
  return {
    url,
    apiKey,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

function runWorker(args: string[], env: Record<string, string> = {}): void {
  // `node --import tsx` runs the TypeScript worker in a plain, fresh Node process.
  const result = spawnSync(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0)
    throw new Error(`bench worker ${args[0]} exited with ${result.status ?? result.signal}`);
}

function runScenario(
  scenario: Scenario,
  options: {
    workDir: string;
    queries: number;
    seed: number;
    keep: boolean;
    server: FakeServer | null;
    /** The server the searches embed their query at (remote scenarios with queries). */
    queryServer?: FakeServer | null;
  },
): ScenarioOutcome {
  const dataDir = join(options.workDir, scenario.id);
  const indexOut = join(options.workDir, `${scenario.id}.index.json`);
  const queryOut = join(options.workDir, `${scenario.id}.query.json`);
  rmSync(dataDir, { recursive: true, force: true });
  const loadAtStart = machineFacts().loadAverage;
  const started = performance.now();
  try {
    runWorker(
      [
        'index',
        '--data-dir',
        dataDir,
        '--embedder',
        scenario.embedder,
        ...(options.server ? ['--embed-url', options.server.url] : []),
        '--seed',
        String(options.seed),
        '--out',
        indexOut,
        ...(scenario.resync ? ['--resync'] : []),
        ...(scenario.targetChunks ? ['--target-chunks', String(scenario.targetChunks)] : []),
        ...(scenario.documents ? ['--documents', String(scenario.documents)] : []),
        ...(scenario.fetchConcurrency ? ['--fetch-concurrency', String(scenario.fetchConcurrency)] : []),
      ],
      options.server ? { CAIRN_BENCH_EMBED_KEY: options.server.apiKey } : {},
    );
    const index = JSON.parse(readFileSync(indexOut, 'utf8')) as IndexScenarioResult;
    let query: QueryScenarioResult | null = null;
    if (scenario.queries) {
      const queryServer = options.queryServer ?? null;
      runWorker(
        [
          'query',
          '--data-dir',
          dataDir,
          '--embedder',
          scenario.embedder,
          ...(queryServer ? ['--embed-url', queryServer.url] : []),
          '--seed',
          String(options.seed),
          '--queries',
          String(options.queries),
          '--out',
          queryOut,
        ],
        queryServer ? { CAIRN_BENCH_EMBED_KEY: queryServer.apiKey } : {},
      );
      query = JSON.parse(readFileSync(queryOut, 'utf8')) as QueryScenarioResult;
    }
    return { scenario, loadAtStart, elapsedS: (performance.now() - started) / 1000, index, query };
  } finally {
    if (!options.keep) {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      large: { type: 'boolean', default: false },
      only: { type: 'string' },
      keep: { type: 'boolean', default: false },
      queries: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      'work-dir': { type: 'string' },
      models: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      precision: { type: 'string' },
    },
  });
  if (values.models) {
    const { runModelBench } = await import('./model-speed');
    const precision = values.precision;
    if (precision !== undefined && precision !== 'int8' && precision !== 'fp32')
      throw new Error(`--precision is int8 or fp32, not ${precision}`);
    await runModelBench({
      ...(values.only ? { only: values.only.split(',') } : {}),
      ...(precision ? { precisions: [precision] } : {}),
      quick: values.quick,
    });
    return;
  }
  const all = [...DEFAULT_SCENARIOS, ...(values.large ? LARGE_SCENARIOS : [])];
  const only = values.only ? new Set(values.only.split(',')) : null;
  const scenarios = only ? [...DEFAULT_SCENARIOS, ...LARGE_SCENARIOS].filter((s) => only.has(s.id)) : all;
  const extras = EXTRA_SCENARIOS.filter((id) => !only || only.has(id));
  const peers = (Object.keys(PEER_SCENARIOS) as PeerScenarioId[]).filter((id) =>
    only ? only.has(id) : PEER_DEFAULT.includes(id) || (values.large && PEER_LARGE.includes(id)),
  );
  if (scenarios.length === 0 && extras.length === 0 && peers.length === 0)
    throw new Error(
      `No scenario matches --only ${values.only}; known: ${[...DEFAULT_SCENARIOS.map((s) => s.id), ...LARGE_SCENARIOS.map((s) => s.id), ...EXTRA_SCENARIOS, ...Object.keys(PEER_SCENARIOS)].join(', ')}`,
    );
  const workDir = values['work-dir'] ?? join(tmpdir(), 'cairn-bench');
  mkdirSync(workDir, { recursive: true });
  const machine = machineFacts();
  const startedAt = new Date().toISOString();
  // Read before running: the workers load the code of this moment.
  const commit = currentCommit();
  console.log(
    `Cairn bench: ${[...scenarios.map((s) => s.id), ...extras, ...peers].join(', ')}; ${machine.cpus} cores, Node ${machine.node}, load ${machine.loadAverage.join(' / ')} (1/5/15 min)`,
  );
  const outcomes: ScenarioOutcome[] = [];
  for (const scenario of scenarios) {
    console.log(`\n▶ ${scenario.id}`);
    const remote = scenario.embedder === 'remote';
    const server = remote ? await startFakeServer(REMOTE_LATENCY_MS) : null;
    const queryServer = remote && scenario.queries ? await startFakeServer(QUERY_EMBED_LATENCY_MS) : null;
    try {
      outcomes.push(
        runScenario(scenario, {
          workDir,
          queries: Number(values.queries),
          seed: Number(values.seed),
          keep: values.keep ?? false,
          server,
          queryServer,
        }),
      );
    } finally {
      await server?.stop();
      await queryServer?.stop();
    }
  }
  let startup: StartupResult | null = null;
  if (extras.includes('cli-startup')) {
    console.log('\n▶ cli-startup');
    startup = await runStartupScenario(workDir, (line) => console.log(`  ${line}`));
  }
  let folder = null;
  if (extras.includes(FOLDER_SCENARIO)) {
    console.log(`\n▶ ${FOLDER_SCENARIO}`);
    folder = runFolderBench((args) => runWorker(args), { workDir, seed: Number(values.seed) });
  }
  const peerResults: PeerBenchResult[] = [];
  for (const id of peers) {
    console.log(`\n▶ ${id}`);
    peerResults.push(
      await runPeerBench(id, {
        workDir,
        queries: Number(values.queries),
        seed: Number(values.seed),
        keep: values.keep ?? false,
        runCairn: (scenario) =>
          runScenario(scenario, {
            workDir,
            queries: Number(values.queries),
            seed: Number(values.seed),
            keep: true,
            server: null,
          }),
        runWorker: (args) => runWorker(args),
      }),
    );
  }
  const perfSteps = PERF_STEPS.filter((id) => extras.includes(id));
  let perf = null;
  if (perfSteps.length > 0) {
    console.log(`\n▶ ${perfSteps.join(', ')}`);
    perf = runPerfBench((args) => runWorker(args), perfSteps, { workDir, seed: Number(values.seed) });
  }
  const targets = evaluateTargets(outcomes);
  const results = {
    kind: 'bench',
    startedAt,
    finishedAt: new Date().toISOString(),
    commit,
    machine,
    loadAverageAtEnd: machineFacts().loadAverage,
    remoteLatencyMs: REMOTE_LATENCY_MS,
    queriesPerScenario: Number(values.queries),
    scenarios: outcomes,
    startup,
    folder,
    peers: peerResults,
    perf,
    targets,
  };
  printBenchReport(results);
  if (startup) printStartup(startup);
  if (folder) printFolderReport(folder);
  for (const peer of peerResults) printPeerReport(peer);
  if (perf) printPerfReport(perf);
  const paths = writeResults('bench', results);
  console.log(`\nResults: ${paths.join(', ')}`);
}

function printStartup(startup: StartupResult): void {
  console.log(`\n### Command start-up (median of ${startup.runs} fresh processes, 3-document index)\n`);
  console.log(
    markdownTable(
      ['command', 'wall ms', 'peak RSS MB', 'vs floor'],
      startup.variants.map((v) => [v.name, num(v.wallMs), num(v.rssMb), `${num(v.vsFloor, 2)}×`]),
    ),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
