/**
 * Ctrl-C in a real `cairn` process: `cairn search` waits on a direct-mode Yuque connection whose
 * fake answers search only after 20 s; SIGINT must stop it at once through the core's
 * AbortSignal, exit 130 without alarming output, and leave the data directory unlocked and whole.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn } from '../core/app/create-cairn';
import { dataDirLayout } from '../core/app/data-dir';
import { startYuqueFake, type YuqueFake } from '../testing/fakes/yuque-fake';
import { silentLogger } from '../core/logging/logger';

const CAIRN_BIN = fileURLToPath(new URL('../../bin/cairn.js', import.meta.url));

let scratch: string;
let dataDir: string;
let yuque: YuqueFake;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cairn-sigint-'));
  dataDir = join(scratch, 'data');
  yuque = await startYuqueFake({ documents: 4, specialDocuments: false });
  const cairn = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
  const added = await cairn.api.connections.add({
    platform: 'yuque',
    name: 'Slow wiki',
    mode: 'direct',
    config: { baseUrl: yuque.baseUrl },
    secrets: { ...yuque.credentials },
  });
  await cairn.dispose();
  if (!added.ok) throw new Error(added.error.message);
});

afterAll(async () => {
  await yuque?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** Resolves once the fake has received a request whose path contains `part`. */
async function requestArrived(part: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!yuque.control.requests.some((request) => request.path.includes(part))) {
    if (Date.now() > until) throw new Error(`no ${part} request within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('Ctrl-C in cairn search', () => {
  it(
    'aborts the live search, exits 130 quietly, and leaves the data directory unlocked and consistent',
    { timeout: 60_000 },
    async () => {
      yuque.control.inject({ kind: 'slow', delayMs: 20_000 }, { path: '/search', times: 10 });
      // Without Ctrl-C the search would wait for its direct-search budget and then exit 0.
      const child = spawn(process.execPath, [CAIRN_BIN, '--data-dir', dataDir, 'search', '报销'], {
        env: { ...process.env, CAIRN_DATA_DIR: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (part: Buffer) => (stdout += part.toString()));
      child.stderr.on('data', (part: Buffer) => (stderr += part.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

      await requestArrived('/search', 30_000);
      const interruptedAt = Date.now();
      child.kill('SIGINT');
      const code = await exited;
      const stoppedWithinMs = Date.now() - interruptedAt;

      const reopened = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
      const connections = await reopened.api.connections.list();
      await reopened.dispose();
      expect({
        code,
        stdout,
        stderr,
        quick: stoppedWithinMs < 2_500,
        lockLeft: existsSync(dataDirLayout(dataDir).lock),
        connections: connections.ok
          ? connections.value.map((view) => [view.name, view.mode])
          : connections.error,
      }).toEqual({
        code: 130,
        stdout: '',
        stderr: '',
        quick: true,
        lockLeft: false,
        connections: [['Slow wiki', 'direct']],
      });
    },
  );
});
