/**
 * The desktop shell's seam to the composition root: the real core (createCairn in
 * src-main/core/app) on the user's data directory, with Electron's safeStorage secret store.
 * The app holds the data directory itself and serves it on the instance socket, so the CLI and
 * `cairn mcp` work while it runs (a `cairn mcp` holding it is asked to hand over first).
 */
import { join } from 'node:path';
import { CAIRN_VERSION, createCairn } from '../core/app/create-cairn';
import { openRecoverableCairn } from '../core/app/recoverable-cairn';
import { openPrimary } from '../instance/open-instance';
import type { CairnSession } from '../instance/session';
import { resolveDataDir } from '../core/app/data-dir';
import type { Logger } from '../core/logging/logger';
import type { McpLaunch } from '../core/app/mcp-api';
import type { SecretStore } from '../core/secrets/secret-store';

export interface OpenCairnOptions {
  dataDir: string;
  secretStore: SecretStore;
  logger: Logger;
  /** How AI tools start `cairn mcp` with this app's own binary (see main.ts). */
  mcpLaunch: McpLaunch;
  /** The native folder picker for "Add folder". */
  pickFolder?: () => Promise<string | null>;
}

/** Same rule as the CLI: --data-dir, else CAIRN_DATA_DIR, else the OS per-user app-data folder. */
export function desktopDataDir(env: NodeJS.ProcessEnv, flag?: string): string {
  return resolveDataDir({ env, ...(flag ? { flag } : {}) }).path;
}

export function desktopSecretFile(dataDir: string): string {
  return join(dataDir, 'secrets', 'secrets.safe-storage.json');
}

export async function openCairn(options: OpenCairnOptions): Promise<CairnSession> {
  return openPrimary({
    dataDir: options.dataDir,
    kind: 'desktop',
    version: CAIRN_VERSION,
    // A database Cairn refuses to open is shown in the window with its two ways on (recoverable-cairn.ts).
    openHere: () =>
      openRecoverableCairn({
        dataDir: options.dataDir,
        logger: options.logger,
        open: () =>
          createCairn({
            dataDir: options.dataDir,
            secretStore: options.secretStore,
            logger: options.logger,
            mcpLaunch: options.mcpLaunch,
            ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
          }),
      }),
    logger: options.logger,
    onWait: (message) => options.logger.info(message),
  });
}
