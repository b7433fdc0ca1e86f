/**
 * SQL over the `connections` table (migration 001). Returns ConnectionView, never a secret:
 * the secret store holds the values, this table holds only the reference to them.
 */
import { randomBytes } from 'node:crypto';
import { isErrorCode, type ErrorCode } from '@shared/errors';
import type {
  ConnectionMode,
  ConnectionView,
  FolderState,
  Platform,
  SyncStatus,
  UserAuthState,
} from '@shared/models';
import { PLATFORMS } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import type { Db } from '../db/database';
import { CairnError } from '../errors';
import { checkConnectionName } from './connection-schema';

export type ConnectionConfig = ConnectionView['config'];

export interface NewConnectionRow {
  platform: Platform;
  name: string;
  mode: ConnectionMode;
  config: ConnectionConfig;
  /** True when secrets will be stored under this connection's ref (`connection:<id>`). */
  hasSecrets: boolean;
}

export interface SyncStatePatch {
  syncStatus?: SyncStatus;
  syncError?: string | null;
  /** Set and cleared together with `syncError`. */
  syncErrorCode?: ErrorCode | null;
  lastSyncAt?: Date | null;
  nextSyncAt?: Date | null;
}

/** What the scheduler needs to know about a RAG connection. */
export interface SyncSchedule {
  id: string;
  lastSyncAt: Date | null;
  nextSyncAt: Date | null;
}

export interface ConnectionRepositoryOptions {
  /** Names (never values) of the secret fields stored under a ref. @default every ref has none */
  secretFieldsOf?: (secretRef: string) => Promise<string[]>;
  /** What a connection cannot do, as a code and an English sentence (from its connector's capabilities). @default null */
  limitationOf?: (
    platform: Platform,
    config: ConnectionConfig,
    secretFields: string[],
  ) => { code: string; message: string } | null;
  /** The platform gives a connection with this config no full text: it can only be searched live. @default never */
  directOnlyOf?: (platform: Platform, config: ConnectionConfig, secretFields: string[]) => boolean;
  /** The user sign-in state, for platforms that have one; `lost`: the platform refused the stored authorisation for good. @default none */
  userAuthOf?: (
    id: string,
    platform: Platform,
    secretFields: string[],
    lost: boolean,
  ) => UserAuthState | undefined;
  /** Local folders' watching and vault state (from the folder watch service). @default none */
  folderStateOf?: (view: { id: string; platform: Platform }) => FolderState | undefined;
}

interface ConnectionRow {
  id: string;
  platform: string;
  name: string;
  mode: ConnectionMode;
  config: ConnectionConfig;
  secret_ref: string | null;
  sync_status: SyncStatus;
  sync_error: string | null;
  sync_error_code: string | null;
  last_sync_at: Date | null;
  next_sync_at: Date | null;
  user_auth_lost_at: Date | null;
  sync_deferred: number;
  sync_skipped: Record<string, number> | null;
  document_count: number;
  chunk_count: number;
}

const SELECT_VIEW = /* sql */ `
  SELECT c.id, c.platform, c.name, c.mode, c.config, c.secret_ref, c.sync_status, c.sync_error, c.sync_error_code,
         c.last_sync_at, c.next_sync_at, c.user_auth_lost_at, c.sync_deferred, c.sync_skipped,
         (SELECT count(*) FROM documents d WHERE d.connection_id = c.id)::int AS document_count,
         (SELECT count(*) FROM chunks k WHERE k.connection_id = c.id)::int AS chunk_count
  FROM connections c`;

/** Run errors that say the platform could not be reached with these settings or credentials. */
const ACCESS_FAILURE_CODES: ErrorCode[] = [
  'AUTH_INVALID',
  'AUTH_EXPIRED',
  'PERMISSION_DENIED',
  'SOURCE_UNREACHABLE',
];

export class ConnectionRepository {
  constructor(
    private readonly db: Db,
    private readonly options: ConnectionRepositoryOptions = {},
  ) {}

  async list(filter: { mode?: ConnectionMode } = {}): Promise<ConnectionView[]> {
    const rows = filter.mode
      ? await this.db.query<ConnectionRow>(`${SELECT_VIEW} WHERE c.mode = $1 ORDER BY c.created_at, c.id`, [
          filter.mode,
        ])
      : await this.db.query<ConnectionRow>(`${SELECT_VIEW} ORDER BY c.created_at, c.id`);
    return Promise.all(rows.rows.map((row) => this.toView(row)));
  }

  /** Every connection's id, name, platform and mode: what search needs on each query, without the view's counts. */
  async modes(): Promise<{ id: string; name: string; platform: Platform; mode: ConnectionMode }[]> {
    return (
      await this.db.query<{ id: string; name: string; platform: Platform; mode: ConnectionMode }>(
        'SELECT id, name, platform, mode FROM connections ORDER BY created_at, id',
      )
    ).rows;
  }

