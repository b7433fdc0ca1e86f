/**
 * A new folder connection as the app runs it (scheduler and folder watching on, real watcher):
 * both want to sync it at once (it was never synced, and a watcher catches up when it starts).
 * Its first sync is the only one: a second pass right after it found nothing new, and its
 * "0 added" toast replaced the first sync's counts. The last `connections.changed` carries the
 * next sync the scheduler planned from the run's end (the card showed the time planned before the
 * run until a reload).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConnectionView, SyncRunView } from '@shared/models';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { parcelWatch } from '../sync/folder-watcher';
import { silentLogger } from '../logging/logger';
import { unwrap } from '../../testing/integration-kit';

const DAY_MS = 86_400_000;
let base: string;
let cairn: CairnInternals;
let syncing: () => void;
const firstSyncRuns = new Promise<void>((resolve) => (syncing = resolve));

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-first-sync-'));
  await mkdir(join(base, 'notes'));
  for (let i = 0; i < 40; i++)
    await writeFile(
      join(base, 'notes', `note-${i}.md`),
      `# Note ${i}\n\nThe quarterly budget review ${i}.\n`,
    );
  cairn = await createCairn({
    env: {},
    logger: silentLogger(),
    // The real watcher, starting once the scheduler's sync runs (the order the race took in the app).
    watchFolder: async (root, onChange, onError) => {
      await firstSyncRuns;
      return parcelWatch(root, onChange, onError);
    },
  });
}, 240_000);

afterAll(async () => {
  await cairn.dispose();
  await rm(base, { recursive: true, force: true });
});

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('syncs a new folder once, and the card hears the next sync planned from its end', async () => {
  const finished: SyncRunView[] = [];
  let announced: ConnectionView | undefined;
  let id = '';
  cairn.events.on('sync.finished', (run) => finished.push(run));
  cairn.events.on('sync.progress', () => syncing());
  cairn.events.on('connections.changed', (views) => (announced = views.find((view) => view.id === id)));
  id = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: join(base, 'notes') },
      secrets: {},
    }),
  ).id;

  const first = await until(() => finished[0], 'the first sync');
  expect(first.counters.added).toBe(40);
  const plannedNext = new Date(Date.parse(first.finishedAt!) + DAY_MS).toISOString();
  await until(() => (announced?.nextSyncAt === plannedNext ? announced : undefined), 'the planned time');
  await cairn.whenIdle();
  const runs = unwrap(await cairn.api.sync.runs({ connectionId: id }));
  expect(runs.map((run) => [run.status, run.counters.added, run.counters.unchanged])).toEqual([
    ['succeeded', 40, 0],
  ]);
  expect(announced).toMatchObject({ syncStatus: 'synced', nextSyncAt: plannedNext });
}, 240_000);
