/**
 * `npm run bench -- --models [--only id,id] [--quick]`: speed of every catalogued local model on this machine,
 * fp32 and int8, with random-weight ONNX graphs of exactly each model's architecture (built on
 * demand by scripts/models/build_models.py into .cache/bench-models/, never committed: bge-m3
 * fp32 alone is 2.3 GB). Random weights run at the real model's speed; their outputs are noise.
 *
 * Embedders: chunks/s with 1 intra-op thread (the indexing lane on 2 cores), batches of 8, for a
 * 1,500-character Chinese chunk (~1,500 BERT tokens: one 512-token window when truncated, three
 * windows as Cairn embeds it) and an English one (~350 tokens). Rerankers: one query against the
 * fused top-30 at the catalogue's pair length, wall ms. Wall and process CPU time both reported:
 * the machine is shared, and CPU ms per item is the steadier figure.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_CATALOG } from '../src-main/core/models/catalog-entries';
import type { CatalogEntry } from '../src-main/core/models/catalog';
import { createSession, int64Tensor } from '../src-main/core/inference/onnx-runtime';
import { PYTHON, REPO_ROOT } from '../src-main/testing/models/test-models';

/** The build script's architecture name for each catalogue id. */
const ARCH_OF: Record<string, string> = {
  'bge-small-zh-v1.5': 'bge-small-zh-v1.5',
  'multilingual-e5-small': 'multilingual-e5-small',
  'bge-m3': 'bge-m3',
  'mmarco-mminilmv2-l12': 'mmarco-mMiniLMv2-L12-H384',
  'bge-reranker-base': 'bge-reranker-base',
  'bge-reranker-v2-m3': 'bge-reranker-v2-m3',
};

export interface ModelSpeed {
  id: string;
  precision: 'fp32' | 'int8';
  /** Embedders: wall chunks/s and CPU ms per chunk per case; rerankers: ms per query of 30 pairs. */
  cases: {
    name: string;
    tokens: number;
    windows: number;
    perSecond: number | null;
    cpuMsPerItem: number;
    wallMsPerQuery?: number;
  }[];
  buildSeconds: number;
  loadSeconds: number;
  /** When, and under what load (1/5/15 min), this model was measured. */
  measuredAt?: string;
  loadAverage?: number[];
}

function modelFile(arch: string, precision: 'fp32' | 'int8'): { path: string; buildSeconds: number } {
  const dir = join(REPO_ROOT, '.cache', 'bench-models');
  const path = join(dir, arch, precision, 'model.onnx');
  if (existsSync(path)) return { path, buildSeconds: 0 };
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  execFileSync(
    PYTHON,
    [
      join(REPO_ROOT, 'scripts', 'models', 'build_models.py'),
      'arch',
      '--model',
      arch,
      ...(precision === 'int8' ? ['--int8'] : []),
      '--out',
      dir,
    ],
    {
      stdio: 'inherit',
    },
  );
  return { path, buildSeconds: Math.round((Date.now() - started) / 1000) };
}

function randomIds(count: number, seed: number): number[] {
  let x = seed >>> 0 || 1;
  return Array.from({ length: count }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return 5 + ((x >>> 0) % 20_000);
  });
}

async function runBatch(session: Awaited<ReturnType<typeof createSession>>, rows: number[][]): Promise<void> {
  const width = Math.max(...rows.map((r) => r.length));
  const ids = new BigInt64Array(rows.length * width);
  const mask = new BigInt64Array(rows.length * width);
  rows.forEach((row, b) =>
    row.forEach((id, i) => ((ids[b * width + i] = BigInt(id)), (mask[b * width + i] = 1n))),
  );
  const dims = [rows.length, width];
  const feeds: Record<string, Awaited<ReturnType<typeof int64Tensor>>> = {};
  for (const name of session.inputNames)
    feeds[name] = await int64Tensor(
      name === 'input_ids' ? ids : name === 'attention_mask' ? mask : new BigInt64Array(rows.length * width),
      dims,
    );
  await session.run(feeds);
}

/** Runs `work` until `minMs` passed (at least `minRuns`), returning median wall ms and mean CPU ms per run. */
async function measure(
  work: () => Promise<void>,
  minRuns: number,
  minMs: number,
): Promise<{ wallMs: number; cpuMs: number }> {
  await work(); // warm-up
  const walls: number[] = [];
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  while (walls.length < minRuns || performance.now() - started < minMs) {
    const t = performance.now();
    await work();
    walls.push(performance.now() - t);
    if (walls.length >= 50) break;
  }
  const cpu = process.cpuUsage(cpuStart);
  walls.sort((a, b) => a - b);
  return {
    wallMs: walls[Math.floor(walls.length / 2)]!,
    cpuMs: (cpu.user + cpu.system) / 1000 / walls.length,
  };
}

