/**
 * How the CLI reaches Cairn: the running instance (the app, `cairn serve`, or another cairn
 * command) over its socket when there is one, else the data directory opened here, which this
 * process then serves in turn (src-main/instance/open-instance.ts). The composition root is
 * loaded only on that second path, so a command answered over the socket never loads PGlite.
 */
import { setFlagsFromString } from 'node:v8';
import type { DataDirChoice } from '../core/app/data-dir';
import { CAIRN_VERSION } from '../core/app/version';
import type { Logger } from '../core/logging/logger';
import { openInstance, openPrimary } from '../instance/open-instance';
import type { InstanceKind } from '../instance/protocol';
import type { CairnSession } from '../instance/session';
import type { OpenedCairn } from './command';

export interface OpenCairnOptions {
  dataDir: DataDirChoice;
  env: NodeJS.ProcessEnv;
  /** @default false: one-shot commands must not start overdue syncs behind the user's back. */
  scheduler?: boolean;
  /** Build the semantic index's vectors when the data directory is opened here. @default as `scheduler` */
  semanticIndex?: boolean;
  /** A one-shot command that only reads (CreateCairnOptions.oneShotRead); ignored for `serve` and `mcp`. */
  oneShotRead?: boolean;
  /**
   * client (default): any running instance may answer. serve: this process must hold the data
   * directory (it asks a `cairn mcp` or one-shot holder to hand over). mcp: like client, and a
   * holder that hands over when the app starts.
   */
  role?: 'client' | 'serve' | 'mcp';
  /** Progress lines while waiting for another process (stderr). */
  onWait?: (message: string) => void;
  /** While this process holds the data directory: the app or `cairn serve` asks for it. */
  onYield?: () => boolean;
  logger?: Logger;
}

export type OpenCairn = (options: OpenCairnOptions) => Promise<OpenedCairn>;

/**
 * V8 compiles a WebAssembly function that runs hot a second time, with its optimising compiler
 * (TurboFan), on background threads. PGlite's Postgres is one large module with very large
 * functions: a bare PGlite open and one query sent 59 of them to TurboFan, 1.09 s of compiling, and
 * took 1.33 s where the same process kept to the baseline code (Liftoff) took 0.68 s (median of 5,
 * load ~4, 2 cores). A one-shot read ends long before optimised code pays that back: its process
 * raises the tiering budget beyond reach before PGlite compiles its module. Code is the same
 * WebAssembly, only compiled once; processes that stay open or write keep V8's default.
 */
export const ONE_SHOT_V8_FLAGS = '--wasm-tiering-budget=2000000000';

export async function openCairnFromCli(options: OpenCairnOptions): Promise<CairnSession> {
  const role = options.role ?? 'client';
  const kind: InstanceKind = role === 'serve' ? 'serve' : role === 'mcp' ? 'mcp' : 'cli';
  const oneShotRead = role === 'client' && (options.oneShotRead ?? false);
  const common = {
    dataDir: options.dataDir.path,
    kind,
    version: CAIRN_VERSION,
    openHere: async () => {
      if (oneShotRead) setFlagsFromString(ONE_SHOT_V8_FLAGS);
      const { createCairn } = await import('../core/app/create-cairn');
      const open = () =>
        createCairn({
          dataDir: options.dataDir.path,
          env: options.env,
          scheduler: options.scheduler ?? false,
          buildSemanticIndex: options.semanticIndex ?? options.scheduler ?? false,
          oneShotRead,
          ...(options.logger ? { logger: options.logger } : {}),
        });
      if (role !== 'serve') return open();
      // `cairn serve` on a database Cairn refuses stays up to offer the recovery in the browser.
      const { openRecoverableCairn } = await import('../core/app/recoverable-cairn');
      return openRecoverableCairn({
        dataDir: options.dataDir.path,
        open,
        ...(options.logger ? { logger: options.logger } : {}),
      });
    },
    ...(options.onWait ? { onWait: options.onWait } : {}),
    // A one-shot command releases the data directory when it ends anyway: it says yes and finishes.
    onYield: options.onYield ?? (() => true),
    ...(options.logger ? { logger: options.logger } : {}),
  };
  return role === 'serve' ? openPrimary(common) : openInstance(common);
}
