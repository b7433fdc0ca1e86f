/**
 * A file or a folder swapped for a link to somewhere outside the connected folder between the
 * listing and the read is not read from outside (#25 item 6): the check is made on what is open.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../../errors';
import type { DocumentRef } from '../connector';
import { FolderConnector } from './folder-connector';

const SECRET = 'top-secret-outside-text';
let base: string;
let folder: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-swap-'));
  folder = join(base, 'notes');
  outside = join(base, 'outside');
  await mkdir(join(folder, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(folder, 'a.md'), '# A\n\nInside text.\n');
  await writeFile(join(folder, 'sub', 'b.md'), '# B\n\nInside text too.\n');
  await writeFile(join(outside, 'a.md'), `# Outside\n\n${SECRET}\n`);
  await writeFile(join(outside, 'b.md'), `# Outside\n\n${SECRET}\n`);
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function listed(connector: FolderConnector): Promise<Map<string, DocumentRef>> {
  const refs = new Map<string, DocumentRef>();
  for await (const ref of connector.list()) refs.set(ref.externalId, ref);
  return refs;
}

async function outcome(work: Promise<{ markdown: string }>): Promise<string> {
  try {
    return (await work).markdown;
  } catch (error) {
    if (error instanceof CairnError) return `${error.code}: ${error.message}`;
    throw error;
  }
}

describe('a swap between listing and reading', () => {
  it('a file replaced by a link to a file outside is not read', async () => {
    const connector = new FolderConnector({ root: folder });
    const refs = await listed(connector);
    await rm(join(folder, 'a.md'));
    await symlink(join(outside, 'a.md'), join(folder, 'a.md'));
    const read = await outcome(connector.fetch(refs.get('a.md')!));
    expect(read).not.toContain(SECRET);
    expect(read).toMatch(/^DOCUMENT_FAILED: a\.md now leads outside the folder/);
  });

  it('a folder replaced by a link to a folder outside is not read', async () => {
    const connector = new FolderConnector({ root: folder });
    const refs = await listed(connector);
    await rename(join(folder, 'sub'), join(base, 'moved-away'));
    await symlink(outside, join(folder, 'sub'));
    const read = await outcome(connector.fetch(refs.get('sub/b.md')!));
    expect(read).not.toContain(SECRET);
    expect(read).toMatch(/^DOCUMENT_FAILED: sub\/b\.md now leads outside the folder/);
  });

  it('direct search does not quote a swapped-in file', async () => {
    const connector = new FolderConnector({ root: folder });
    await rm(join(folder, 'a.md'));
    await symlink(join(outside, 'a.md'), join(folder, 'a.md'));
    // The listing inside search skips the link already; a swap after it is caught at the read.
    const hits = await connector.search('secret outside', { limit: 10 });
    expect(JSON.stringify(hits)).not.toContain(SECRET);
  });

  it('a link that stays inside the folder is still read', async () => {
    await symlink(join(folder, 'sub', 'b.md'), join(folder, 'link-to-b.md'));
    const connector = new FolderConnector({ root: folder });
    const refs = await listed(connector);
    expect(await outcome(connector.fetch(refs.get('link-to-b.md')!))).toContain('Inside text too.');
  });

  it.runIf(process.platform !== 'win32')('a file replaced by a FIFO does not hang the read', async () => {
    const connector = new FolderConnector({ root: folder });
    const refs = await listed(connector);
    await rm(join(folder, 'a.md'));
    execFileSync('mkfifo', [join(folder, 'a.md')]);
    expect(await outcome(connector.fetch(refs.get('a.md')!))).toBe(
      'DOCUMENT_FAILED: Not a regular file: a.md',
    );
  });
});
