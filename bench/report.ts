/** Output for both harnesses: Markdown tables (readable in a terminal, pasteable into the README) and results files. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where results land (documented in the README): dated files plus latest-<kind>.json. */
export const RESULTS_DIR = join(REPO_ROOT, 'bench-results');

export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string {
  const cells = [headers.map(String), ...rows.map((row) => row.map(String))];
  const widths = headers.map((_h, c) => Math.max(3, ...cells.map((row) => (row[c] ?? '').length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [
    line(cells[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

/** A number with `digits` decimals, or '–' when missing. */
export function num(value: number | null | undefined, digits = 0): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The commit the numbers were measured on (with "+dirty" for uncommitted changes), or null outside git. */
export function currentCommit(): string | null {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (head.status !== 0) return null;
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src-main', 'src-shared', 'bench'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return `${head.stdout.trim()}${dirty.stdout.trim() ? '+dirty' : ''}`;
}

/** Writes bench-results/<kind>-<date>.json and bench-results/latest-<kind>.json; returns their paths. */
export function writeResults(kind: 'bench' | 'eval' | `eval-${string}`, data: unknown): string[] {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const text = `${JSON.stringify(data, null, 2)}\n`;
  const paths = [join(RESULTS_DIR, `${kind}-${today()}.json`), join(RESULTS_DIR, `latest-${kind}.json`)];
  for (const path of paths) writeFileSync(path, text);
  return paths;
}
