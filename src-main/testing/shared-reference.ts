/**
 * The project's read-only reference folder `shared/` (eval collections, the Yuque OpenAPI spec)
 * sits beside the repository in CI (<repoRoot>/../shared). A clone or git worktree placed deeper
 * finds it further up: the nearest ancestor of the repository that has `shared/<name>` wins.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The path of `shared/<name>` in the nearest ancestor of `repoRoot`, or null when none has it. */
export function findSharedReference(repoRoot: string, name: string): string | null {
  for (let dir = resolve(repoRoot, '..'); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}
