/** Whether out/ is older than the sources (shared by the e2e global setup; scripts/start.js has its own copy in plain JS). */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function rendererIsStale(root: string): boolean {
  const index = join(root, 'out', 'renderer', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return ['src-renderer', 'src-shared'].some((dir) => newestMtime(join(root, dir)) > built);
}
