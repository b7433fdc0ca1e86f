/**
 * The built `cairn` (scripts/build-cli.mjs): plain Node runs it, no tsx, no sources. Built into a
 * folder of its own inside the checkout (its imports find node_modules from there).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
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

/** The packages and the build's own files the process imported (printed by PACKAGE_HOOK on stderr), in order. */
async function cairnListingPackages(...args: string[]) {
  const result = await cairnWith(['--import', join(work, 'register-package-hook.mjs')], ...args);
  const packages = [...result.stderr.matchAll(/^package (\S+)$/gm)].map((match) => match[1]);
  const builtFiles = [...result.stderr.matchAll(/^built (\S+)$/gm)].map((match) => match[1]);
  return { ...result, packages, builtFiles };
}

/** The build's files whose text matches `pattern` (a module's declaration, to find its chunk). */
async function builtFilesMatching(pattern: RegExp): Promise<string[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const names = (await readdir(outdir)).filter((name) => name.endsWith('.js'));
  const texts = await Promise.all(names.map((name) => readFile(join(outdir, name), 'utf8')));
  return names.filter((_, index) => pattern.test(texts[index]!));
}

/**
 * All a command answered without the database may load: the data directory's default location
 * (env-paths and its one dependency). No zod, PGlite, text analysis or tokenizer: Node's own
 * start-up is most of what is left (docs/decisions/cli-startup.md).
 */
const CLIENT_PACKAGES = ['env-paths', 'is-safe-filename'];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'cairn-built-cli-'));
  await run(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--outdir', outdir]);
  // A module hook lists every package a process imports (on stderr).
  const hook = join(work, 'package-hook.mjs');
  await writeFile(hook, PACKAGE_HOOK);
  await writeFile(
    join(work, 'register-package-hook.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
  );
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

  it('loads only what --version and --help print', async () => {
    const version = await cairnListingPackages('--version');
    expect(version.stdout).toBe('0.1.0\n');
    const help = await cairnListingPackages('--help');
    expect(help.stdout).toMatch(/^Usage: cairn/);
    for (const loaded of [version.packages, help.packages])
      expect(loaded.filter((name) => !CLIENT_PACKAGES.includes(name!))).toEqual([]);
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
      const found = await cairnListingPackages('--data-dir', dataDir, 'search', '住宿', '--json');
      expect(found.code).toBe(0);
      const response = JSON.parse(found.stdout) as { ok: true; value: { hits: { title: string }[] } };
      expect(response.value.hits.map((hit) => hit.title)).toEqual(['差旅']);
      // What searching never needs stays unloaded, though the folder holds a PDF: file readers, the
      // chat/embedding SDK, DingTalk's socket, gpt-tokenizer (the term prior reads the build's rank
      // table, o200k_base.ranks) (docs/decisions/cli-startup.md). The index must have loaded.
      const loaded = found.packages;
      expect(loaded).toContain('@electric-sql/pglite');
      for (const optional of ['exceljs', 'mammoth', 'unpdf', 'csv-parse', 'openai', 'ws', 'gpt-tokenizer'])
        expect(loaded).not.toContain(optional);
      // The process serves the data directory while it holds it, but nobody called it: the API's
      // schemas (zod, every channel) that answering a client needs were not built.
      const apiSchemas = await builtFilesMatching(/\bvar API_SCHEMAS\b/);
      expect(apiSchemas).toHaveLength(1);
      expect(found.builtFiles.some((file) => file.startsWith('instance-host-'))).toBe(true);
      expect(found.builtFiles).not.toContain(apiSchemas[0]);
      // A one-shot read keeps PGlite's WebAssembly at its baseline code: V8 prints (on stdout) each
      // function it compiles, and none goes to the optimising compiler (a bare open sends dozens).
      const compiled = await cairnWith(
        ['--trace-wasm-compilation-times'],
        '--data-dir',
        dataDir,
        'search',
        '住宿',
      );
      expect(compiled.code).toBe(0);
      expect(compiled.stdout).toMatch(/using Liftoff/);
      expect(compiled.stdout).not.toMatch(/using TurboFan/);
      const pdf = await cairn('--data-dir', dataDir, 'search', 'zeppelin hangar', '--json');
      expect(pdf.code).toBe(0);
      const pdfHits = (JSON.parse(pdf.stdout) as { value: { hits: { title: string }[] } }).value.hits;
      expect(pdfHits[0]?.title).toBe('Hangar Report');

      // With `cairn serve` holding the data directory, a search is a client of it: it loads no
      // package beyond CLIENT_PACKAGES (no PGlite, zod, analyzer), and finds the same.
      const stop = await startServe(dataDir);
      try {
        const remote = await cairnListingPackages('--data-dir', dataDir, 'search', '住宿', '--json');
        expect(remote.code).toBe(0);
        const remoteHits = (JSON.parse(remote.stdout) as { value: { hits: { title: string }[] } }).value.hits;
        expect(remoteHits.map((hit) => hit.title)).toEqual(['差旅']);
        expect(remote.packages.filter((name) => !CLIENT_PACKAGES.includes(name!))).toEqual([]);
      } finally {
        await stop();
      }
    },
  );
});

/** Starts the built `cairn serve` on `dataDir`; resolves once it listens, with its stop (Ctrl-C). */
async function startServe(dataDir: string): Promise<() => Promise<void>> {
  const child = spawn(
    process.execPath,
    [join(outdir, 'cli.js'), '--data-dir', dataDir, 'serve', '--port', '0'],
    {
      cwd: work,
      env: { PATH: process.env.PATH ?? '', HOME: work },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('Press Ctrl+C')) resolve();
    });
    void exited.then(() => reject(new Error('cairn serve exited before listening')));
  });
  return async () => {
    child.kill('SIGINT');
    await exited;
  };
}

/** A resolve hook (a module of its own) that prints each package once as the process imports it. */
const PACKAGE_HOOK = [
  'const seen = new Set();',
  'export async function resolve(specifier, context, next) {',
  '  const resolved = await next(specifier, context);',
  '  const name = /node_modules[/]((@[^/]+[/])?[^/]+)/.exec(resolved.url)?.[1];',
  '  if (name && !seen.has(name)) { seen.add(name); process.stderr.write(`package ${name}\\n`); }',
  `  if (!name && resolved.url.startsWith(${JSON.stringify(pathToFileURL(outdir).href + '/')})) process.stderr.write(\`built \${resolved.url.slice(resolved.url.lastIndexOf('/') + 1)}\\n\`);`,
  '  return resolved;',
  '}',
].join('\n');
