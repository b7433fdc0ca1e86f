/**
 * What a folder connection leaves out: tool folders by default, the folder's .gitignore files
 * (each applying below its own folder, as git reads them), and the connection's own patterns
 * (gitignore syntax, e.g. `drafts/`, `*.tmp`, `archive/**`). Matching is the `ignore` package,
 * the .gitignore implementation eslint and others use (https://git-scm.com/docs/gitignore).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * Folders that are never knowledge: version control, dependencies, caches, the trash and the
 * settings of Obsidian, editors and OSes. Names starting with "." are left out as well.
 */
export const DEFAULT_EXCLUDED_NAMES: readonly string[] = [
  'node_modules',
  'bower_components',
  '__pycache__',
  'venv',
  '$RECYCLE.BIN',
  'System Volume Information',
  '_site',
];

/** Splits the stored `exclude` setting (one pattern per line or comma) into patterns. */
export function parseExcludePatterns(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(/[\n,]/)
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern.length > 0 && !pattern.startsWith('#'));
}

/** Rules in force in one folder: its parent's plus its own .gitignore. */
export class ExclusionRules {
  private constructor(
    /** Rules from a .gitignore, each with the folder (relative, POSIX, '' = root) it applies below. */
    private readonly gitignores: { base: string; rules: Ignore }[],
    private readonly user: Ignore,
  ) {}

  static create(userPatterns: string[]): ExclusionRules {
    return new ExclusionRules([], ignore({ allowRelativePaths: true }).add(userPatterns));
  }

  /** The rules for the folder `dir` (relative, POSIX), adding its .gitignore when it has one. */
  async enter(absoluteDir: string, dir: string): Promise<ExclusionRules> {
    let text: string;
    try {
      text = await readFile(join(absoluteDir, '.gitignore'), 'utf8');
    } catch {
      return this;
    }
    return new ExclusionRules([...this.gitignores, { base: dir, rules: ignore().add(text) }], this.user);
  }

  /**
   * Whether `path` (relative to the root, POSIX) is left out, and why. `isDir` matters to
   * patterns with a trailing slash.
   */
  excludes(path: string, name: string, isDir: boolean): 'default' | 'gitignore' | 'user' | null {
    if (name.startsWith('.') || (isDir && DEFAULT_EXCLUDED_NAMES.includes(name))) return 'default';
    const candidate = isDir ? `${path}/` : path;
    if (this.user.ignores(candidate)) return 'user';
    for (const { base, rules } of this.gitignores) {
      const below = base === '' ? candidate : candidate.slice(base.length + 1);
      if (rules.ignores(below)) return 'gitignore';
    }
    return null;
  }
}
