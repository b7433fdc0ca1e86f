/** `~` and `~/…` mean the user's home folder, wherever a folder path comes from (CLI, the browser UI's path field). */
import { homedir } from 'node:os';
import { resolve } from 'node:path';

export function expandHome(path: string, home: string = homedir()): string {
  const trimmed = path.trim();
  if (trimmed === '~') return home;
  if (trimmed.startsWith('~/') || trimmed.startsWith('~\\')) return resolve(home, trimmed.slice(2));
  return resolve(trimmed);
}
