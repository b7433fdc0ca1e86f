/**
 * Kills Cairn at random moments and checks what each kill left (#25: "0 torn / 0 lost" must be
 * re-runnable). Each round picks one moment, runs it in a real child process
 * (src-main/testing/crash-harness-child.ts) on an on-disk data directory, SIGKILLs it after a
 * random delay, and then checks:
 *   - the data directory opens;
 *   - no document is torn: each is whole (its chunks are its text's chunking, a vector each) or absent;
 *   - nothing indexed before is lost: each document holds its text from before or one its file held since;
 *   - the next sync completes, and the index then matches the folder exactly.
 * Moments: a sync of edited notes, a first open (data directory created, folder added and synced),
 * watching the folder while it is edited and serving searches, a re-embed (the built-in embedder's
 * model switched between two models of a local fake embedding server, so the semantic index is
 * rebuilt).
 *   npm run crash-harness -- [--kills 40] [--seed 1] [--notes 120] [--max-delay-ms 2000] [--keep]
 * Prints one line per kill and a summary; exits 1 when anything was torn, lost or failed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createCairn, type CairnInternals } from '../src-main/core/app/create-cairn';
import { silentLogger } from '../src-main/core/logging/logger';
import { normalizeText } from '../src-main/core/text/normalize';
import {
  startFakeEmbeddingServer,
  type FakeEmbeddingServer,
} from '../src-main/core/embedding/fake-embedding-server';
import {
  noteMarkdown,
  notePath,
  readFolder,
  writeFolderCorpus,
  writeNote,
} from '../src-main/testing/folder-corpus';
import {
  indexSnapshot,
  lostDocuments,
  tornDocuments,
  type IndexSnapshot,
} from '../src-main/testing/index-snapshot';
import { syncToEnd, unwrap } from '../src-main/testing/integration-kit';
import { pick, seededRandom } from '../src-main/testing/seeded-random';

const CHILD = fileURLToPath(new URL('../src-main/testing/crash-harness-child.ts', import.meta.url));

export type Moment = 'sync' | 'first-open' | 'watch' | 'reembed';
export const MOMENTS: readonly Moment[] = ['sync', 'first-open', 'watch', 'reembed'];

export interface HarnessOptions {
  kills: number;
  seed: number;
  notes: number;
  /** Upper bound of the random delay between the child's start and its kill. */
  maxDelayMs: number;
  /** The moments in this order, round after round (the short test); random otherwise. */
  sequence?: readonly Moment[];
  keep?: boolean;
  log?: (line: string) => void;
}

export interface HarnessSummary {
  /** Children killed (a child that finished before its kill is not counted). */
  kills: number;
  byMoment: Record<Moment, number>;
  /** Children that finished before the kill came. */
  finishedFirst: number;
  torn: number;
  lost: number;
  /** Data directories that did not open after a kill. */
  unopenable: number;
  /** Next syncs that did not succeed, or left the index different from the folder. */
  failedSyncs: number;
  problems: string[];
}

interface Round {
  moment: Moment;
  delayMs: number;
}

