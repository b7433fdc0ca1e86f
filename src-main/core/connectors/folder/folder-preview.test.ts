import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pdfBytes } from '../../../testing/file-fixtures';
import { previewFolder } from './folder-preview';

let home: string;
let savedHome: string | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cairn-home-'));
  savedHome = process.env['HOME'];
  // os.homedir() reads $HOME on POSIX: the browser host's path field gets `~` from the user.
  process.env['HOME'] = home;
  const notes = join(home, 'notes');
  await mkdir(join(notes, 'papers'), { recursive: true });
  await mkdir(join(notes, '.obsidian'));
  await writeFile(join(notes, 'a.md'), '# A\n');
  await writeFile(join(notes, 'b.md'), '# B\n');
  await writeFile(join(notes, 'papers', 'report.pdf'), pdfBytes([['Report']]));
  await writeFile(join(notes, 'orders.csv'), 'id,item\n1,chair\n');
  await writeFile(join(notes, 'photo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(join(home, 'secret.md'), '# outside\n');
  await symlink(join(home, 'secret.md'), join(notes, 'linked.md'));
});

afterEach(async () => {
  if (savedHome === undefined) delete process.env['HOME'];
  else process.env['HOME'] = savedHome;
  await rm(home, { recursive: true, force: true });
});

describe('previewFolder', () => {
  it('takes ~ as the home folder and counts what it would index by kind, before anything is added', async () => {
    const preview = await previewFolder({ path: '~/notes' });
    expect(preview.path).toBe(join(home, 'notes'));
    expect(preview.counts).toEqual({ markdown: 2, pdf: 1, spreadsheet: 1 });
    expect(preview.total).toBe(4);
    expect(preview.skipped).toEqual({ 'folder.link-outside': 1 });
    expect(preview.obsidianVault).toBe('notes');
  });

  it('applies the exclusions typed beside the path', async () => {
    const preview = await previewFolder({ path: '~/notes/', exclude: 'papers/\n*.csv' });
    expect(preview.counts).toEqual({ markdown: 2 });
  });

  it('names a folder that does not exist', async () => {
    await expect(previewFolder({ path: '~/missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
