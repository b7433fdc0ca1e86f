/**
 * How the CLI opens Cairn: the one place that calls the composition root. Until the root lands,
 * commands that need Cairn say so plainly instead of half-working.
 */
import type { Cairn } from '../core/app/cairn';
import type { DataDirChoice } from '../core/app/data-dir';
import { CairnError } from '../core/errors';

export interface OpenCairnOptions {
  dataDir: DataDirChoice;
  env: NodeJS.ProcessEnv;
}

export type OpenCairn = (options: OpenCairnOptions) => Promise<Cairn>;

// WIRING: replace the body with the composition root, e.g. `createCairn({ dataDir: options.dataDir.path, env: options.env })`
// (it takes the data-dir lock, opens PGlite under dataDirLayout(path).database, and the FileSecretStore).
export async function openCairnFromCli(_options: OpenCairnOptions): Promise<Cairn> {
  throw new CairnError('UNSUPPORTED', 'This build of the cairn command is not wired to the Cairn core yet.');
}
