/**
 * Opens a link or file with the operating system's default handler, for the headless host
 * (Electron uses `shell` instead). The target is one argv entry, never a shell string, so a
 * crafted link cannot inject a command.
 */
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';

export function systemOpenCommand(
  platform: NodeJS.Platform,
  target: string,
): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [target] };
  // `start` is a cmd built-in that re-parses its arguments; the URL handler DLL takes one argument as-is.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', target] };
  return { command: 'xdg-open', args: [target] };
}

/** `reveal`: opens the file's folder (xdg-open and rundll32 cannot select a file in it). */
export function revealCommand(platform: NodeJS.Platform, path: string): { command: string; args: string[] } {
  // Finder selects the file itself; elsewhere the folder that holds it opens.
  if (platform === 'darwin') return { command: 'open', args: ['-R', path] };
  if (platform === 'win32') return { command: 'explorer', args: [`/select,${path}`] };
  return systemOpenCommand(platform, dirname(path));
}

export function openWithSystem(target: string, how?: { reveal?: boolean }): Promise<void> {
  const { command, args } = how?.reveal
    ? revealCommand(process.platform, target)
    : systemOpenCommand(process.platform, target);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
