/**
 * SIGTERM (a logout, `systemctl stop`, a container stop) in a real `cairn sync` process (issue #25
 * item 3): the sync of 120 changed Yuque documents is stopped in the middle, the run is recorded as
 * stopped, the process exits 130 and leaves no lock or socket behind, the connection keeps its last
 * sync time with its next sync due now, and the next start of Cairn with its scheduler syncs what
 * was left at once. `cairn serve` stops the same way on SIGTERM and SIGHUP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusSnapshot, SyncRunView } from '@shared/models';
import { createCairn } from '../core/app/create-cairn';
import { dataDirLayout } from '../core/app/data-dir';
import { defaultConnectorFactories } from '../core/connectors/registry';
import { YuqueConnector } from '../core/connectors/yuque/yuque-connector';
import { silentLogger } from '../core/logging/logger';
import { startYuqueFake, type YuqueFake } from '../testing/fakes/yuque-fake';

const CAIRN_BIN = fileURLToPath(new URL('../../bin/cairn.js', import.meta.url));
const DOCUMENTS = 120;
/** A document's own page (`/repos/<book>/docs/<id>`), not the list of them. */
const DETAIL = /\/docs\/[^/?]+$/;

let scratch: string;
let dataDir: string;
let yuque: YuqueFake;
let connectionId: string;
let firstSync: string;

/**
 * The in-process Cairns (the first sync, the next start) fetch without Yuque's pace (80 a minute):
 * at that pace each of them waits out a minute's window for 120 documents, and what is tested here
 * is the stop and the catch-up, not the pace. The stopped `cairn sync` process keeps the real pace.
 */
const UNPACED = { intervalMs: 1000, intervalCap: 1000 };

function open(scheduler: boolean) {
  return createCairn({
    dataDir,
    env: {},
    scheduler,
    logger: silentLogger(),
    factories: {
      ...defaultConnectorFactories(),
      yuque: (init) => new YuqueConnector(init, { http: { rate: UNPACED } }),
    },
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cairn-sigterm-'));
  dataDir = join(scratch, 'data');
  yuque = await startYuqueFake({ documents: DOCUMENTS, specialDocuments: false });
  const cairn = await open(false);
  const added = await cairn.api.connections.add({
    platform: 'yuque',
    name: 'Wiki',
    mode: 'rag',
    config: { baseUrl: yuque.baseUrl },
    secrets: { ...yuque.credentials },
  });
  if (!added.ok) throw new Error(added.error.message);
  connectionId = added.value.id;
  await cairn.api.sync.start({ connectionId });
  await cairn.whenIdle();
  const view = await cairn.api.connections.list();
  await cairn.dispose();
  firstSync = (view.ok && view.value[0]?.lastSyncAt) || '';
  if (!firstSync) throw new Error('the first sync did not finish');
}, 240_000);

afterAll(async () => {
  await yuque?.close();
  await rm(scratch, { recursive: true, force: true });
});

function spawnCairn(args: string[]): {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
} {
  const child = spawn(process.execPath, [CAIRN_BIN, '--data-dir', dataDir, ...args], {
    env: { ...process.env, CAIRN_DATA_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (part: Buffer) => (stdout += part.toString()));
  child.stderr!.on('data', (part: Buffer) => (stderr += part.toString()));
  return { child, output: () => ({ stdout, stderr }) };
}

async function until(condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('SIGTERM', () => {
  it(
    'stops a running `cairn sync`: recorded as stopped, lock and socket released, and the next start catches up at once',
    { timeout: 300_000 },
    async () => {
      for (const document of yuque.control.store.list())
        yuque.control.changeDocument(document.id, {
          text: `Revised ${document.id}: the quarterly figures moved.`,
        });
      // Each document page answers after a while, so the sync is surely in the middle when stopped.
      yuque.control.inject({ kind: 'slow', delayMs: 150 }, { path: DETAIL, times: DOCUMENTS });
      const before = yuque.control.requests.length;
      const fetched = () => yuque.control.requests.slice(before).filter((r) => DETAIL.test(r.path)).length;

      const { child, output } = spawnCairn(['sync']);
      const exit = exited(child);
      await until(() => fetched() >= 20, 'the sync to fetch 20 documents');
      const stoppedAt = Date.now();
      child.kill('SIGTERM');
      const code = await exit;
      const stopMs = Date.now() - stoppedAt;
      const fetchedBeforeStop = fetched();
      const layout = dataDirLayout(dataDir);
      const released = { lock: existsSync(layout.lock), socket: existsSync(join(dataDir, 'cairn.sock')) };

      // What the data directory says before anything starts again, through another `cairn` process.
      const statusJson = await new Promise<string>((resolve) => {
        const run = spawnCairn(['status', '--json']);
        run.child.once('exit', () => resolve(run.output().stdout));
      });
      const afterStop = (JSON.parse(statusJson) as { value: StatusSnapshot }).value.connections[0];
      // The app starting: its scheduler syncs what the stopped run left, at once.
      const app = await open(true);
      const finished = await new Promise<SyncRunView>((resolve) =>
        app.events.on('sync.finished', (run) => resolve(run)),
      );
      await app.whenIdle();
      const runs = await app.api.sync.runs({ connectionId });
      const views = await app.api.connections.list();
      await app.dispose();

      const stopped = runs.ok ? runs.value[1] : undefined;
      const wiki = views.ok ? views.value[0] : undefined;
      expect({
        code,
        quick: stopMs < 10_000,
        printed: /Wiki: cancelled/.test(output().stdout),
        stderr: output().stderr,
        released,
        stopped: stopped && {
          status: stopped.status,
          someLeft: stopped.counters.updated < DOCUMENTS,
        },
        afterStop: afterStop && {
          lastSyncAt: afterStop.lastSyncAt,
          due: Date.parse(afterStop.nextSyncAt ?? '') <= Date.now(),
          note: afterStop.syncErrorCode,
        },
        nextStart: {
          status: finished.status,
          rest: finished.counters.updated + (stopped?.counters.updated ?? 0),
          movedOn: wiki ? Date.parse(wiki.lastSyncAt ?? '') > Date.parse(firstSync) : false,
          note: wiki?.syncErrorCode ?? null,
        },
      }).toEqual({
        code: 130,
        quick: true,
        printed: true,
        stderr: '',
        released: { lock: false, socket: false },
        stopped: { status: 'cancelled', someLeft: true },
        afterStop: { lastSyncAt: firstSync, due: true, note: 'CANCELLED' },
        nextStart: { status: 'succeeded', rest: DOCUMENTS, movedOn: true, note: null },
      });
      expect(fetchedBeforeStop).toBeLessThan(DOCUMENTS);
    },
  );

  it(
    'and SIGHUP stop `cairn serve` cleanly: exit 0, lock and socket released',
    { timeout: 120_000 },
    async () => {
      const stops: Record<string, unknown> = {};
      for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
        const { child, output } = spawnCairn(['serve', '--port', '0']);
        const exit = exited(child);
        await until(() => output().stdout.includes('Press Ctrl+C to stop.'), 'cairn serve to listen');
        const layout = dataDirLayout(dataDir);
        const heldWhileRunning = existsSync(layout.lock);
        child.kill(signal);
        const code = await exit;
        stops[signal] = {
          code,
          heldWhileRunning,
          lock: existsSync(layout.lock),
          socket: existsSync(join(dataDir, 'cairn.sock')),
        };
      }
      const clean = { code: 0, heldWhileRunning: true, lock: false, socket: false };
      expect(stops).toEqual({ SIGTERM: clean, SIGHUP: clean });
    },
  );
});
