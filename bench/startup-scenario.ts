/**
 * `npm run bench -- --only cli-startup`: how long a `cairn` command takes from a fresh process,
 * side by side in one run with its floor: a bare Node process that opens the same PGlite
 * directory with the same extensions and runs one query (what any command that opens the data
 * directory must do). Each variant runs RUNS times, interleaved so load changes hit all of them
 * alike; medians of wall time and peak RSS (the child's own process.resourceUsage at exit).
 * A second floor runs the same script under the V8 flag a one-shot read sets for itself (no
 * optimising recompilation of PGlite's WebAssembly, src-main/cli/open-cairn.ts): what is left
 * over it is Cairn's own work.
 * The CLI is built for the run (scripts/build-cli.mjs) into .cache/, so it measures this code.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ONE_SHOT_V8_FLAGS } from '../src-main/cli/open-cairn';
import { median } from './metrics';
import { REPO_ROOT } from './report';

export const STARTUP_RUNS = 5;
const QUERY = '住宿';

export interface StartupVariant {
  name: string;
  /** Median wall time from spawn to exit, ms. */
  wallMs: number;
  /** Median peak RSS, MB. */
  rssMb: number;
  /** wallMs / the floor's wallMs. */
  vsFloor: number;
}

export interface StartupResult {
  runs: number;
  variants: StartupVariant[];
}

/** Prints the child's peak RSS (KB) on its last stderr line, whatever the command does. */
const RSS_PROBE = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmaxrss '+process.resourceUsage().maxRSS+'\\n'))`;

function timed(args: string[], env: NodeJS.ProcessEnv): { ms: number; rssKb: number; stdout: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', RSS_PROBE, ...args], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${args.join(' ')} exited with ${result.status ?? result.signal}: ${result.stderr}`);
  const rss = /maxrss (\d+)\s*$/.exec(result.stderr);
  return { ms, rssKb: rss ? Number(rss[1]) : NaN, stdout: result.stdout };
}

function floorScript(dbDir: string): string {
  return `import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
const db = await PGlite.create({ dataDir: ${JSON.stringify(dbDir)}, extensions: { vector, pg_textsearch } });
const { rows } = await db.query('SELECT count(*)::int AS n FROM chunks');
if (!(rows[0].n > 0)) throw new Error('empty index');
await db.close();
`;
}

/** Starts `cairn serve` on the data directory and resolves once it listens; returns its stop. */
async function startInstance(cli: string, env: NodeJS.ProcessEnv): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('Press Ctrl+C')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`cairn serve exited with ${code} before listening`)));
  });
  return () =>
    new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGINT');
    });
}

export async function runStartupScenario(
  workDir: string,
  log: (line: string) => void,
): Promise<StartupResult> {
  const root = join(workDir, 'cli-startup');
  const cliDir = join(REPO_ROOT, '.cache', 'bench-cli');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'notes'), { recursive: true });
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs', '--outdir', cliDir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`build-cli failed: ${build.stderr}`);
  const cli = join(cliDir, 'cli.js');
  const floor = join(REPO_ROOT, '.cache', 'bench-floor.mjs');
  const dataDir = join(root, 'data');
  // Only the variables a command needs: CAIRN_* from the bench's own shell must not leak in.
  const env = { PATH: process.env.PATH ?? '', HOME: root, CAIRN_DATA_DIR: dataDir };
  try {
    const documents = {
      'travel.md': `# 差旅\n\n出差${QUERY}标准：一线城市每晚不超过 600 元，其他城市 400 元。\n`,
      'deploy.md': '# Deploy\n\nRoll out the canary first, then watch the error rate.\n',
      'meetings.md': '# 会议纪要\n\n周一例会：讨论第三季度预算与招聘计划。\n',
    };
    for (const [name, text] of Object.entries(documents)) writeFileSync(join(root, 'notes', name), text);
    timed([cli, 'add-folder', join(root, 'notes'), '--name', 'Notes'], env);
    timed([cli, 'sync', 'Notes'], env);
    writeFileSync(floor, floorScript(join(dataDir, 'db')));

    const variants: [string, string[], NodeJS.ProcessEnv][] = [
      ['floor: bare Node opens PGlite + 1 query', [floor], env],
      [`floor under ${ONE_SHOT_V8_FLAGS} (the one-shot read's V8 flag)`, [ONE_SHOT_V8_FLAGS, floor], env],
      ['cairn --version (built)', [cli, '--version'], env],
      ['cairn --help (built)', [cli, '--help'], env],
      [`cairn search ${QUERY} --json (built, opens the data dir)`, [cli, 'search', QUERY, '--json'], env],
      [
        `cairn search ${QUERY} --json (source via tsx, before)`,
        [join(REPO_ROOT, 'bin', 'cairn.js'), 'search', QUERY, '--json'],
        { ...env, CAIRN_CLI_FROM_SOURCE: '1' },
      ],
    ];
    const samples = new Map<string, { ms: number[]; rss: number[] }>();
    const record = (name: string, sample: { ms: number; rssKb: number }) => {
      const entry = samples.get(name) ?? { ms: [], rss: [] };
      entry.ms.push(sample.ms);
      entry.rss.push(sample.rssKb / 1024);
      samples.set(name, entry);
    };
    for (let run = 0; run < STARTUP_RUNS; run++) {
      for (const [name, args, variantEnv] of variants) record(name, timed(args, variantEnv));
      log(`[startup] round ${run + 1}/${STARTUP_RUNS}`);
    }
    const instance = `cairn search ${QUERY} --json (built, to a running instance)`;
    const stop = await startInstance(cli, env);
    try {
      for (let run = 0; run < STARTUP_RUNS; run++) {
        const sample = timed([cli, 'search', QUERY, '--json'], env);
        if ((JSON.parse(sample.stdout) as { ok: boolean }).ok !== true)
          throw new Error(`search failed: ${sample.stdout}`);
        record(instance, sample);
      }
    } finally {
      await stop();
    }
    const floorMs = median(samples.get(variants[0]![0])!.ms);
    return {
      runs: STARTUP_RUNS,
      variants: [...samples].map(([name, { ms, rss }]) => ({
        name,
        wallMs: median(ms),
        rssMb: median(rss),
        vsFloor: median(ms) / floorMs,
      })),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(cliDir, { recursive: true, force: true });
    rmSync(floor, { force: true });
  }
}
