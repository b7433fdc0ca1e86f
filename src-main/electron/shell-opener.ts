/** Opens what core allowed: web links in the browser, folder files with their default app. */
import { fileURLToPath } from 'node:url';
import { shell } from 'electron';

export async function openWithShell(target: string, how?: { reveal?: boolean }): Promise<void> {
  // "Show in folder": the file selected in the system's file manager (core allowed only a folder file).
  if (how?.reveal) return shell.showItemInFolder(/^file:\/\//i.test(target) ? fileURLToPath(target) : target);
  // Web links, obsidian:// notes, and PDFs opened at a page (file URL with #page=N) go to their handler.
  if (/^(https?|obsidian):\/\//i.test(target) || /^file:\/\/.*#page=\d+$/i.test(target))
    return shell.openExternal(target);
  const path = /^file:\/\//i.test(target) ? fileURLToPath(target) : target;
  const error = await shell.openPath(path);
  if (error) throw new Error(error);
}
