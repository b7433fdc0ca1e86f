/**
 * A small copy of what the user set up, outside the database: every connection (id, platform, name,
 * mode, non-secret settings, the name its secrets are stored under) and the settings rows (which
 * never hold a secret: API keys live in the secret store). A database that is lost or damaged
 * takes the index with it, never the connections: a new database starts from this file, and the
 * secrets are found again under the same names. Written whole to a temporary file, flushed, and
 * renamed over the old one, so a crash leaves the old manifest or the new one, never half of one.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Db } from '../db/database';
import type { EventBus, Unsubscribe } from '../events/event-bus';
import type { Logger } from '../logging/logger';

const MANIFEST_FORMAT = 1;

const connectionSchema = z.object({
  id: z.string().min(1),
  platform: z.string().min(1),
  name: z.string().min(1),
  mode: z.enum(['rag', 'direct']),
  config: z.record(z.string(), z.unknown()),
  secretRef: z.string().nullable(),
  createdAt: z.string(),
});

const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  writtenAt: z.string(),
  connections: z.array(connectionSchema),
  settings: z.record(z.string(), z.unknown()),
});

export type DataManifest = z.infer<typeof manifestSchema>;
export type ManifestConnection = z.infer<typeof connectionSchema>;

/** What the database holds now, as a manifest. */
export async function snapshotManifest(db: Db): Promise<DataManifest> {
  const connections = await db.query<{
    id: string;
    platform: string;
    name: string;
    mode: 'rag' | 'direct';
    config: Record<string, unknown>;
    secret_ref: string | null;
    created_at: Date;
  }>(
    'SELECT id, platform, name, mode, config, secret_ref, created_at FROM connections ORDER BY created_at, id',
  );
  const settings = await db.query<{ key: string; value: unknown }>(
    'SELECT key, value FROM settings ORDER BY key',
  );
  return {
    format: MANIFEST_FORMAT,
    writtenAt: new Date().toISOString(),
    connections: connections.rows.map((row) => ({
      id: row.id,
      platform: row.platform,
      name: row.name,
      mode: row.mode,
      config: row.config,
      secretRef: row.secret_ref,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    settings: Object.fromEntries(settings.rows.map((row) => [row.key, row.value])),
  };
}

/** The manifest at `path`; null when there is none or it cannot be read as one (then nothing is restored). */
export function readManifest(path: string, logger?: Logger): DataManifest | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      logger?.warn('could not read the data manifest', { path, error });
    return null;
  }
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    logger?.warn('the data manifest is not in a known format; nothing restored from it', { path });
  } catch (error) {
    logger?.warn('the data manifest is not valid JSON; nothing restored from it', { path, error });
  }
  return null;
}

/** Replaces the file at `path` with `text` in one step (temporary file, fsync, rename, fsync of the folder). */
export function writeFileAtomic(path: string, text: string): void {
  const partial = `${path}.${process.pid}.partial`;
  try {
    const fd = openSync(partial, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  try {
    const folder = openSync(dirname(path), 'r');
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
  } catch {
    // Not every platform can fsync a folder (Windows): the rename is still atomic there.
  }
}

/**
 * Puts the manifest's connections and settings into a new database (its `seed`): same ids, so each
 * connection finds its secrets again; never synced, so the scheduler syncs them at once. Returns
 * how many connections it restored.
 */
export async function restoreFromManifest(db: Db, manifest: DataManifest): Promise<number> {
  return db.transaction(async (tx) => {
    let restored = 0;
    for (const connection of manifest.connections) {
      const inserted = await tx.query(
        'INSERT INTO connections (id, platform, name, mode, config, secret_ref, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING',
        [
          connection.id,
          connection.platform,
          connection.name,
          connection.mode,
          JSON.stringify(connection.config),
          connection.secretRef,
          connection.createdAt,
        ],
      );
      restored += inserted.affectedRows ?? 0;
    }
    for (const [key, value] of Object.entries(manifest.settings))
      await tx.query(
        'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
        [key, JSON.stringify(value)],
      );
    return restored;
  });
}

export interface ManifestKeeperOptions {
  db: Db;
  path: string;
  events: EventBus;
  logger: Logger;
}

/**
 * Keeps the manifest equal to the database: after every change of the connection list
 * (`connections.changed`) and of the settings (`refresh()`), it is read again and rewritten when
 * it differs. A failed write (a full disk) is logged and tried again at the next change.
 */
export class ManifestKeeper {
  private written: string | null = null;
  private tail: Promise<void> = Promise.resolve();
  private readonly unsubscribe: Unsubscribe;

  constructor(private readonly options: ManifestKeeperOptions) {
    const current = readManifest(options.path);
    if (current) this.written = comparable(current);
    this.unsubscribe = options.events.on('connections.changed', () => void this.refresh());
  }

  /** Rewrites the manifest if the database changed since the last write; resolves when done. */
  refresh(): Promise<void> {
    const run = this.tail.then(async () => {
      try {
        const manifest = await snapshotManifest(this.options.db);
        const text = comparable(manifest);
        if (text === this.written) return;
        writeFileAtomic(this.options.path, `${JSON.stringify(manifest, null, 2)}\n`);
        this.written = text;
      } catch (error) {
        this.options.logger.warn('could not write the data manifest', { path: this.options.path, error });
      }
    });
    this.tail = run;
    return run;
  }

  /** Stops following changes after one last refresh. */
  async dispose(): Promise<void> {
    this.unsubscribe();
    await this.refresh();
  }
}

/** The manifest without its time stamp: what decides whether it must be written again. */
function comparable(manifest: DataManifest): string {
  return JSON.stringify({ ...manifest, writtenAt: '' });
}
