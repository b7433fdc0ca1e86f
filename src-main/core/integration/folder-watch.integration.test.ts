/**
 * Live folder watching through the real composition root, the real @parcel/watcher and an
 * on-disk data directory: a watched folder catches up when it starts, then follows added,
 * changed, renamed and deleted files by itself; a burst of 1,000 files becomes one batched sync
 * (not 1,000); changes made while Cairn was closed are caught up at the next start; a
 * connection with watching turned off is not watched. No timing is asserted: each step waits
 * (bounded) until the index shows the change.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { silentLogger } from '../logging/logger';
import { unwrap } from '../../testing/integration-kit';

const WAIT_MS = 120_000;
let base: string;
let notes: string;
let dataDir: string;
let cairn: CairnInternals | null = null;
let connectionId: string;

async function open(): Promise<CairnInternals> {
  cairn = await createCairn({
    dataDir,
    env: {},
    scheduler: false,
    watchFolders: true,
    logger: silentLogger(),
  });
  return cairn;
}

async function indexed(): Promise<Map<string, string>> {
  const rows = await cairn!.db.query<{ external_id: string; content: string }>(
    'SELECT external_id, content FROM documents WHERE connection_id = $1',
    [connectionId],
  );
  return new Map(rows.rows.map((row) => [row.external_id, row.content]));
}

/** Polls until `check` holds for the index (bounded), then returns the index. */
async function until(
  check: (docs: Map<string, string>) => boolean,
  what: string,
): Promise<Map<string, string>> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const docs = await indexed();
    if (check(docs)) return docs;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function runCount(): Promise<number> {
  const rows = await cairn!.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1',
    [connectionId],
  );
  return rows.rows[0]!.n;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-watch-'));
  notes = join(base, 'notes');
  dataDir = join(base, 'data');
  await mkdir(join(notes, 'sub'), { recursive: true });
  await writeFile(join(notes, 'first.md'), '# First\n\nAlready here before watching.');
  await open();
  connectionId = unwrap(
    await cairn!.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: notes },
      secrets: {},
    }),
  ).id;
}, 300_000);

afterAll(async () => {
  await cairn?.dispose();
  await rm(base, { recursive: true, force: true });
});

describe('watching a folder', () => {
  it('syncs on start, shows "watching", and follows add, change, rename and delete', async () => {
    await until((docs) => docs.has('first.md'), 'the catch-up sync of a new connection');
    const view = unwrap(await cairn!.api.connections.list()).find((c) => c.id === connectionId)!;
    expect(view.folder).toEqual({ watching: true, watchError: null, obsidianVault: null });

    await writeFile(join(notes, 'sub', 'added.md'), '# Added\n\nThe zeppelin arrives.');
    await until((docs) => docs.get('sub/added.md')?.includes('zeppelin') === true, 'an added file');

    await writeFile(join(notes, 'sub', 'added.md'), '# Added\n\nThe airship arrives instead.');
    await until((docs) => docs.get('sub/added.md')?.includes('airship') === true, 'a changed file');

    await rename(join(notes, 'sub', 'added.md'), join(notes, 'renamed.md'));
    await until((docs) => docs.has('renamed.md') && !docs.has('sub/added.md'), 'a renamed file');

    await rm(join(notes, 'renamed.md'));
    await until((docs) => !docs.has('renamed.md'), 'a deleted file');
    const hits = unwrap(await cairn!.api.search.query({ query: 'airship arrives' })).hits;
    expect(hits.map((hit) => hit.externalId)).not.toContain('renamed.md');
  }, 600_000);

  it('turns a burst of 1,000 files into one batched sync', async () => {
    await cairn!.whenIdle();
    const before = await runCount();
    await mkdir(join(notes, 'burst'));
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        writeFile(join(notes, 'burst', `n${i}.md`), `# Note ${i}\n\nBurst note ${i}.`),
      ),
    );
    await until(
      (docs) => [...docs.keys()].filter((id) => id.startsWith('burst/')).length === 1000,
      'the burst',
    );
    await cairn!.whenIdle();
    // One sync for the burst; a second one at most when the writes outlast the debounce window.
    expect((await runCount()) - before).toBeLessThanOrEqual(2);
  }, 600_000);

  it('catches up after a restart on what changed while Cairn was closed', async () => {
    await cairn!.whenIdle();
    await cairn!.dispose();
    cairn = null;
    await writeFile(join(notes, 'while-closed.md'), '# Closed\n\nWritten while Cairn was closed.');
    await rm(join(notes, 'first.md'));
    await open();
    await until((docs) => docs.has('while-closed.md') && !docs.has('first.md'), 'the catch-up after restart');
  }, 600_000);

  it('does not watch a connection with watching turned off', async () => {
    const other = join(base, 'quiet');
    await mkdir(other);
    const quiet = unwrap(
      await cairn!.api.connections.add({
        platform: 'folder',
        name: 'quiet',
        mode: 'rag',
        config: { path: other, noWatch: true },
        secrets: {},
      }),
    );
    await cairn!.whenIdle();
    const view = unwrap(await cairn!.api.connections.list()).find((c) => c.id === quiet.id)!;
    expect(view.folder?.watching).toBe(false);
    expect(view.lastSyncAt).toBeNull();
  }, 300_000);
});
