import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the OS temp dir, removed when the instance is disposed (in-memory instances' models). */
export function temporaryFolder(prefix: string, disposers: { push(dispose: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  disposers.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
