/** How the CLI opens Cairn: the one place the CLI calls the composition root. */
import type { Cairn } from '../core/app/cairn';
import { createCairn } from '../core/app/create-cairn';
import type { DataDirChoice } from '../core/app/data-dir';

export interface OpenCairnOptions {
  dataDir: DataDirChoice;
  env: NodeJS.ProcessEnv;
  /** @default false: one-shot commands must not start overdue syncs behind the user's back. */
  scheduler?: boolean;
}

export type OpenCairn = (options: OpenCairnOptions) => Promise<Cairn>;

export async function openCairnFromCli(options: OpenCairnOptions): Promise<Cairn> {
  return createCairn({
    dataDir: options.dataDir.path,
    env: options.env,
    scheduler: options.scheduler ?? false,
  });
}
