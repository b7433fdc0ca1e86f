/**
 * Installed models on disk, under `<data dir>/models`:
 *
 *   <id>/                   an installed model: its files and cairn-model.json (written last,
 *                           inside the staging folder, so a folder with it is complete)
 *   .downloads/<id>/        partial files of an unfinished pull (kept: the next pull resumes them)
 *   .staging-<id>-<random>/ a verified install being moved into place (renamed to <id> in one step)
 *
 * A crash can leave a staging folder or an `<id>/` without a valid record (e.g. a copy that was
 * interrupted): `clean()` finds and removes both at start, and reports them.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CairnError } from '../errors';

export const INSTALL_RECORD = 'cairn-model.json';

const recordSchema = z.object({
  id: z.string(),
  /** Where the files came from: a hub URL (huggingface.co, a mirror, ModelScope) or an imported folder. */
  origin: z.object({
    kind: z.enum(['download', 'import']),
    where: z.string(),
    revision: z.string().nullable(),
  }),
  files: z.array(
    z.object({
      path: z.string(),
      size: z.int().nonnegative(),
      sha256: z.string(),
      /** False only for a file imported without a catalogue checksum (the user accepted it explicitly). */
      verified: z.boolean(),
    }),
  ),
  installedAt: z.string(),
});

export type InstallRecord = z.infer<typeof recordSchema>;

export interface CleanupReport {
  /** Staging folders of an install interrupted by a crash. */
  staging: string[];
  /** Model folders without a complete record or with files missing or cut short. */
  halfInstalled: string[];
}

export class ModelStore {
  constructor(readonly root: string) {}

  dirOf(id: string): string {
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(id)) throw new CairnError('INVALID_ARGUMENT', `Bad model id "${id}".`);
    return join(this.root, id);
  }

  partialDirOf(id: string): string {
    return join(this.root, '.downloads', id);
  }

  /** The install record of `id`, or null when it is not (completely) installed. */
  installed(id: string): InstallRecord | null {
    const dir = this.dirOf(id);
    let record: InstallRecord;
    try {
      record = recordSchema.parse(JSON.parse(readFileSync(join(dir, INSTALL_RECORD), 'utf8')));
    } catch {
      return null;
    }
    const complete = record.files.every((file) => {
      try {
        return statSync(join(dir, file.path)).size === file.size;
      } catch {
        return false;
      }
    });
    return complete && record.id === id ? record : null;
  }

  /** Every completely installed model. */
  list(): InstallRecord[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root)
      .filter((name) => !name.startsWith('.'))
      .flatMap((name) => {
        try {
          const record = this.installed(name);
          return record ? [record] : [];
        } catch {
          return [];
        }
      });
  }

  /** Removes what a crash left half done (kept: partial downloads, which a pull resumes). */
  clean(): CleanupReport {
    const report: CleanupReport = { staging: [], halfInstalled: [] };
    if (!existsSync(this.root)) return report;
    for (const name of readdirSync(this.root)) {
      const path = join(this.root, name);
      if (name.startsWith('.staging-')) {
        rmSync(path, { recursive: true, force: true });
        report.staging.push(name);
      } else if (!name.startsWith('.') && statSync(path).isDirectory() && !this.installedSafely(name)) {
        rmSync(path, { recursive: true, force: true });
        report.halfInstalled.push(name);
      }
    }
    return report;
  }

  /**
   * Moves verified files (absolute paths, keyed by their path in the model) into a staging folder,
   * writes the record there, and renames the folder to `<id>` in one step.
   */
  install(
    id: string,
    files: Map<string, string>,
    record: Omit<InstallRecord, 'id' | 'installedAt'>,
  ): InstallRecord {
    const target = this.dirOf(id);
    mkdirSync(this.root, { recursive: true });
    const staging = join(this.root, `.staging-${id}-${Math.random().toString(16).slice(2, 10)}`);
    mkdirSync(staging);
    const full: InstallRecord = { id, ...record, installedAt: new Date().toISOString() };
    try {
      for (const [path, from] of files) {
        const to = join(staging, path);
        mkdirSync(join(to, '..'), { recursive: true });
        renameSync(from, to);
      }
      writeFileSync(join(staging, INSTALL_RECORD), JSON.stringify(full, null, 2));
      // A model being replaced (repair, or a re-import) goes only once the new one is complete.
      rmSync(target, { recursive: true, force: true });
      renameSync(staging, target);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    return full;
  }

  remove(id: string): boolean {
    const dir = this.dirOf(id);
    const existed = existsSync(dir) || existsSync(this.partialDirOf(id));
    rmSync(dir, { recursive: true, force: true });
    rmSync(this.partialDirOf(id), { recursive: true, force: true });
    return existed;
  }

  private installedSafely(name: string): boolean {
    try {
      return this.installed(name) !== null;
    } catch {
      return false;
    }
  }
}
