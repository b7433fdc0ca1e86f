/**
 * The built `cairn` (scripts/build-cli.mjs): plain Node runs it, no tsx, no sources. Built into a
 * folder of its own inside the checkout (its imports find node_modules from there).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfBytes } from '../testing/file-fixtures';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const outdir = join(root, '.cache', `built-cli-test-${process.pid}`);
let work: string;

async function cairn(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cairnWith([], ...args);
}

async function cairnWith(
  nodeArgs: string[],
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...nodeArgs, join(outdir, 'cli.js'), ...args], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '', HOME: work },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'cairn-built-cli-'));
  await run(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--outdir', outdir]);
});
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

describe('the built cairn command', () => {
  it('answers --version, --help and bad arguments without creating a data directory', async () => {
    const dataDir = join(work, 'untouched');
    expect(await cairn('--version')).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    const help = await cairn('--data-dir', dataDir, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cairn \[--data-dir <dir>\] <command> \[args\]/);
    const bad = await cairn('--data-dir', dataDir, 'search', 'q', '--k', 'ten');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^cairn search: --k must be a whole number/);
    await expect(import('node:fs').then((fs) => fs.existsSync(dataDir))).resolves.toBe(false);
  });

  // Three fresh processes each open the database: minutes on a loaded 2-core machine.
  // The PDF is read by the bundled extract-worker.js: the sources' tsx bootstrap is not there.
  it(
    'indexes a folder (a PDF too) and finds Chinese text in it, from plain Node',
    { timeout: 400_000 },
    async () => {
      const notes = join(work, 'notes');
      await mkdir(notes);
      await writeFile(join(notes, 'travel.md'), '# 差旅\n\n出差住宿标准：一线城市每晚不超过 600 元。\n');
      await writeFile(join(notes, 'deploy.md'), '# Deploy\n\nRoll out the canary first.\n');
      await writeFile(
        join(notes, 'hangar.pdf'),
        pdfBytes([['The zeppelin hangar budget'], ['Second page']], { title: 'Hangar Report' }),
      );
      const dataDir = join(work, 'data');
      const added = await cairn('--data-dir', dataDir, 'add-folder', notes, '--name', 'Notes');
      expect(added.code).toBe(0);
      expect((await cairn('--data-dir', dataDir, 'sync', 'Notes')).code).toBe(0);
      // A module hook lists every package the search process imports (on stderr).
      const hook = join(work, 'package-hook.mjs');
      const register = join(work, 'register-package-hook.mjs');
      await writeFile(hook, PACKAGE_HOOK);
      await writeFile(
        register,
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
      );
      const found = await cairnWith(
        ['--import', register],
        '--data-dir',
        dataDir,
        'search',
        '住宿',
        '--json',
      );
      expect(found.code).toBe(0);
      const response = JSON.parse(found.stdout) as { ok: true; value: { hits: { title: string }[] } };
      expect(response.value.hits.map((hit) => hit.title)).toEqual(['差旅']);
      // What searching never needs stays unloaded, though the folder holds a PDF: file readers, the
      // chat/embedding SDK, DingTalk's socket (docs/decisions/cli-startup.md). The index must have loaded.
      const loaded = [...found.stderr.matchAll(/^package (\S+)$/gm)].map((match) => match[1]);
      expect(loaded).toContain('@electric-sql/pglite');
      for (const optional of ['exceljs', 'mammoth', 'unpdf', 'csv-parse', 'openai', 'ws'])
        expect(loaded).not.toContain(optional);
      const pdf = await cairn('--data-dir', dataDir, 'search', 'zeppelin hangar', '--json');
      expect(pdf.code).toBe(0);
      const pdfHits = (JSON.parse(pdf.stdout) as { value: { hits: { title: string }[] } }).value.hits;
      expect(pdfHits[0]?.title).toBe('Hangar Report');
    },
  );
});

/** A resolve hook (a module of its own) that prints each package once as the process imports it. */
const PACKAGE_HOOK = [
  'const seen = new Set();',
  'export async function resolve(specifier, context, next) {',
  '  const resolved = await next(specifier, context);',
  '  const name = /node_modules[/]((@[^/]+[/])?[^/]+)/.exec(resolved.url)?.[1];',
  '  if (name && !seen.has(name)) { seen.add(name); process.stderr.write(`package ${name}\\n`); }',
  '  return resolved;',
  '}',
].join('\n');
