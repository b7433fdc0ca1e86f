/**
 * The data directory holds document text (PGlite's tables and write-ahead log), credentials (the
 * fallback file) and logs: after a sync, and after closing, every folder in it is 0700 and every
 * file 0600, PGlite's included (it writes them 0666 on its own).
 */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncToEnd, unwrap } from '../../testing/integration-kit';
import { createCairn } from './create-cairn';
import { makeTreePrivate } from './private-data-dir';

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-private-'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Every path under root (root included) whose mode is not owner-only, as "mode path". */
function notPrivate(root: string): string[] {
  const loose: string[] = [];
  const visit = (path: string) => {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return;
    const mode = info.mode & 0o777;
    if (mode !== (info.isDirectory() ? 0o700 : 0o600))
      loose.push(`${mode.toString(8)} ${path.slice(root.length)}`);
    if (info.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(root);
  return loose;
}

function countFiles(root: string): number {
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

const posixOnly = process.platform === 'win32' ? describe.skip : describe;

posixOnly('a private data directory', () => {
  it('is owner-only in every folder and file after a sync and after closing, PGlite’s files and logs included', async () => {
    const notes = join(scratch, 'notes');
    mkdirSync(notes);
    for (let n = 0; n < 30; n += 1)
      writeFileSync(join(notes, `note-${n}.md`), `# 笔记 ${n}\n\n${'报销流程与差旅政策。'.repeat(200)}\n`);
    const dataDir = join(scratch, 'data');
    const cairn = await createCairn({
      dataDir,
      // The fallback file, so a secrets file is among those checked.
      env: { CAIRN_SECRET_STORE: 'file' },
      scheduler: false,
    });
    try {
      unwrap(await cairn.api.settings.update({ chat: { provider: 'openai', apiKey: 'sk-private-check' } }));
      const { id } = unwrap(
        await cairn.api.connections.add({
          platform: 'folder',
          name: 'notes',
          mode: 'rag',
          config: { path: notes },
          secrets: {},
        }),
      );
      expect((await syncToEnd(cairn, id)).counters.added).toBe(30);
      await cairn.whenIdle();
      expect(countFiles(dataDir)).toBeGreaterThan(100);
      expect(notPrivate(dataDir)).toEqual([]);
    } finally {
      await cairn.dispose();
    }
    expect(notPrivate(dataDir)).toEqual([]);
  }, 300_000);
});

posixOnly('a one-shot read', () => {
  it('makes the data directory owner-only and walks no further: no sweep at open, after the semantic status, or at close', async () => {
    const notes = join(scratch, 'read-notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'travel.md'), '# 差旅\n\n出差住宿标准：一线城市每晚不超过 600 元。\n');
    const dataDir = join(scratch, 'read-data');
    const env = { CAIRN_SECRET_STORE: 'file' };
    const writer = await createCairn({ dataDir, env, scheduler: false });
    try {
      const { id } = unwrap(
        await writer.api.connections.add({
          platform: 'folder',
          name: 'notes',
          mode: 'rag',
          config: { path: notes },
          secrets: {},
        }),
      );
      expect((await syncToEnd(writer, id)).counters.added).toBe(1);
    } finally {
      await writer.dispose();
    }
    // What an older version (or a copy) could have left: the directory open to all, a loose file below.
    const loose = join(dataDir, 'db', 'PG_VERSION');
    chmodSync(dataDir, 0o755);
    chmodSync(loose, 0o644);

    const reader = await createCairn({ dataDir, env, scheduler: false, oneShotRead: true });
    try {
      const found = unwrap(await reader.api.search.query({ query: '住宿' }));
      expect(found.documents.map((document) => document.best.title)).toEqual(['差旅']);
      await reader.whenIdle();
    } finally {
      await reader.dispose();
    }
    // The directory keeps everyone else out of all it holds; the file is left for the next writer.
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(lstatSync(loose).mode & 0o777).toBe(0o644);

    // A process that is not a one-shot read sweeps the whole tree again.
    const next = await createCairn({ dataDir, env, scheduler: false });
    await next.dispose();
    expect(notPrivate(dataDir)).toEqual([]);
  }, 300_000);
});

posixOnly('makeTreePrivate', () => {
  it('tightens a tree an older version left loose, and leaves symlinks and their targets alone', async () => {
    const root = join(scratch, 'loose');
    mkdirSync(join(root, 'db', 'base'), { recursive: true });
    writeFileSync(join(root, 'db', 'base', '1234'), 'document text');
    writeFileSync(join(scratch, 'outside.txt'), 'not ours');
    chmodSync(join(root, 'db', 'base', '1234'), 0o666);
    chmodSync(join(scratch, 'outside.txt'), 0o644);
    chmodSync(join(root, 'db'), 0o755);
    symlinkSync(join(scratch, 'outside.txt'), join(root, 'link'));
    expect(await makeTreePrivate(root)).toBeGreaterThanOrEqual(2);
    expect(notPrivate(root)).toEqual([]);
    expect(lstatSync(join(scratch, 'outside.txt')).mode & 0o777).toBe(0o644);
  });
});
