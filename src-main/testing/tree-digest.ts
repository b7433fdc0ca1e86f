/** Every file and folder under a directory with its mode and content hash: "nothing in it changed" as one value. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * `relative path → "mode sha256"` (folders: `"mode dir"`), sorted. `skip` names top-level entries
 * left out (e.g. `logs`, which a refusal writes to on purpose).
 */
export function treeDigest(root: string, skip: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(folder, entry.name);
      const name = relative(root, path);
      if (folder === root && skip.includes(entry.name)) continue;
      const mode = (statSync(path).mode & 0o7777).toString(8);
      if (entry.isDirectory()) {
        out[`${name}/`] = `${mode} dir`;
        walk(path);
      } else out[name] = `${mode} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    }
  };
  walk(root);
  return out;
}