  async get(id: string): Promise<ConnectionView> {
    const found = await this.findById(id);
    if (!found) throw new CairnError('NOT_FOUND', `No connection with id "${id}".`);
    return found;
  }

  async findById(id: string): Promise<ConnectionView | null> {
    const row = (await this.db.query<ConnectionRow>(`${SELECT_VIEW} WHERE c.id = $1`, [id])).rows[0];
    return row ? this.toView(row) : null;
  }

  async create(input: NewConnectionRow): Promise<ConnectionView> {
    if (!(PLATFORMS as readonly string[]).includes(input.platform))
      throw new CairnError('INVALID_ARGUMENT', `Unknown platform "${input.platform}".`);
    const name = checkConnectionName(input.name);
    for (let attempt = 0; ; attempt++) {
      const id = newConnectionId(name, input.platform);
      try {
        await this.db.query(
          'INSERT INTO connections (id, platform, name, mode, config, secret_ref) VALUES ($1, $2, $3, $4, $5, $6)',
          [
            id,
            input.platform,
            name,
            input.mode,
            JSON.stringify(input.config),
            input.hasSecrets ? secretRefFor(id) : null,
          ],
        );
        return await this.get(id);
      } catch (error) {
        const violated = uniqueViolation(error);
        if (violated === 'connections_name_key')
          throw new CairnError('ALREADY_EXISTS', `A connection named "${name}" already exists.`);
        if (violated === 'connections_pkey' && attempt < 3) continue; // random suffix collided: draw again
        throw error;
      }
    }
  }

  async secretRef(id: string): Promise<string | null> {
    const row = (
      await this.db.query<{ secret_ref: string | null }>('SELECT secret_ref FROM connections WHERE id = $1', [
        id,
      ])
    ).rows[0];
    if (!row) throw new CairnError('NOT_FOUND', `No connection with id "${id}".`);
    return row.secret_ref;
  }

  async setMode(id: string, mode: ConnectionMode): Promise<ConnectionView> {
    if (mode !== 'rag' && mode !== 'direct')
      throw new CairnError('INVALID_ARGUMENT', `Mode must be "rag" or "direct", not "${String(mode)}".`);
    // Leaving RAG keeps the index on disk but stops scheduled syncs.
    await this.updateOne(
      "UPDATE connections SET mode = $2, next_sync_at = CASE WHEN $2 = 'rag' THEN next_sync_at ELSE NULL END WHERE id = $1",
      [id, mode],
    );
    return this.get(id);
  }

  async rename(id: string, name: string): Promise<ConnectionView> {
    const clean = checkConnectionName(name);
    try {
      await this.updateOne('UPDATE connections SET name = $2 WHERE id = $1', [id, clean]);
    } catch (error) {
      if (uniqueViolation(error) === 'connections_name_key')
        throw new CairnError('ALREADY_EXISTS', `A connection named "${clean}" already exists.`);
      throw error;
    }
    return this.get(id);
  }

  /** Saves an edit's name and settings (validated by the caller); documents and runs stay. */
  async update(id: string, edit: { name: string; config: ConnectionConfig }): Promise<ConnectionView> {
    const clean = checkConnectionName(edit.name);
    try {
      await this.updateOne('UPDATE connections SET name = $2, config = $3 WHERE id = $1', [
        id,
        clean,
        JSON.stringify(edit.config),
      ]);
    } catch (error) {
      if (uniqueViolation(error) === 'connections_name_key')
        throw new CairnError('ALREADY_EXISTS', `A connection named "${clean}" already exists.`);
      throw error;
    }
    return this.get(id);
  }

