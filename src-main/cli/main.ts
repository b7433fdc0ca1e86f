/**
 * Entry of the `cairn` command: `cairn [--data-dir <dir>] <command> [args]`. Exit codes: 0 ok,
 * 1 failed, 2 bad arguments, 130 interrupted (SIGINT, SIGTERM or SIGHUP). Commands live in ./commands,
 * one file each.
 */
import { resolveDataDir } from '../core/app/data-dir';
import { CAIRN_VERSION } from '../core/app/version';
import { CairnError, toErrorData } from '../core/errors';
import { UsageError } from './args';
import type { CliCommand, CliContext, CliIo, OpenedCairn } from './command';
import { COMMANDS } from './commands/index';
import { openCairnFromCli, type OpenCairn } from './open-cairn';
import { reportError, terminalStream, writeJson, writeLine } from './output';

/** Signals that interrupt a command as Ctrl-C does (exit code 130). */
const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface CliDeps {
  io?: CliIo;
  open?: OpenCairn;
  commands?: CliCommand[];
  /** Ctrl-C; by default wired to SIGINT, SIGTERM and SIGHUP while a command runs. */
  signal?: AbortSignal;
}

export function usage(commands: CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: cairn [--data-dir <dir>] <command> [args]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Options:',
    '  --data-dir <dir>  Where Cairn keeps its index (default: CAIRN_DATA_DIR, else the per-user app-data folder)',
    "  --help, -h        Show help; `cairn <command> --help` shows a command's usage",
    '  --version, -v     Show the version (also -V and `cairn version`)',
    '',
    'Exit codes: 0 ok, 1 failed, 2 bad arguments, 130 interrupted (Ctrl-C, SIGTERM, SIGHUP).',
  ].join('\n');
}

/** Pulls the global `--data-dir` out of argv (anywhere before `--`). */
export function splitGlobalOptions(argv: string[]): { dataDir: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--data-dir') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--'))
        throw new UsageError("Option '--data-dir <dir>' argument missing");
      dataDir = value;
      i++;
    } else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
    else rest.push(arg);
  }
  return { dataDir, rest };
}

export async function main(argv: string[], deps: CliDeps = {}): Promise<number> {
  const given: CliIo = deps.io ?? { stdout: process.stdout, stderr: process.stderr, env: process.env };
  // Names, titles and answers come from documents: their control characters never reach the terminal raw.
  const io: CliIo = { ...given, stdout: terminalStream(given.stdout), stderr: terminalStream(given.stderr) };
  const commands = deps.commands ?? COMMANDS;
  let global: ReturnType<typeof splitGlobalOptions>;
  try {
    global = splitGlobalOptions(argv);
  } catch (error) {
    writeLine(io.stderr, `cairn: ${(error as Error).message}\n\n${usage(commands)}`);
    return 2;
  }
  const [name, ...args] = global.rest;
  if (name === '--help' || name === '-h' || (name === 'help' && args.length === 0)) {
    writeLine(io.stdout, usage(commands));
    return 0;
  }
  if (name === '--version' || name === '-v' || name === '-V' || (name === 'version' && args.length === 0)) {
    writeLine(io.stdout, CAIRN_VERSION);
    return 0;
  }
  if (name === undefined) {
    writeLine(io.stderr, usage(commands));
    return 2;
  }
  const helpFor = name === 'help' ? args[0] : undefined;
  const command = commands.find((candidate) => candidate.name === (helpFor ?? name));
  if (!command) {
    writeLine(io.stderr, `cairn: unknown command "${helpFor ?? name}"\n\n${usage(commands)}`);
    return 2;
  }
  const beforeTerminator = args.indexOf('--') === -1 ? args : args.slice(0, args.indexOf('--'));
  if (helpFor || beforeTerminator.includes('--help') || beforeTerminator.includes('-h')) {
    writeLine(io.stdout, `Usage: ${command.usage}`);
    return 0;
  }

  const controller = new AbortController();
  // Ctrl-C, a service manager's stop or a logout (SIGTERM), a closed terminal (SIGHUP): each
  // cancels the command's work, which records a running sync as stopped, then the data directory's
  // lock and socket are released in `finally`. A second signal finds no handler and ends the process.
  const onInterrupt = () => controller.abort();
  if (!deps.signal) for (const name of INTERRUPT_SIGNALS) process.once(name, onInterrupt);
  let opened: OpenedCairn | undefined;
  const signal = deps.signal ?? controller.signal;
  const context: CliContext = {
    ...io,
    signal,
    dataDirPath: () => resolveDataDir({ flag: global.dataDir, env: io.env }).path,
    async open(options) {
      if (!opened)
        opened = await (deps.open ?? openCairnFromCli)({
          dataDir: resolveDataDir({ flag: global.dataDir, env: io.env }),
          env: io.env,
          scheduler: options?.scheduler ?? false,
          ...(options?.semanticIndex !== undefined ? { semanticIndex: options.semanticIndex } : {}),
          ...(options?.readOnly ? { oneShotRead: true } : {}),
          role: options?.role ?? 'client',
          onWait: (message) => writeLine(io.stderr, `cairn: ${message}`),
        });
      // Every command's long calls (search, connection tests) stop on Ctrl-C, also one pressed
      // while the database was opening (the signal is then already aborted).
      return { ...opened, api: opened.cancellable(signal) };
    },
    connect: (options) =>
      openCairnFromCli({
        dataDir: resolveDataDir({ flag: global.dataDir, env: io.env }),
        env: io.env,
        role: 'mcp',
        onYield: options.onYield,
        onWait: (message) => writeLine(io.stderr, `cairn: ${message}`),
      }),
  };
  const json = args.includes('--json');
  try {
    return await command.run(args, context);
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `cairn ${command.name}: ${error.message}\nUsage: ${command.usage}`);
      return 2;
    }
    if (!(error instanceof CairnError)) {
      writeLine(
        io.stderr,
        `cairn: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      // The stack went to stderr; --json still gets its one document (INTERNAL, exit 1).
      if (json) writeJson(io, { ok: false, error: toErrorData(error) });
      return 1;
    }
    return reportError(io, toErrorData(error), json);
  } finally {
    for (const name of INTERRUPT_SIGNALS) process.removeListener(name, onInterrupt);
    await opened?.dispose();
  }
}
