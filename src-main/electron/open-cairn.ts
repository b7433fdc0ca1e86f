/**
 * The desktop shell's seam to the composition root. `--demo` runs the in-memory demo backend;
 * everything else must run the real core (createCairn in src-main/core/app), which is wired here
 * and only here. Until it lands on this branch, a non-demo start fails with a plain message.
 */
import { join } from 'node:path';
import envPaths from 'env-paths';
import type { Cairn } from '../core/app/cairn';
import { CairnError } from '../core/errors';
import type { Logger } from '../core/logging/logger';
import type { SecretStore } from '../core/secrets/secret-store';
import { createDemoCairn } from '../host/demo-cairn';

export interface OpenCairnOptions {
  demo: boolean;
  dataDir: string;
  secretStore: SecretStore;
  logger: Logger;
}

/** Same rule as the CLI: CAIRN_DATA_DIR, else the OS per-user app-data folder. */
export function desktopDataDir(env: NodeJS.ProcessEnv): string {
  return env.CAIRN_DATA_DIR || envPaths('Cairn', { suffix: '' }).data;
}

export function desktopSecretFile(dataDir: string): string {
  return join(dataDir, 'secrets', 'secrets.safe-storage.json');
}

export async function openCairn(options: OpenCairnOptions): Promise<Cairn> {
  if (options.demo) return createDemoCairn();
  // MERGE: return createCairn({ dataDir: options.dataDir, secretStore: options.secretStore, logger: options.logger });
  throw new CairnError('UNSUPPORTED', 'This build has no core wired into the desktop shell yet. Start with --demo to try the interface.');
}