/** Runs the harness in a scratch folder; returns what it found. */
export async function runCrashHarness(options: HarnessOptions): Promise<HarnessSummary> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const random = seededRandom(options.seed);
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-crash-harness-'));
  const notes = join(scratch, 'notes');
  const dataDir = join(scratch, 'data');
  writeFolderCorpus(notes, options.notes);
  const summary: HarnessSummary = {
    kills: 0,
    byMoment: { sync: 0, 'first-open': 0, watch: 0, reembed: 0 },
    finishedFirst: 0,
    torn: 0,
    lost: 0,
    unopenable: 0,
    failedSyncs: 0,
    problems: [],
  };
  // Every text each note's file has held, normalised as the index stores it.
  const texts = new Map<string, Set<string>>();
  const embeddings = await startFakeEmbeddingServer();
  const versions = new Map<number, number>();
  let connectionId = '';
  const remember = (n: number) => {
    const key = `${connectionId}/${notePath(n)}`;
    const text = normalizeText(noteMarkdown(n, versions.get(n) ?? 1));
    texts.set(key, (texts.get(key) ?? new Set()).add(text));
  };
  try {
    const first = await openCairn(dataDir);
    try {
      connectionId = unwrap(
        await first.api.connections.add({
          platform: 'folder',
          name: 'Notes',
          mode: 'rag',
          config: { path: notes },
          secrets: {},
        }),
      ).id;
      await syncToEnd(first, connectionId);
    } finally {
      await first.dispose();
    }
    for (let n = 1; n <= options.notes; n++) remember(n);
    let model = 'bge-m3';
    for (let round = 1; round <= options.kills; round++) {
      const { sequence } = options;
      const plan: Round = {
        moment: sequence?.length ? sequence[(round - 1) % sequence.length]! : pick(random, MOMENTS),
        delayMs: Math.floor(random() * options.maxDelayMs),
      };
      const edit = () => {
        for (let i = 0; i < Math.max(3, Math.floor(options.notes / 10)); i++) {
          const n = 1 + Math.floor(random() * options.notes);
          versions.set(n, (versions.get(n) ?? 1) + 1);
          writeNote(notes, n, versions.get(n));
          remember(n);
        }
      };
      if (plan.moment === 'first-open') {
        await firstOpenRound(scratch, notes, plan, round, summary, log);
        continue;
      }
      const before = await indexSnapshot(dataDir);
      let arg = connectionId;
      if (plan.moment === 'sync') edit();
      if (plan.moment === 'reembed') arg = model = model === 'bge-m3' ? 'text-embedding-v3' : 'bge-m3';
      const killed = await killChild(
        plan,
        [plan.moment, dataDir, arg],
        plan.moment === 'watch' ? edit : null,
        embeddings,
      );
      record(summary, plan, killed, round, log);
      const problems = await checkAfterKill(dataDir, before, texts, summary);
      const recovered = await recover(dataDir, connectionId, notes, summary);
      summary.problems.push(
        ...[...problems, ...recovered].map((p) => `round ${round} (${plan.moment}): ${p}`),
      );
    }
  } finally {
    await embeddings.close();
    if (options.keep) log(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
  log(
    `crash harness: ${summary.kills} kills (${MOMENTS.map((m) => `${m} ${summary.byMoment[m]}`).join(', ')}; ${summary.finishedFirst} finished before the kill), ${summary.torn} torn, ${summary.lost} lost, ${summary.unopenable} not opening, ${summary.failedSyncs} failed next syncs`,
  );
  for (const problem of summary.problems) log(`  ${problem}`);
  return summary;
}

function openCairn(dataDir: string): Promise<CairnInternals> {
  return createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
}

/**
 * Starts the child, waits for "ready" (a first open is killed from its spawn: creating the data
 * directory is the moment), runs `whileRunning` (the watch round's edits), and SIGKILLs it
 * `delayMs` later unless it finished first. Resolves true when the kill ended it.
 */
function killChild(
  plan: Round,
  args: string[],
  whileRunning: (() => void) | null,
  embeddings?: FakeEmbeddingServer,
): Promise<boolean> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...(embeddings
        ? { CAIRN_HARNESS_EMBED_URL: embeddings.baseUrl, CAIRN_HARNESS_EMBED_KEY: embeddings.apiKey }
        : {}),
    },
  });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => void (stderr += data.toString()));
  let timer: NodeJS.Timeout | null = null;
  const arm = () => {
    timer ??= setTimeout(() => child.kill('SIGKILL'), plan.delayMs);
  };
  if (plan.moment === 'first-open') arm();
  child.stdout.on('data', (data: Buffer) => {
    if (!data.toString().includes('ready') || timer) return;
    whileRunning?.();
    arm();
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(true);
      else if (code === 0) resolve(false);
      else reject(new Error(`the ${plan.moment} child failed (${code ?? signal}): ${stderr.slice(-2000)}`));
    }),
  );
}

function record(
  summary: HarnessSummary,
  plan: Round,
  killed: boolean,
  round: number,
  log: (line: string) => void,
) {
  if (killed) {
    summary.kills += 1;
    summary.byMoment[plan.moment] += 1;
  } else summary.finishedFirst += 1;
  log(
    `round ${round}: ${plan.moment}, ${killed ? `killed after ${plan.delayMs} ms` : 'finished before the kill'}`,
  );
}

