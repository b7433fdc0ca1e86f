import type { Cairn } from '../core/app/cairn';
import type { AnsweredBy } from '../instance/protocol';
import type { CairnSession } from '../instance/session';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

export interface CliContext extends CliIo {
  /**
   * Reaches Cairn on the data directory chosen by --data-dir / CAIRN_DATA_DIR / the OS default:
   * the running instance over its socket, else the data directory opened in this process.
   * One-shot commands leave the 24 h scheduler off; `serve` turns it on and must hold the data
   * directory itself (role 'serve'). `semanticIndex`: a data directory opened here builds the
   * semantic index's vectors (`cairn sync`); @default as `scheduler`. `readOnly`: the command only
   * reads (search, status), so a data directory opened here skips the upkeep that belongs to
   * processes that write or stay open (CreateCairnOptions.oneShotRead).
   */
  open(options?: {
    scheduler?: boolean;
    role?: 'client' | 'serve';
    semanticIndex?: boolean;
    readOnly?: boolean;
  }): Promise<OpenedCairn>;
  /**
   * A fresh way in each call, for long-running clients (`cairn mcp`) that must find Cairn again
   * after the app quits or starts: the running instance, else the data directory opened here.
   */
  connect(options: { onYield: () => boolean }): Promise<CairnSession>;
  /** The data directory chosen by --data-dir / CAIRN_DATA_DIR / the OS default (absolute). */
  dataDirPath(): string;
  /** Aborted on Ctrl-C: long commands cancel their work and exit 130. */
  signal: AbortSignal;
}

/** One `cairn <name>` subcommand, one file in ./commands (registered in ./commands/index.ts). */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** Returns the process exit code: 0 ok, 1 failed, 2 bad arguments. */
  run(args: string[], context: CliContext): Promise<number>;
}

/** Cairn as a command gets it; `answeredBy` says which process answers (absent for a test's in-memory one). */
export type OpenedCairn = Cairn & { answeredBy?: AnsweredBy };
