/**
 * `import`: installs a catalogued model from a folder (for machines that cannot reach a hub: copy
 * the files over on a USB stick). Each file is found under its repository path (onnx/model.onnx)
 * or by its name at the top of the folder, copied, and checked against the catalogue's SHA-256.
 *
 * A file the catalogue has no checksum for is installed only when the user says so
 * (`allowUnverified`, `--allow-unverified`): the refusal lists each such file with the SHA-256 it
 * has, so it can be compared with the publisher's page first. The install record keeps the file
 * marked unverified, and `models list` shows it.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CairnError } from '../errors';
import { filesFor, type CatalogEntry } from './catalog';
import type { InstallRecord, ModelStore } from './model-store';

export interface ImportOptions {
  store: ModelStore;
  entry: CatalogEntry;
  folder: string;
  allowUnverified?: boolean;
  signal?: AbortSignal;
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function importModel(options: ImportOptions): Promise<InstallRecord> {
  const { store, entry, signal } = options;
  const folder = resolve(options.folder);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new CairnError('NOT_FOUND', `${folder} is not a folder.`);
  const files = filesFor(entry).map((file) => {
    const candidates = [join(folder, file.path), join(folder, basename(file.path))];
    return { file, from: candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null };
  });
  const absent = files.filter((f) => !f.from).map((f) => f.file.path);
  if (absent.length > 0)
    throw new CairnError(
      'NOT_FOUND',
      `${folder} lacks ${absent.join(', ')} (looked for each under its repository path and by its name alone).`,
    );

  const checked = [];
  for (const { file, from } of files) {
    if (signal?.aborted) throw new CairnError('CANCELLED', 'Import cancelled.');
    const sha256 = await sha256Of(from!);
    const size = statSync(from!).size;
    if (file.sha256 !== null && sha256 !== file.sha256)
      throw new CairnError(
        'CHECKSUM_MISMATCH',
        `${from} has SHA-256 ${sha256}, not the catalogue's ${file.sha256} for ${file.path} of ${entry.name}: nothing was installed.`,
        { details: { file: file.path, expected: file.sha256, actual: sha256 } },
      );
    checked.push({ file, from: from!, sha256, size, verified: file.sha256 !== null });
  }
  const unverified = checked.filter((c) => !c.verified);
  if (unverified.length > 0 && !options.allowUnverified)
    throw new CairnError(
      'UNVERIFIED',
      `The catalogue has no checksum for ${unverified.map((c) => `${c.file.path} (SHA-256 ${c.sha256})`).join(', ')}. ` +
        `Compare with the publisher's page; to install them anyway: cairn models import ${entry.id} ${folder} --allow-unverified`,
      { details: { files: unverified.map((c) => ({ path: c.file.path, sha256: c.sha256 })) } },
    );

  const needed = checked.reduce((sum, c) => sum + c.size, 0);
  mkdirSync(store.root, { recursive: true });
  const stats = statfsSync(store.root);
  const free = Number(stats.bavail) * Number(stats.bsize);
  if (free < needed * 1.05)
    throw new CairnError(
      'DISK_FULL',
      `Importing ${entry.name} needs ${Math.ceil(needed / 2 ** 20)} MB free in ${store.root}.`,
    );

  const copyDir = join(store.root, '.downloads', `${entry.id}.import`);
  rmSync(copyDir, { recursive: true, force: true });
  try {
    const copies = new Map<string, string>();
    for (const { file, from } of checked) {
      const to = join(copyDir, file.path);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(from, to);
      // The copy must be the bytes that were checked (the source folder could change meanwhile).
      if ((await sha256Of(to)) !== checked.find((c) => c.file === file)!.sha256)
        throw new CairnError(
          'CHECKSUM_MISMATCH',
          `${from} changed while it was being imported: nothing was installed.`,
        );
      copies.set(file.path, to);
    }
    return store.install(entry.id, copies, {
      origin: { kind: 'import', where: folder, revision: entry.source?.revision ?? null },
      files: checked.map((c) => ({
        path: c.file.path,
        size: c.size,
        sha256: c.sha256,
        verified: c.verified,
      })),
    });
  } finally {
    rmSync(copyDir, { recursive: true, force: true });
  }
}