/** The checks on what the kill left: opens, nothing torn, nothing lost. */
async function checkAfterKill(
  dataDir: string,
  before: IndexSnapshot,
  texts: Map<string, Set<string>>,
  summary: HarnessSummary,
): Promise<string[]> {
  let after: IndexSnapshot;
  try {
    after = await indexSnapshot(dataDir);
  } catch (error) {
    summary.unopenable += 1;
    return [`the data directory did not open: ${String(error)}`];
  }
  const torn = tornDocuments(after);
  const lost = lostDocuments(before, after, texts);
  summary.torn += torn.length;
  summary.lost += lost.length;
  return [...torn.map((key) => `torn: ${key}`), ...lost.map((key) => `lost: ${key}`)];
}

/** The next start: the sync (and a re-embed the kill cut off) completes; the index is the folder. */
async function recover(
  dataDir: string,
  connectionId: string,
  notes: string,
  summary: HarnessSummary,
): Promise<string[]> {
  const problems: string[] = [];
  try {
    const cairn = await openCairn(dataDir);
    try {
      await cairn.whenIdle();
      const run = await syncToEnd(cairn, connectionId);
      if (run.status !== 'succeeded') problems.push(`next sync ${run.status}: ${run.error?.message ?? ''}`);
      await cairn.whenIdle();
    } finally {
      await cairn.dispose();
    }
    const index = await indexSnapshot(dataDir);
    const folder = readFolder(notes);
    for (const [path, text] of folder) {
      const document = index.get(`${connectionId}/${path}`);
      if (document?.content !== normalizeText(text))
        problems.push(`after the next sync ${path} is not the file's text`);
    }
    if (index.size !== folder.size)
      problems.push(`after the next sync the index holds ${index.size} notes, the folder ${folder.size}`);
    const torn = tornDocuments(index);
    summary.torn += torn.length;
    problems.push(...torn.map((key) => `torn after the next sync: ${key}`));
  } catch (error) {
    problems.push(`the next start or sync failed: ${String(error)}`);
  }
  if (problems.length > 0) summary.failedSyncs += 1;
  return problems;
}

/** A first open killed: a fresh data directory each time, which must open (or be made afresh) and sync. */
async function firstOpenRound(
  scratch: string,
  notes: string,
  plan: Round,
  round: number,
  summary: HarnessSummary,
  log: (line: string) => void,
): Promise<void> {
  const dataDir = join(scratch, `first-open-${round}`);
  const killed = await killChild(plan, ['first-open', dataDir, notes], null);
  record(summary, plan, killed, round, log);
  const problems: string[] = [];
  try {
    const cairn = await openCairn(dataDir);
    try {
      await cairn.whenIdle();
      for (const connection of unwrap(await cairn.api.connections.list())) {
        const run = await syncToEnd(cairn, connection.id);
        if (run.status !== 'succeeded') problems.push(`next sync ${run.status}: ${run.error?.message ?? ''}`);
      }
    } finally {
      await cairn.dispose();
    }
    const torn = tornDocuments(await indexSnapshot(dataDir));
    summary.torn += torn.length;
    problems.push(...torn.map((key) => `torn: ${key}`));
  } catch (error) {
    summary.unopenable += 1;
    problems.push(`the data directory did not open: ${String(error)}`);
  }
  if (problems.some((p) => p.startsWith('next sync'))) summary.failedSyncs += 1;
  summary.problems.push(...problems.map((p) => `round ${round} (first-open): ${p}`));
  rmSync(dataDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: '40' },
      seed: { type: 'string', default: String(Date.now() % 100_000) },
      notes: { type: 'string', default: '120' },
      'max-delay-ms': { type: 'string', default: '2000' },
      keep: { type: 'boolean', default: false },
    },
  });
  const seed = Number(values.seed);
  process.stdout.write(`crash harness: seed ${seed}\n`);
  const summary = await runCrashHarness({
    kills: Number(values.kills),
    seed,
    notes: Number(values.notes),
    maxDelayMs: Number(values['max-delay-ms']),
    keep: values.keep,
  });
  process.exitCode = summary.torn + summary.lost + summary.unopenable + summary.failedSyncs > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