  /**
   * After a successful test: a failure about reaching the platform (rejected or expired
   * credentials, no permission, unreachable) no longer describes the connection, so the card goes
   * back to what its index is (synced, or not synced yet). The failed run stays in the history.
   * Returns whether anything changed.
   */
  async clearAccessFailure(id: string): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE connections c SET sync_status = CASE WHEN c.last_sync_at IS NULL THEN 'idle' ELSE 'synced' END, sync_error = NULL, sync_error_code = NULL
       WHERE c.id = $1 AND c.sync_status = 'failed'
         AND (SELECT r.error->>'code' FROM sync_runs r WHERE r.connection_id = c.id AND r.status <> 'running' ORDER BY r.id DESC LIMIT 1) = ANY($2::text[])`,
      [id, ACCESS_FAILURE_CODES],
    );
    return (result.affectedRows ?? 0) > 0;
  }

  /**
   * Records (or clears) that the platform refused the stored user authorisation for good; it
   * survives a restart (migration 004). Returns whether anything changed; a removed connection is
   * not an error (a late refusal may arrive after it is gone).
   */
  async setUserAuthLost(id: string, lost: boolean): Promise<boolean> {
    const result = await this.db.query(
      lost
        ? 'UPDATE connections SET user_auth_lost_at = now() WHERE id = $1 AND user_auth_lost_at IS NULL'
        : 'UPDATE connections SET user_auth_lost_at = NULL WHERE id = $1 AND user_auth_lost_at IS NOT NULL',
      [id],
    );
    return (result.affectedRows ?? 0) > 0;
  }

  async updateSyncState(id: string, patch: SyncStatePatch): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [id];
    const add = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (patch.syncStatus !== undefined) add('sync_status', patch.syncStatus);
    if (patch.syncError !== undefined) add('sync_error', patch.syncError);
    if (patch.syncErrorCode !== undefined) add('sync_error_code', patch.syncErrorCode);
    if (patch.lastSyncAt !== undefined) add('last_sync_at', patch.lastSyncAt);
    if (patch.nextSyncAt !== undefined) add('next_sync_at', patch.nextSyncAt);
    if (sets.length > 0)
      await this.updateOne(`UPDATE connections SET ${sets.join(', ')} WHERE id = $1`, values);
  }

  /** RAG connections with their sync times, for the scheduler. */
  async syncSchedules(): Promise<SyncSchedule[]> {
    const rows = await this.db.query<{ id: string; last_sync_at: Date | null; next_sync_at: Date | null }>(
      "SELECT id, last_sync_at, next_sync_at FROM connections WHERE mode = 'rag' ORDER BY created_at, id",
    );
    return rows.rows.map((row) => ({
      id: row.id,
      lastSyncAt: row.last_sync_at,
      nextSyncAt: row.next_sync_at,
    }));
  }

  async setNextSyncAt(id: string, at: Date | null): Promise<void> {
    await this.db.query('UPDATE connections SET next_sync_at = $2 WHERE id = $1', [id, at]);
  }

  /** Deletes the connection; documents, chunks and sync runs go with it (ON DELETE CASCADE). Returns its secret ref for the caller to delete. */
  async remove(id: string): Promise<{ secretRef: string | null }> {
    const row = (
      await this.db.query<{ secret_ref: string | null }>(
        'DELETE FROM connections WHERE id = $1 RETURNING secret_ref',
        [id],
      )
    ).rows[0];
    if (!row) throw new CairnError('NOT_FOUND', `No connection with id "${id}".`);
    return { secretRef: row.secret_ref };
  }

  private async updateOne(sql: string, values: unknown[]): Promise<void> {
    const result = await this.db.query(sql, values);
    if (!result.affectedRows)
      throw new CairnError('NOT_FOUND', `No connection with id "${String(values[0])}".`);
  }

  /** Whether a connection with this config could only be searched live (no full text to index). */
  directOnly(platform: Platform, config: ConnectionConfig, secretFields: string[]): boolean {
    return this.options.directOnlyOf?.(platform, config, secretFields) ?? false;
  }

  private async toView(row: ConnectionRow): Promise<ConnectionView> {
    const platform = row.platform as Platform;
    const secretFields =
      row.secret_ref && this.options.secretFieldsOf ? await this.options.secretFieldsOf(row.secret_ref) : [];
    const userAuth = this.options.userAuthOf?.(
      row.id,
      platform,
      secretFields,
      row.user_auth_lost_at !== null,
    );
    const folder = this.options.folderStateOf?.({ id: row.id, platform });
    return {
      id: row.id,
      platform,
      name: row.name,
      mode: row.mode,
      config: row.config,
      secretFields,
      syncStatus: row.sync_status,
      syncError: row.sync_error,
      syncErrorCode:
        row.sync_error === null ? null : isErrorCode(row.sync_error_code) ? row.sync_error_code : null,
      lastSyncAt: row.last_sync_at ? row.last_sync_at.toISOString() : null,
      nextSyncAt: row.next_sync_at ? row.next_sync_at.toISOString() : null,
      documentCount: row.document_count,
      chunkCount: row.chunk_count,
      // The last run that listed the source (migration 008): what waits for the next sync, what had no text.
      deferred: row.sync_deferred,
      skippedKinds: row.sync_skipped ?? {},
      directOnly: this.directOnly(platform, row.config, secretFields),
      ...limitationFields(this.options.limitationOf?.(platform, row.config, secretFields) ?? null),
      experimental: PLATFORM_INFO[platform]?.experimental ?? false,
      ...(userAuth ? { userAuth } : {}),
      ...(folder ? { folder } : {}),
    };
  }
}

function limitationFields(
  limitation: { code: string; message: string } | null,
): Pick<ConnectionView, 'limitation' | 'limitationCode'> {
  return { limitation: limitation?.message ?? null, limitationCode: limitation?.code ?? null };
}

export function secretRefFor(connectionId: string): string {
  return `connection:${connectionId}`;
}

/** A readable, URL- and shell-safe id: "my-notes-3fa2c1"; names without Latin letters fall back to the platform. */
export function newConnectionId(name: string, platform: Platform): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  return `${slug || platform}-${randomBytes(3).toString('hex')}`;
}

function uniqueViolation(error: unknown): string | null {
  const pgError = error as { code?: string; constraint?: string };
  return pgError?.code === '23505' ? (pgError.constraint ?? 'unknown') : null;
}
