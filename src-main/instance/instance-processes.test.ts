/**
 * The instance socket across real processes: several cairn commands starting at the same instant
 * on one data directory (one opens it, the others are answered by it, none fails), and a process
 * of another user, which is refused.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../core/app/create-cairn';
import { silentLogger } from '../core/logging/logger';
import { instanceEndpoint } from './endpoint';
import { connectToInstance } from './instance-client';
import { startInstanceHost, type InstanceHost } from './instance-host';

const RACER = fileURLToPath(new URL('../testing/instance-race-child.ts', import.meta.url));
const FOREIGN = fileURLToPath(new URL('../testing/foreign-client.mjs', import.meta.url));
const NOBODY = 65534;

let base: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-instances-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(base, { recursive: true, force: true });
});

interface RaceOutcome {
  pid: number;
  via?: 'socket' | 'in-process';
  answeredBy?: number;
  status?: boolean;
  error?: string;
}

describe('one running instance', () => {
  it(
    'several commands starting at once: exactly one opens the data directory, the others are answered by it',
    { timeout: 240_000 },
    async () => {
      const dir = join(base, 'race');
      // Each racer says when it has loaded (tsx start-up takes seconds on a loaded machine), and all
      // are told to go at once, so they open the data directory at the same instant.
      const racers = Array.from({ length: 4 }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', RACER, dir], {
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        children.push(child);
        const lines = createInterface({ input: child.stdout! });
        const next = () =>
          new Promise<RaceOutcome & { ready?: boolean }>((resolve, reject) => {
            lines.once('line', (line) => resolve(JSON.parse(line) as RaceOutcome & { ready?: boolean }));
            child.once('exit', (code) => reject(new Error(`racer exited (${code}) without an outcome`)));
          });
        return { child, ready: next(), next };
      });
      expect((await Promise.all(racers.map((racer) => racer.ready))).every((said) => said.ready)).toBe(true);
      const outcomes = await Promise.all(
        racers.map((racer) => {
          const outcome = racer.next();
          racer.child.stdin!.write('go\n');
          return outcome;
        }),
      );
      const holders = outcomes.filter((outcome) => outcome.via === 'in-process');
      expect({
        errors: outcomes.filter((outcome) => outcome.error),
        holders: holders.length,
        answeredByTheHolder: outcomes.every((outcome) => outcome.answeredBy === holders[0]?.pid),
        allAnswered: outcomes.every((outcome) => outcome.status === true),
      }).toEqual({ errors: [], holders: 1, answeredByTheHolder: true, allAnswered: true });
      for (const child of children) child.stdin?.end();
    },
  );
});

// Refusing another user needs a second user: the tests run as root here (CI too), which can start
// a process as `nobody` with setpriv. Elsewhere the test says why it cannot run.
const canSwitchUser =
  process.platform !== 'win32' &&
  process.getuid?.() === 0 &&
  spawnSync('setpriv', ['--version']).status === 0;

describe.skipIf(!canSwitchUser)(
  'another user (needs root and setpriv to run a process as nobody; skipped otherwise)',
  () => {
    let cairn: CairnInternals;
    let host: InstanceHost;
    let dir: string;

    beforeAll(async () => {
      dir = join(base, 'private');
      cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
      await mkdir(dir, { recursive: true });
      // A data directory others may enter (createCairn makes it 0755 today): only the socket's and
      // instance.json's own modes keep them out.
      await chmod(base, 0o755);
      await chmod(dir, 0o755);
      host = await startInstanceHost({
        dataDir: dir,
        kind: 'serve',
        version: '0.1.0',
        apiFor: (signal) => cairn.cancellable(signal),
        events: cairn.events,
        logger: silentLogger(),
      });
    }, 300_000);

    afterAll(async () => {
      await host?.close();
      await cairn?.dispose();
    });

    /** Runs the foreign client as nobody; async, since the instance answering it lives in this process. */
    async function asNobody(): Promise<{ uid: number; readInfo: string; connect: string; received: string }> {
      const endpoint = instanceEndpoint(dir);
      const child = spawn(
        'setpriv',
        [
          `--reuid=${NOBODY}`,
          `--regid=${NOBODY}`,
          '--clear-groups',
          process.execPath,
          FOREIGN,
          endpoint.address,
          endpoint.infoFile,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(child);
      let out = '';
      let err = '';
      child.stdout.on('data', (part: Buffer) => (out += part.toString()));
      child.stderr.on('data', (part: Buffer) => (err += part.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      if (code !== 0) throw new Error(`foreign client failed (${code}): ${err}`);
      return JSON.parse(out) as { uid: number; readInfo: string; connect: string; received: string };
    }

    it('cannot read the token nor connect; with the socket opened up it is still refused; the owner is served throughout', async () => {
      const denied = await asNobody();
      // Even where file modes do not hold (a filesystem that ignores them, a Windows pipe), the
      // token keeps others out: open the socket to everyone and try again.
      await chmod(instanceEndpoint(dir).address, 0o666);
      const opened = await asNobody();
      await chmod(instanceEndpoint(dir).address, 0o600);
      const owner = await connectToInstance(dir, { clientKind: 'test' });
      const status = await owner?.call('app.status', undefined);
      await owner?.close();
      expect({ denied, opened, ownerServed: status?.ok }).toEqual({
        denied: { uid: NOBODY, readInfo: 'EACCES', connect: 'EACCES', received: '' },
        opened: {
          uid: NOBODY,
          readInfo: 'EACCES',
          connect: 'ok',
          received:
            JSON.stringify({
              t: 'refused',
              error: { code: 'PERMISSION_DENIED', message: 'Not a client of this Cairn instance.' },
            }) + '\n',
        },
        ownerServed: true,
      });
    });
  },
);
