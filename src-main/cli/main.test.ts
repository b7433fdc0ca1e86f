import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchCommand } from './commands/search';
import type { CliCommand } from './command';
import { CAIRN_VERSION } from '../core/app/version';
import { splitGlobalOptions } from './main';
import type { OpenCairnOptions } from './open-cairn';
import { runCli } from '../testing/run-cli';

const searchUsage = searchCommand.usage;

describe('cairn dispatcher', () => {
  it('prints usage on --help (exit 0) and with no command (exit 2)', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cairn \[--data-dir <dir>\] <command> \[args\]/);
    for (const name of ['status', 'add-folder', 'add', 'test', 'mode', 'sync', 'search', 'remove'])
      expect(help.stdout).toContain(`\n  ${name} `);
    expect(await runCli([])).toMatchObject({ code: 2, stdout: '' });
  });

  it('prints its version for --version, -v, -V and `version`, opening nothing', async () => {
    const opened: OpenCairnOptions[] = [];
    const runs = await Promise.all(
      [['--version'], ['-v'], ['-V'], ['version']].map((argv) => runCli(argv, { opened })),
    );
    expect(runs).toEqual(Array(4).fill({ code: 0, stdout: `${CAIRN_VERSION}\n`, stderr: '' }));
    expect(opened).toEqual([]);
  });

  it('rejects an unknown command with usage and exit 2', async () => {
    const run = await runCli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cairn: unknown command "frobnicate"\n\nUsage: cairn/);
  });

  it('shows a command usage for `<command> --help` and `help <command>`', async () => {
    expect(await runCli(['search', '--help'])).toEqual({
      code: 0,
      stdout: `Usage: ${searchUsage}\n`,
      stderr: '',
    });
    expect((await runCli(['help', 'add'])).stdout).toContain(
      '  yuque    [--base-url <baseUrl>] --token <token>',
    );
  });

  it('answers bad or missing arguments with a clear message, the usage and exit 2, before opening anything', async () => {
    const opened: OpenCairnOptions[] = [];
    const cases: [string[], string][] = [
      [['add-folder'], 'cairn add-folder: Missing the folder <path>.'],
      [
        ['add-folder', '/x', '--mode', 'cloud'],
        'cairn add-folder: --mode must be "rag" or "direct", not "cloud".',
      ],
      [['search', 'q', '--k', 'ten'], 'cairn search: --k must be a whole number from 1 to 50, not "ten".'],
      [['search', 'q', '--k', '80'], 'cairn search: --k must be a whole number from 1 to 50, not "80".'],
      [['search', '  '], 'cairn search: The query is empty.'],
      [['status', '--colour'], "cairn status: Unknown option '--colour'."],
      [['add', 'notion', '--name', 'N'], 'cairn add: Unknown platform "notion".'],
      [['add', 'folder', '--name', 'N'], 'cairn add: Use `cairn add-folder <path>` for local folders.'],
      [['add', 'yuque', '--name', 'Wiki'], 'cairn add: Missing --token (or CAIRN_TOKEN) for yuque.'],
      [
        ['add', 'yuque', '--name', 'Wiki', '--token', 't', '--app-id', 'a'],
        'cairn add: --app-id is not an option for yuque.',
      ],
      [['add', 'feishu', '--app-id', 'a', '--app-secret', 's'], 'cairn add: Missing --name <name>.'],
      [['mode', 'notes'], 'cairn mode: Missing the <connection> and the mode (rag or direct).'],
      [['remove', 'a', 'b'], 'cairn remove: Unexpected argument "b".'],
      [['--data-dir'], "cairn: Option '--data-dir <dir>' argument missing"],
    ];
    for (const [argv, message] of cases) {
      const run = await runCli(argv, { opened });
      expect({ argv, code: run.code, first: run.stderr.split('\n')[0] }).toEqual({
        argv,
        code: 2,
        first: message.split('\n')[0],
      });
    }
    expect(opened).toEqual([]);
  });

  it('passes the chosen data directory to the core, which opens it on disk', async () => {
    const opened: OpenCairnOptions[] = [];
    await runCli(['--data-dir', 'rel/data', 'status'], { opened, env: { CAIRN_DATA_DIR: '/env/dir' } });
    await runCli(['status', '--data-dir=/flag/dir'], { opened });
    await runCli(['status'], { opened, env: { CAIRN_DATA_DIR: '/env/dir' } });
    expect(opened.map((o) => o.dataDir)).toEqual([
      { path: resolve('rel/data'), source: 'flag' },
      { path: '/flag/dir', source: 'flag' },
      { path: '/env/dir', source: 'env' },
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'cairn-main-'));
    try {
      const real = await runCli(['--data-dir', dir, 'status', '--json']);
      expect({
        code: real.code,
        dataDir: (JSON.parse(real.stdout) as { value: { dataDir: string } }).value.dataDir,
      }).toEqual({ code: 0, dataDir: dir });
      expect(existsSync(join(dir, 'db'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports an unexpected failure as one JSON document under --json, exit 1', async () => {
    const boom: CliCommand = {
      name: 'boom',
      summary: 'fails',
      usage: 'cairn boom [--json]',
      run: async () => {
        throw new TypeError('kaput');
      },
    };
    const run = await runCli(['boom', '--json'], { commands: [boom] });
    expect({ code: run.code, stdout: JSON.parse(run.stdout) as unknown }).toEqual({
      code: 1,
      stdout: { ok: false, error: { code: 'INTERNAL', message: 'kaput' } },
    });
    expect(run.stderr).toMatch(/^cairn: unexpected error: TypeError: kaput\n {4}at /);
  });

  it('leaves arguments after -- alone', () => {
    expect(splitGlobalOptions(['search', '--', '--data-dir', 'x'])).toEqual({
      dataDir: undefined,
      rest: ['search', '--', '--data-dir', 'x'],
    });
  });
});
