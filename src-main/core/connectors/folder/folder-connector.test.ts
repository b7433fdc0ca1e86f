import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CairnError } from '../../errors';
import { silentLogger } from '../../logging/logger';
import type { DocumentRef } from '../connector';
import { FolderConnector } from './folder-connector';
import { queryTerms } from './folder-search';
import { createConnector } from '../registry';
import { listAll } from '../../../testing/connector-test-kit';

let base: string;
let vault: string;

async function put(relativePath: string, content: string | Uint8Array): Promise<void> {
  const path = join(vault, ...relativePath.split('/'));
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

async function failureOf(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof CairnError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a CairnError');
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-folder-'));
  vault = join(base, 'My Vault');
  await put('README.md', '# Welcome\n\nStart here.');
  await put(
    'guide/install.markdown',
    '---\ntitle: "Install Guide"\ntags: [setup]\n---\n# Installing\n\nRun the installer on Linux.\n',
  );
  await put('guide/notes.txt', 'plain text notes about the Installer');
  await put('guide/深入/报销流程.md', '# 报销流程说明\n\n员工报销需要在三十天内提交发票。\n');
  await put('page.mdx', '```md\n# not a title\n```\n\nSetext Title\n===\n\nbody');
  await put('.obsidian/workspace.md', '# hidden');
  await put('.git/HEAD.md', 'hidden');
  await put('node_modules/pkg/readme.md', '# dependency');
  await put('image.png', new Uint8Array([137, 80, 78, 71, 0, 1]));
  await put('binary.md', new Uint8Array([35, 32, 104, 105, 0, 0, 1, 2]));
  await put(
    'latin1.md',
    new Uint8Array([
      ...Buffer.from('# Caf'),
      0xe9,
      ...Buffer.from(' menu\n\nna'),
      0xef,
      0xff,
      ...Buffer.from('ve'),
    ]),
  );
  await put('empty.md', '');
  await symlink(join(vault, 'missing-target.md'), join(vault, 'dangling.md'));
  await symlink(vault, join(vault, 'loop'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('FolderConnector.list', () => {
  it('streams text files with stable ids, skipping dot-folders, node_modules, other extensions and symlinked folders', async () => {
    const connector = new FolderConnector({ root: vault });
    const refs = await listAll(connector);
    expect(refs.map((ref) => ref.externalId)).toEqual([
      'README.md',
      'binary.md',
      'empty.md',
      'guide/install.markdown',
      'guide/notes.txt',
      'guide/深入/报销流程.md',
      'latin1.md',
      'page.mdx',
    ]);
    const install = refs.find((ref) => ref.externalId === 'guide/install.markdown');
    const info = await stat(join(vault, 'guide', 'install.markdown'));
    expect(install).toEqual({
      externalId: 'guide/install.markdown',
      title: 'install',
      knowledgeBase: 'My Vault',
      url: join(vault, 'guide', 'install.markdown'),
      remoteUpdatedAt: info.mtime.toISOString(),
      revision: `${info.mtimeMs}:${info.size}`,
    });
    // The dangling link and the link back to the vault itself are reported, not listed.
    const skipped: { externalId: string; reason: string }[] = [];
    await listAll({
      list: (signal) =>
        connector.list(signal, {
          skipped: (item) => skipped.push({ externalId: item.externalId, reason: item.reason }),
          incomplete: () => {},
        }),
    });
    expect(skipped).toEqual([
      { externalId: 'dangling.md', reason: 'folder.link-broken' },
      { externalId: 'loop', reason: 'folder.link-loop' },
    ]);
  });

  it('changes the revision when a file changes size', async () => {
    const connector = new FolderConnector({ root: vault });
    await put('scratch.md', 'one');
    const before = (await listAll(connector)).find((ref) => ref.externalId === 'scratch.md')?.revision;
    await put('scratch.md', 'one two');
    const after = (await listAll(connector)).find((ref) => ref.externalId === 'scratch.md')?.revision;
    await rm(join(vault, 'scratch.md'));
    expect(after).not.toBe(before);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await failureOf(listAll(new FolderConnector({ root: vault }), controller.signal))).toMatchObject({
      code: 'CANCELLED',
    });
  });
});

describe('FolderConnector.fetch', () => {
  async function fetchById(externalId: string) {
    const connector = new FolderConnector({ root: vault });
    const ref = (await listAll(connector)).find((candidate) => candidate.externalId === externalId);
    if (!ref) throw new Error(`not listed: ${externalId}`);
    return connector.fetch(ref);
  }

  it('titles a document by front matter, then first heading (outside code), then file name', async () => {
    // The front matter stays in the text: the sync engine parses it for every source (its title
    // wins there, tags and summary become metadata: core/text/clean-markdown.ts).
    expect(await fetchById('guide/install.markdown')).toEqual({
      title: 'Install Guide',
      markdown:
        '---\ntitle: "Install Guide"\ntags: [setup]\n---\n# Installing\n\nRun the installer on Linux.\n',
    });
    expect((await fetchById('guide/深入/报销流程.md')).title).toBe('报销流程说明');
    expect((await fetchById('page.mdx')).title).toBe('Setext Title');
    expect(await fetchById('guide/notes.txt')).toEqual({
      title: 'notes',
      markdown: 'plain text notes about the Installer',
    });
    expect(await fetchById('empty.md')).toEqual({ title: 'empty', markdown: '' });
  });

  it('decodes invalid UTF-8 with replacement characters and still indexes it', async () => {
    expect(await fetchById('latin1.md')).toEqual({
      title: 'Caf\uFFFD menu',
      markdown: '# Caf\uFFFD menu\n\nna\uFFFD\uFFFDve',
    });
  });

  it('records binary, vanished, oversized and escaping files as DOCUMENT_FAILED with a reason', async () => {
    expect(await failureOf(fetchById('binary.md'))).toEqual({
      code: 'DOCUMENT_FAILED',
      message: 'Skipped binary content in binary.md (NUL or control bytes).',
    });
    const vanished: DocumentRef = {
      externalId: 'dangling.md',
      title: 'dangling',
      knowledgeBase: 'My Vault',
      url: null,
      remoteUpdatedAt: null,
      revision: null,
    };
    expect(await failureOf(new FolderConnector({ root: vault }).fetch(vanished))).toEqual({
      code: 'DOCUMENT_FAILED',
      message: 'Cannot read dangling.md: no longer exists',
    });
    const small = new FolderConnector({ root: vault, maxFileBytes: 10 });
    const ref: DocumentRef = {
      externalId: 'README.md',
      title: 'README',
      knowledgeBase: 'My Vault',
      url: null,
      remoteUpdatedAt: null,
      revision: null,
    };
    expect((await failureOf(small.fetch(ref))).message).toBe(
      'README.md is 0.0 MiB; files over 0.0 MiB are not indexed.',
    );
    expect(await failureOf(small.fetch({ ...ref, externalId: '../outside.md' }))).toEqual({
      code: 'DOCUMENT_FAILED',
      message: 'Path outside the folder: ../outside.md',
    });
  });

  it('indexes a 5 MB document', async () => {
    await put('big.md', `# Big\n\n${'lorem ipsum dolor sit amet '.repeat(200_000)}`);
    const fetched = await fetchById('big.md');
    await rm(join(vault, 'big.md'));
    expect({ title: fetched.title, length: fetched.markdown.length }).toEqual({
      title: 'Big',
      length: 7 + 27 * 200_000,
    });
  });
});

describe('FolderConnector.validate', () => {
  it('reports the files found, or a precise reason', async () => {
    expect(await new FolderConnector({ root: vault }).validate()).toEqual({
      message: 'Folder "My Vault" is readable: 8 files to index (7 Markdown, 1 text).',
      code: 'connection.folderReadable',
      // The counts again as params, for the UI to say in its language.
      params: { name: 'My Vault', total: 8, capped: 0, 'kind.markdown': 7, 'kind.text': 1 },
    });
    expect(await failureOf(new FolderConnector({ root: join(base, 'nope') }).validate())).toEqual({
      code: 'NOT_FOUND',
      message: `Folder not found: ${join(base, 'nope')}`,
    });
    expect(await failureOf(new FolderConnector({ root: join(vault, 'README.md') }).validate())).toEqual({
      code: 'INVALID_ARGUMENT',
      message: `Not a folder: ${join(vault, 'README.md')}`,
    });
    await mkdir(join(base, 'empty-dir'));
    const empty = await new FolderConnector({ root: join(base, 'empty-dir') }).validate();
    expect(empty.message).toMatch(/holds no files Cairn reads yet/);
    expect(empty.code).toBe('connection.folderEmpty');
  });

  it('is registered for the folder platform and needs a path', () => {
    const connector = createConnector('folder', {
      config: { path: vault },
      secrets: {},
      logger: silentLogger(),
    });
    expect(connector.platform).toBe('folder');
    expect(() => createConnector('folder', { config: {}, secrets: {}, logger: silentLogger() })).toThrow(
      'A folder connection needs a "path".',
    );
  });
});

describe('FolderConnector.search', () => {
  it('finds terms case-insensitively, ranks files matching more terms first, and builds snippets', async () => {
    const hits = await new FolderConnector({ root: vault }).search('INSTALLER linux', { limit: 10 });
    expect(hits.map((hit) => [hit.externalId, hit.title])).toEqual([
      ['guide/install.markdown', 'Install Guide'],
      ['guide/notes.txt', 'notes'],
    ]);
    expect(hits[0]).toMatchObject({
      url: join(vault, 'guide', 'install.markdown'),
      knowledgeBase: 'My Vault',
      snippet: '# Installing Run the installer on Linux.',
    });
  });

  it('finds a two-character Chinese word inside unsegmented text', async () => {
    const hits = await new FolderConnector({ root: vault }).search('发票', { limit: 5 });
    expect(hits.map((hit) => hit.externalId)).toEqual(['guide/深入/报销流程.md']);
    expect(hits[0]?.snippet).toContain('发票');
  });

  it('returns nothing for empty, punctuation-only or emoji queries, and honours limit and file bounds', async () => {
    const connector = new FolderConnector({ root: vault });
    expect(await connector.search('', { limit: 5 })).toEqual([]);
    expect(await connector.search(' ?!… 🙂 ', { limit: 5 })).toEqual([]);
    expect(await connector.search('installer', { limit: 1 })).toHaveLength(1);
    expect(
      await new FolderConnector({ root: vault, searchMaxFiles: 1 }).search('installer', { limit: 5 }),
    ).toEqual([]);
    expect((await connector.search('x'.repeat(10_000), { limit: 5 })).length).toBe(0);
  });

  it('is cancellable', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      await failureOf(
        new FolderConnector({ root: vault }).search('installer', { limit: 5, signal: controller.signal }),
      ),
    ).toMatchObject({ code: 'CANCELLED' });
  });

  it('splits queries into unique lower-cased word terms', () => {
    expect(queryTerms('  Foo  foo 报销  -- 🙂 ')).toEqual(['foo', '报销']);
  });
});
