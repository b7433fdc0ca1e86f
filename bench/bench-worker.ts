/**
 * One benchmark scenario in a fresh process (spawned by bench.ts): `index` or `query`, options as
 * --name value pairs, result as JSON to --out. A separate process per step is what makes peak
 * RSS and "cold open" honest.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import type { Embedder } from '../src-main/core/embedding/embedder';
import { runIndexScenario } from './index-scenario';
import { EMBEDDING_PRESETS } from '../src-main/core/embedding/presets';
import { OpenAiCompatibleEmbedder } from '../src-main/core/embedding/openai-embedder';
import { runQueryScenario } from './query-scenario';
import { runFolderStep } from './folder-worker';
import { runLanceDbStep } from './lancedb-worker';
import { isPerfStep, runPerfStep } from './perf-steps';
import { runStorageScenario } from './storage-scenario';

/**
 * 'offline' is the default configuration (no semantic model: keyword search, no vectors); 'lexical'
 * the built-in lexical embedder the app no longer uses (the LanceDB comparison's vectors). 'remote' is the real OpenAI-compatible embedder with the DashScope preset (the design's default
 * provider: 10 inputs per request, 5 requests in flight) against the fake server at `url`
 * (its key comes in CAIRN_BENCH_EMBED_KEY, not on the command line).
 */
function benchEmbedder(kind: string, url: string | undefined, apiKey: string | undefined): Embedder | null {
  if (kind === 'offline') return null;
  if (kind === 'lexical') return new BuiltinEmbedder();
  if (kind !== 'remote' || !url)
    throw new Error(`Unknown embedder "${kind}" (offline, lexical, or remote with --embed-url).`);
  return new OpenAiCompatibleEmbedder({
    ...EMBEDDING_PRESETS.dashscope,
    provider: 'dashscope',
    baseUrl: url,
    apiKey,
  });
}

async function main(): Promise<void> {
  // The folder scenario's steps take their own options (folder-worker.ts).
  const step = process.argv[2];
  if (step?.startsWith('folder')) return runFolderStep(step, process.argv.slice(3));
  if (step === 'lancedb') return runLanceDbStep(process.argv.slice(3));
  if (isPerfStep(step)) return runPerfStep(step, process.argv.slice(3));
  if (step === 'storage') return runStorageStep(process.argv.slice(3));
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      embedder: { type: 'string', default: 'offline' },
      'embed-url': { type: 'string' },
      'target-chunks': { type: 'string' },
      documents: { type: 'string' },
      resync: { type: 'boolean', default: false },
      'fetch-concurrency': { type: 'string' },
      queries: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
    },
  });
  const command = positionals[0];
  const dataDir = values['data-dir'];
  if (!dataDir || !values.out || (command !== 'index' && command !== 'query'))
    throw new Error('usage: bench-worker index|query --data-dir D --out F [options]');
  const embedder = benchEmbedder(
    values.embedder ?? 'offline',
    values['embed-url'],
    process.env.CAIRN_BENCH_EMBED_KEY,
  );
  const seed = Number(values.seed);
  const result =
    command === 'index'
      ? await runIndexScenario({
          dataDir,
          embedder,
          seed,
          resync: values.resync ?? false,
          ...(values['fetch-concurrency'] ? { fetchConcurrency: Number(values['fetch-concurrency']) } : {}),
          ...(values['target-chunks'] ? { targetChunks: Number(values['target-chunks']) } : {}),
          ...(values.documents ? { documents: Number(values.documents) } : {}),
        })
      : await runQueryScenario({
          dataDir,
          embedder,
          seed,
          queries: Number(values.queries),
        });
  writeFileSync(values.out, JSON.stringify(result, null, 2));
}

async function runStorageStep(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      corpus: { type: 'string' },
      'data-dir': { type: 'string' },
      'work-dir': { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (!values.corpus || !values['data-dir'] || !values['work-dir'] || !values.out)
    throw new Error(
      'usage: bench-worker storage --corpus <collection dir> --data-dir D --work-dir W --out F',
    );
  const result = await runStorageScenario({
    corpus: values.corpus,
    dataDir: values['data-dir'],
    workDir: values['work-dir'],
  });
  writeFileSync(values.out, JSON.stringify(result, null, 2));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
