import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { acquireDataDirLock, dataDirLayout } from './data-dir';
import { processStartTime } from './data-dir-lock';

const CHILD = fileURLToPath(new URL('../../testing/lock-race-child.ts', import.meta.url));

interface Outcome {
  pid: number;
  won: boolean;
  code?: string;
}

interface Racer {
  child: ChildProcess;
  ready: Promise<string>;
  outcome: Promise<Outcome>;
  exited: Promise<void>;
}

let base: string;
const racers: Racer[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-lock-race-'));
});

afterAll(async () => {
  for (const racer of racers) racer.child.kill('SIGKILL');
  await Promise.all(racers.map((racer) => racer.exited));
  await rm(base, { recursive: true, force: true });
});

/**
 * Starts `count` processes and, once every one is loaded and waiting, tells them all to ask for the
 * lock at once (a barrier rather than an agreed clock time, which a loaded machine can miss).
 */
async function race(dir: string, count: number): Promise<Racer[]> {
  const started = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout! });
    const exited = new Promise<void>((resolve) =>
      child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    const nextLine = () =>
      new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`racer exited (${code}) before writing a line`)));
      });
    const ready = nextLine();
    const outcome = ready.then(async () => JSON.parse(await nextLine()) as Outcome);
    outcome.catch(() => undefined);
    return { child, outcome, exited, ready };
  });
  racers.push(...started);
  await Promise.all(started.map((racer) => racer.ready));
  for (const racer of started) racer.child.stdin!.write('go\n');
  return started;
}

describe('data-directory lock across processes', () => {
  it(
    'lets exactly one of several processes starting at the same instant win, and a stale lock from a killed winner be taken over by exactly one',
    { timeout: 60_000 },
    async () => {
      const dir = join(base, 'data');
      const first = await race(dir, 5);
      const firstOutcomes = await Promise.all(first.map((racer) => racer.outcome));
      const winner = first.find(
        (racer) => racer.child.pid === firstOutcomes.find((outcome) => outcome.won)?.pid,
      );
      const holder = JSON.parse(await readFile(dataDirLayout(dir).lock, 'utf8')) as { pid: number };

      // The winner dies without releasing: its lock file stays behind, naming a dead pid.
      winner?.child.kill('SIGKILL');
      await winner?.exited;
      const second = await race(dir, 4);
      const secondOutcomes = await Promise.all(second.map((racer) => racer.outcome));
      const newHolder = JSON.parse(await readFile(dataDirLayout(dir).lock, 'utf8')) as { pid: number };
      const secondWinner = second.find((racer) => racer.child.pid === newHolder.pid);
      secondWinner?.child.stdin?.end();
      await secondWinner?.exited;

      const summary = (outcomes: Outcome[]) =>
        outcomes.map((outcome) => (outcome.won ? 'won' : outcome.code)).sort();
      expect({
        first: summary(firstOutcomes),
        holderIsWinner: holder.pid === winner?.child.pid,
        second: summary(secondOutcomes),
        newHolderWon: secondOutcomes.find((outcome) => outcome.won)?.pid === newHolder.pid,
        // Released on exit; no temp, takeover or stale file is left behind.
        left: await readdir(dir),
      }).toEqual({
        first: ['DATA_DIR_LOCKED', 'DATA_DIR_LOCKED', 'DATA_DIR_LOCKED', 'DATA_DIR_LOCKED', 'won'],
        holderIsWinner: true,
        second: ['DATA_DIR_LOCKED', 'DATA_DIR_LOCKED', 'DATA_DIR_LOCKED', 'won'],
        newHolderWon: true,
        left: [],
      });
    },
  );

  it.runIf(process.platform === 'linux')(
    'treats a live pid that started at another time as a reused pid: its lock is stale',
    async () => {
      const dir = join(base, 'reused');
      const path = dataDirLayout(dir).lock;
      await mkdir(dir, { recursive: true });
      const parentStart = await processStartTime(process.ppid);
      const lockedBy = async (processStart: string) => {
        await writeFile(
          path,
          JSON.stringify({ pid: process.ppid, host: hostname(), token: 't', processStart, startedAt: 'x' }),
        );
        try {
          const lock = await acquireDataDirLock(dir);
          await lock.release();
          return 'taken over';
        } catch (error) {
          return error instanceof CairnError ? error.code : String(error);
        }
      };
      expect({
        parentStart: typeof parentStart,
        same: await lockedBy(parentStart ?? ''),
        other: await lockedBy('1'),
      }).toEqual({ parentStart: 'string', same: 'DATA_DIR_LOCKED', other: 'taken over' });
    },
  );
});
