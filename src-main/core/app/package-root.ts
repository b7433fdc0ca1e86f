/**
 * The folder holding Cairn's package.json: the checkout when running from source, the app's
 * folder (or asar archive) when built. Found by walking up from this module rather than a fixed
 * `../../..`, because the same code runs from src-main/core/app/, out/cli/ and out/main/.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

export function packageRoot(): string {
  if (found) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return (found = dir);
    if (dirname(dir) === dir) return (found = start);
  }
}
