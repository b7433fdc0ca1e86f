#!/usr/bin/env node
// The `cairn` command. It runs the built CLI (out/cli/cli.js: `npm run build`, or npm's `prepare`
// right after `npm install`) when that build is newer than every source file; otherwise, in a
// checkout being edited or an install without build tools, it runs the TypeScript sources
// through tsx, which costs ~1 s of transpiling per start (docs/decisions/cli-startup.md).
// CAIRN_CLI_FROM_SOURCE=1 forces the sources.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}out/cli/cli.js`;

/** The newest modification time under `dir` (ms), stopping early once one beats `limit`. */
function newerThan(dir, limit) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() ? newerThan(path, limit) : statSync(path).mtimeMs > limit) return true;
  }
  return false;
}

function buildIsCurrent() {
  if (process.env.CAIRN_CLI_FROM_SOURCE === '1' || !existsSync(built)) return false;
  let builtAt;
  try {
    builtAt = JSON.parse(readFileSync(`${root}out/cli/built.json`, 'utf8')).builtAt;
  } catch {
    return false;
  }
  return !['src-main', 'src-shared'].some((dir) => newerThan(`${root}${dir}`, builtAt));
}

if (buildIsCurrent()) {
  await import(built);
} else {
  const { register } = await import('tsx/esm/api');
  // The tsconfig by path, not the caller's cwd: its `@shared/*` alias must resolve wherever `cairn` runs.
  register({ tsconfig: `${root}tsconfig.json` });
  await import('../src-main/cli/run.ts');
}
