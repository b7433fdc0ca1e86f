/**
 * Issue #15's scenarios of their own kind in a bench worker process (`bench-worker.ts
 * search-during-sync --work-dir D --out F [options]`), each writing its result as JSON to --out;
 * and the orchestrating side that runs them in fresh processes and prints their tables.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { markdownTable, num } from './report';
import { runRealText, type RealTextResult } from './real-text-scenario';
import {
  runSearchDuringSync,
  SEARCH_DURING_SYNC_DEFAULTS,
  type SearchDuringSyncResult,
} from './search-during-sync';

export const PERF_STEPS = ['search-during-sync', 'real-text'] as const;
export type PerfStep = (typeof PERF_STEPS)[number];

export function isPerfStep(step: string | undefined): step is PerfStep {
  return (PERF_STEPS as readonly string[]).includes(step ?? '');
}

/** Worker side. */
export async function runPerfStep(step: PerfStep, args: string[]): Promise<void> {
  const d = SEARCH_DURING_SYNC_DEFAULTS;
  const { values } = parseArgs({
    args,
    options: {
      'work-dir': { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'base-documents': { type: 'string', default: String(d.baseDocuments) },
      'sync-documents': { type: 'string', default: String(d.syncDocuments) },
      concurrency: { type: 'string', default: String(d.concurrency) },
      'idle-bursts': { type: 'string', default: String(d.idleBursts) },
      collections: { type: 'string', default: 'cmrc2018,scifact' },
      'max-documents': { type: 'string', default: '3000' },
    },
  });
  const workDir = values['work-dir'];
  if (!workDir || !values.out) throw new Error(`usage: bench-worker ${step} --work-dir D --out F [options]`);
  rmSync(workDir, { recursive: true, force: true });
  const result =
    step === 'real-text'
      ? await runRealText({
          workDir,
          seed: Number(values.seed),
          collections: (values.collections ?? '').split(',').filter(Boolean),
          maxDocuments: Number(values['max-documents']),
        })
      : await runSearchDuringSync({
          dataDir: workDir,
          seed: Number(values.seed),
          baseDocuments: Number(values['base-documents']),
          syncDocuments: Number(values['sync-documents']),
          concurrency: Number(values.concurrency),
          idleBursts: Number(values['idle-bursts']),
        });
  writeFileSync(values.out, JSON.stringify(result, null, 2));
  rmSync(workDir, { recursive: true, force: true });
}

export interface PerfBenchResult {
  searchDuringSync: SearchDuringSyncResult | null;
  realText: RealTextResult | null;
}

/** Orchestrator side: `runWorker` runs bench-worker.ts with the arguments in a fresh process. */
export function runPerfBench(
  runWorker: (args: string[]) => void,
  steps: readonly PerfStep[],
  options: { workDir: string; seed: number },
): PerfBenchResult {
  const step = <T>(name: PerfStep): T => {
    const out = join(options.workDir, `${name}.json`);
    runWorker([
      name,
      '--work-dir',
      join(options.workDir, name),
      '--out',
      out,
      '--seed',
      String(options.seed),
    ]);
    return JSON.parse(readFileSync(out, 'utf8')) as T;
  };
  return {
    searchDuringSync: steps.includes('search-during-sync')
      ? step<SearchDuringSyncResult>('search-during-sync')
      : null,
    realText: steps.includes('real-text') ? step<RealTextResult>('real-text') : null,
  };
}

export function printPerfReport(result: PerfBenchResult): void {
  const s = result.searchDuringSync;
  if (s) {
    console.log(
      `\n### Searches during a sync (${s.concurrency} concurrent searches per burst, a burst every 250 ms after the previous one ends; base ${s.baseDocuments} documents / ${s.baseChunks} chunks, the sync adds ${s.syncDocuments} / ${s.syncChunks})\n`,
    );
    console.log(
      markdownTable(
        ['phase', 'searches', 'p50 ms', 'p95 ms', 'p99 ms', 'searches/s', 'sync wall s', 'sync chunks/s'],
        [
          [
            'idle index',
            num(s.idle.n),
            num(s.idle.p50, 1),
            num(s.idle.p95, 1),
            num(s.idle.p99, 1),
            num(s.idleSearchesPerS, 1),
            '',
            '',
          ],
          [
            'during the sync',
            num(s.duringSync.n),
            num(s.duringSync.p50, 1),
            num(s.duringSync.p95, 1),
            num(s.duringSync.p99, 1),
            num(s.syncSearchesPerS, 1),
            num(s.sync.wallMs / 1000, 1),
            num(s.sync.chunksPerS),
          ],
        ],
      ),
    );
    console.log(
      `\nSync stage times (ms): ${JSON.stringify(s.sync.timings)}; peak RSS ${num(s.peakRssMb)} MB`,
    );
  }
  const r = result.realText;
  if (r) {
    console.log('\n### Offline indexing of real text (shared/eval) beside the generated corpus, same run\n');
    console.log(
      markdownTable(
        [
          'corpus',
          'docs',
          'chunks',
          'chars/chunk',
          'wall s',
          'chunks/s',
          'chunks/CPU-s',
          'chars/CPU-s',
          'chunk s',
          'embed s',
          'write s',
          'HNSW s',
        ],
        r.runs.map((run) => [
          run.corpus,
          num(run.documents),
          num(run.chunks),
          num(run.charsPerChunk),
          num(run.wallMs / 1000, 1),
          num(run.chunksPerS),
          num(run.chunksPerCpuS),
          num(run.charsPerCpuS),
          num(run.stagesMs.chunk / 1000, 1),
          num(run.stagesMs.embed / 1000, 1),
          num(run.stagesMs.write / 1000, 1),
          num(run.stagesMs.optimize / 1000, 1),
        ]),
      ),
    );
  }
}
