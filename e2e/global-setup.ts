/** Builds the bundles once before the suite when the renderer is missing or older than its sources. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { bundlesAreStale } from './support/build-state';

export default function globalSetup(): void {
  const root = process.cwd();
  if (!bundlesAreStale(root)) return;
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    { cwd: root, stdio: 'inherit' },
  );
}
