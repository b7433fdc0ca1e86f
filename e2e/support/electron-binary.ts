/** Finds Electron's own binary the way `require('electron')` does, without throwing when it is absent. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

export function findElectronBinary(root = process.cwd()): ElectronBinary {
  const packageDir = join(root, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      ok: false,
      reason:
        'Electron binary is not installed: node_modules/electron/path.txt is missing because its download did not run (install scripts are not allowed here and there is no network for it). Run `node node_modules/electron/install.js` where it can download.',
    };
  }
  const path = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(path)
    ? { ok: true, path }
    : { ok: false, reason: `Electron binary is missing at ${path}.` };
}
