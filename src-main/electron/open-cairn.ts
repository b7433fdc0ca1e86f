/**
 * The desktop shell's seam to the composition root. `--demo` runs the in-memory demo backend;
 * everything else runs the real core (createCairn in src-main/core/app), wired here and only here.
 */
import { join } from 'node:path';
import type { Cairn } from '../core/app/cairn';
import { createCairn } from '../core/app/create-cairn';
import { resolveDataDir } from '../core/app/data-dir';
import type { Logger } from '../core/logging/logger';
import type { SecretStore } from '../core/secrets/secret-store';
import { createDemoCairn } from '../host/demo-cairn';

export interface OpenCairnOptions {
  demo: boolean;
  dataDir: string;
  secretStore: SecretStore;
  logger: Logger;
}

/** Same rule as the CLI: --data-dir, else CAIRN_DATA_DIR, else the OS per-user app-data folder. */
export function desktopDataDir(env: NodeJS.ProcessEnv, flag?: string): string {
  return resolveDataDir({ env, ...(flag ? { flag } : {}) }).path;
}

export function desktopSecretFile(dataDir: string): string {
  return join(dataDir, 'secrets', 'secrets.safe-storage.json');
}

export async function openCairn(options: OpenCairnOptions): Promise<Cairn> {
  if (options.demo) return createDemoCairn();
  return createCairn({ dataDir: options.dataDir, secretStore: options.secretStore, logger: options.logger });
}
