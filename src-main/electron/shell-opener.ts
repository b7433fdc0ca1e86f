/** Opens what core allowed: web links in the browser, folder files with their default app. */
import { fileURLToPath } from 'node:url';
import { shell } from 'electron';

export async function openWithShell(target: string): Promise<void> {
  if (/^https?:\/\//i.test(target)) return shell.openExternal(target);
  const path = /^file:\/\//i.test(target) ? fileURLToPath(target) : target;
  const error = await shell.openPath(path);
  if (error) throw new Error(error);
}
