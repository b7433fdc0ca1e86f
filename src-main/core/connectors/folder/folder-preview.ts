/**
 * "What will this folder index?" before it is added: the files Cairn would read, counted by kind,
 * plus what it would skip and why. Reads no file contents; stops counting at a cap and after a
 * time budget, so a mistyped path like `/` answers quickly.
 */
import type { FolderPreview } from '@shared/models';
import { parseExcludePatterns } from './exclusions';
import { FolderConnector } from './folder-connector';
import { expandHome } from './home-path';

/** @default 50,000 files, 10 s */
export async function previewFolder(
  input: { path: string; exclude?: string },
  signal?: AbortSignal,
  limits: { cap?: number; timeoutMs?: number } = {},
): Promise<FolderPreview> {
  const connector = new FolderConnector({
    root: expandHome(input.path),
    exclude: parseExcludePatterns(input.exclude ?? ''),
  });
  return connector.preview({
    signal,
    cap: limits.cap ?? 50_000,
    deadline: Date.now() + (limits.timeoutMs ?? 10_000),
  });
}
