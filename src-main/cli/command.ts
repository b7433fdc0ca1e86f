import type { Cairn } from '../core/app/cairn';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

export interface CliContext extends CliIo {
  /**
   * Opens Cairn on the data directory chosen by --data-dir / CAIRN_DATA_DIR / the OS default.
   * One-shot commands leave the 24 h scheduler off; long-running ones (serve) turn it on.
   */
  open(options?: { scheduler?: boolean }): Promise<Cairn>;
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