export async function measureModel(
  entry: CatalogEntry,
  precision: 'fp32' | 'int8',
  quick: boolean,
): Promise<ModelSpeed> {
  const arch = ARCH_OF[entry.id];
  if (!arch) throw new Error(`no architecture for ${entry.id}`);
  const { path, buildSeconds } = modelFile(arch, precision);
  const loadStarted = performance.now();
  const session = await createSession(path, 1);
  const loadSeconds = Math.round((performance.now() - loadStarted) / 100) / 10;
  const heavy = entry.id.includes('m3');
  const minRuns = quick || heavy ? 2 : 3;
  const minMs = quick || heavy ? 1_000 : 6_000;
  const cases: ModelSpeed['cases'] = [];
  if (entry.kind === 'embedder') {
    const batch = heavy ? 2 : 8;
    const window = Math.min(entry.maxTokens, 512);
    const plans =
      entry.maxWindows > 1
        ? [
            { name: 'zh 1,500 chars, truncated (1×512)', tokens: window, windows: 1 },
            { name: 'zh 1,500 chars, 3 windows (as shipped)', tokens: window, windows: 3 },
            { name: 'en ~350 tokens', tokens: 350, windows: 1 },
          ]
        : [
            { name: 'zh 1,500 chars, one pass (as shipped)', tokens: 1_100, windows: 1 },
            { name: 'en ~350 tokens', tokens: 350, windows: 1 },
          ];
    for (const plan of plans) {
      const rows = Array.from({ length: batch * plan.windows }, (_, i) => randomIds(plan.tokens, i + 1));
      const result = await measure(
        async () => {
          for (let i = 0; i < rows.length; i += batch) await runBatch(session, rows.slice(i, i + batch));
        },
        minRuns,
        minMs,
      );
      cases.push({
        ...plan,
        perSecond: Number(((batch * 1000) / result.wallMs).toFixed(2)),
        cpuMsPerItem: Number((result.cpuMs / batch).toFixed(1)),
      });
    }
  } else {
    const pairs = Array.from({ length: 30 }, (_, i) => randomIds(entry.maxTokens, i + 7));
    const result = await measure(
      async () => {
        for (let i = 0; i < pairs.length; i += 8) await runBatch(session, pairs.slice(i, i + 8));
      },
      minRuns,
      minMs,
    );
    cases.push({
      name: `30 pairs × ${entry.maxTokens} tokens`,
      tokens: entry.maxTokens,
      windows: 1,
      perSecond: null,
      cpuMsPerItem: Number((result.cpuMs / 30).toFixed(1)),
      wallMsPerQuery: Math.round(result.wallMs),
    });
  }
  await session.release();
  return { id: entry.id, precision, cases, buildSeconds, loadSeconds };
}

export async function runModelBench(
  options: { only?: string[]; quick?: boolean; precisions?: ('fp32' | 'int8')[] } = {},
): Promise<ModelSpeed[]> {
  const results: ModelSpeed[] = [];
  for (const entry of BUILTIN_CATALOG) {
    if (options.only && !options.only.includes(entry.id)) continue;
    for (const precision of options.precisions ?? (['int8', 'fp32'] as const)) {
      const result: ModelSpeed = {
        ...(await measureModel(entry, precision, options.quick ?? false)),
        measuredAt: new Date().toISOString(),
        loadAverage: loadavg().map((n) => Number(n.toFixed(1))),
      };
      results.push(result);
      for (const c of result.cases)
        process.stdout.write(
          `${entry.id.padEnd(22)} ${precision.padEnd(5)} ${c.name.padEnd(40)} ` +
            (c.perSecond !== null
              ? `${String(c.perSecond).padStart(7)} chunks/s`
              : `${String(c.wallMsPerQuery).padStart(7)} ms/query`) +
            `  ${c.cpuMsPerItem} CPU-ms/${c.perSecond !== null ? 'chunk' : 'pair'}  (load ${result.loadSeconds} s)\n`,
        );
    }
  }
  // Merged into the previous file by (model, precision), so the slow models can be measured in a
  // run of their own (--only) without dropping the others' figures.
  const out = join(REPO_ROOT, 'bench-results', 'latest-models.json');
  const previous: ModelSpeed[] = existsSync(out)
    ? (JSON.parse(readFileSync(out, 'utf8')) as { results: ModelSpeed[] }).results
    : [];
  const fresh = (r: ModelSpeed) => !results.some((n) => n.id === r.id && n.precision === r.precision);
  const merged = [...previous.filter(fresh), ...results];
  writeFileSync(
    out,
    `${JSON.stringify({ cores: availableParallelism(), node: process.version, results: merged }, null, 2)}\n`,
  );
  process.stdout.write(`wrote ${out}\n`);
  return results;
}
