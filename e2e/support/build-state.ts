/** Whether out/ is missing or older than its sources (the e2e global setup rebuilds then). */
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

const BUNDLES = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
const SOURCES = ['src-main', 'src-preload', 'src-renderer', 'src-shared'];

export function bundlesAreStale(root: string): boolean {
  if (BUNDLES.some((bundle) => !existsSync(join(root, bundle)))) return true;
  const oldest = Math.min(...BUNDLES.map((bundle) => statSync(join(root, bundle)).mtimeMs));
  return SOURCES.some((dir) => newestMtime(join(root, dir)) > oldest);
}
