/**
 * The file-system watcher behind live folder syncs: @parcel/watcher (native, maintained, used by
 * Parcel and VS Code's file service): inotify, FSEvents or ReadDirectoryChangesW underneath, so
 * an idle watched tree costs no CPU, and tool folders are never watched at all.
 * docs/decisions/local-folders.md says why not chokidar.
 */
import { realpath } from 'node:fs/promises';

export interface FolderWatcher {
  close(): Promise<void>;
}

/** Starts watching `root`; `onChange` gets the changed paths (absolute) of each batch. */
export type WatchFolder = (
  root: string,
  onChange: (paths: string[]) => void,
  onError: (error: Error) => void,
) => Promise<FolderWatcher>;

/** Never watched: hidden entries (.git, .obsidian, .trash, editors' swap files) and dependency trees. */
export const WATCH_IGNORE = ['**/.*', '**/node_modules', '**/bower_components', '**/__pycache__', '**/venv'];

export const parcelWatch: WatchFolder = async (root, onChange, onError) => {
  // Loaded on first use: a CLI command that never watches does not load the native module.
  const watcher = (await import('@parcel/watcher')).default;
  const real = await realpath(root);
  const subscription = await watcher.subscribe(
    real,
    (error, events) => {
      if (error) onError(error);
      else if (events.length > 0) onChange(events.map((event) => event.path));
    },
    { ignore: WATCH_IGNORE },
  );
  return { close: () => subscription.unsubscribe() };
};
