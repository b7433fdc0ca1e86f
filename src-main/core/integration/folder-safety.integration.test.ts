/**
 * Issue 10's safety rules and formats through the real composition root: a link leaving the folder
 * is skipped and listed with its reason (Cairn's own secrets file stays out of the index); a link
 * loop ends; an unreadable subfolder keeps its documents and the run says why; a non-UTF-8 file
 * name is skipped with that reason on every run (never "no longer exists"); binary content after
 * the first 8 KB is caught; a scanned PDF is said so, an encrypted one fails alone, and neither is
 * parsed again while unchanged; a PDF's passages carry their page.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { FolderConnector } from '../connectors/folder/folder-connector';
import { silentLogger } from '../logging/logger';
import { pdfBytes } from '../../testing/file-fixtures';
import { searchHits, syncToEnd, unwrap } from '../../testing/integration-kit';

let base: string;
let root: string;
let cairn: CairnInternals;
let connectionId: string;
/** Folders whose reading fails with EACCES (root ignores chmod, and CI runs as root). */
const unreadable = new Set<string>();

async function put(path: string, content: string | Buffer): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), content);
}

async function indexedIds(): Promise<string[]> {
  const rows = await cairn.db.query<{ external_id: string }>(
    'SELECT external_id FROM documents WHERE connection_id = $1 ORDER BY external_id',
    [connectionId],
  );
  return rows.rows.map((row) => row.external_id);
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-safety-'));
  root = join(base, 'notes');
  await mkdir(join(base, 'data', 'secrets'), { recursive: true });
  await writeFile(join(base, 'data', 'secrets', 'secrets.md'), '# Keys\n\nsk-live-TOPSECRET-4242');
  await put('welcome.md', '# Welcome\n\nThe zeppelin hangar opens at nine.');
  await put('private/plans.md', '# Plans\n\nThe airship roadmap stays private.');
  await put(
    'late-binary.md',
    Buffer.concat([Buffer.from('# Header\n\n' + 'text '.repeat(3000)), Buffer.from([0, 1, 2, 0])]),
  );
  await put('report.pdf', pdfBytes([['Cover page'], ['Budget', 'The hangar budget is forty units.']]));
  await put('scan.pdf', pdfBytes([[], []], { scanned: true }));
  await put('locked.pdf', pdfBytes([['secret']], { encrypted: true }));
  await symlink(join(base, 'data', 'secrets'), join(root, 'secrets-link'));
  await symlink(join(base, 'data', 'secrets', 'secrets.md'), join(root, 'keys.md'));
  await symlink(root, join(root, 'private', 'loop'));
  await symlink(join(root, 'welcome.md'), join(root, 'welcome-again.md'));
  await writeFile(Buffer.from(join(root, 'caf\xe9.md'), 'latin1'), '# Cafe\n\nLatin-1 name.');
  cairn = await createCairn({
    env: {},
    scheduler: false,
    logger: silentLogger(),
    factories: {
      folder: (init) =>
        new FolderConnector({
          root: String(init.config['path']),
          readDirectory: async (path) => {
            if (unreadable.has(path))
              throw Object.assign(new Error(`EACCES: permission denied, scandir '${path}'`), {
                code: 'EACCES',
              });
            return readdir(path, { withFileTypes: true, encoding: 'buffer' });
          },
        }),
    },
  });
  connectionId = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: root },
      secrets: {},
    }),
  ).id;
}, 300_000);

afterAll(async () => {
  await cairn?.dispose();
  await rm(base, { recursive: true, force: true });
});

describe('folder safety through the real composition root', () => {
  it('indexes only what is inside the folder and says why the rest is skipped', async () => {
    const run = await syncToEnd(cairn, connectionId);
    expect(await indexedIds()).toEqual(['private/plans.md', 'report.pdf', 'welcome-again.md', 'welcome.md']);
    const reasons = run.errors
      .map((error) => [error.externalId, error.reason ?? error.code, error.skipped === true])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(reasons).toEqual([
      ['caf\uFFFD.md', 'folder.name-not-utf8', true],
      ['keys.md', 'folder.link-outside', true],
      ['late-binary.md', 'folder.binary', true],
      ['locked.pdf', 'folder.encrypted', false],
      ['private/loop', 'folder.link-loop', true],
      ['scan.pdf', 'folder.no-text', true],
      ['secrets-link', 'folder.link-outside', true],
    ]);
    expect(run.status).toBe('partial');
    expect(run.counters).toMatchObject({ added: 4, failed: 1, skipped: 6 });
    expect((await searchHits(cairn, 'TOPSECRET')).length).toBe(0);
    const hit = (await searchHits(cairn, 'hangar budget forty')).find((h) => h.externalId === 'report.pdf');
    expect(hit?.location).toEqual({ kind: 'page', page: 2 });
  });

  it('does not parse an unchanged scanned or encrypted PDF again, and still lists it', async () => {
    const run = await syncToEnd(cairn, connectionId);
    expect(run.counters).toMatchObject({ added: 0, updated: 0, failed: 1, skipped: 6 });
    expect(run.errors.find((e) => e.externalId === 'locked.pdf')?.reason).toBe('folder.encrypted');
  });

  it('keeps the documents of a subfolder it cannot read, and says why', async () => {
    unreadable.add(join(root, 'private'));
    try {
      const run = await syncToEnd(cairn, connectionId);
      expect(await indexedIds()).toContain('private/plans.md');
      expect(run.errors.find((e) => e.reason === 'folder.unreadable')).toMatchObject({
        externalId: 'private',
      });
      const view = unwrap(await cairn.api.connections.list()).find((c) => c.id === connectionId)!;
      expect(view.syncError).toMatch(/Could not list private \(cannot read folder: permission denied\)/);
    } finally {
      unreadable.clear();
    }
    // Readable again: the complete listing now proves what is gone.
    await rm(join(root, 'private'), { recursive: true });
    await syncToEnd(cairn, connectionId);
    expect(await indexedIds()).not.toContain('private/plans.md');
  });
});
