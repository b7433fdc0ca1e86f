/** Connections: what the UI and CLI see of one, and what adding or editing one sends. */
import type { ErrorCode } from '../errors';

export const PLATFORMS = ['folder', 'feishu', 'lark', 'yuque', 'dingtalk', 'ima'] as const;
export type Platform = (typeof PLATFORMS)[number];

export type ConnectionMode = 'rag' | 'direct';

/** The longest connection name, in characters: one limit for the form, the API, core and the database. */
export const CONNECTION_NAME_MAX_LENGTH = 80;
export type SyncStatus = 'idle' | 'syncing' | 'synced' | 'failed';

/** What the UI and CLI see of a connection. Never carries a secret. */
export interface ConnectionView {
  id: string;
  platform: Platform;
  name: string;
  mode: ConnectionMode;
  /** Non-secret settings, e.g. `{ path }` for a folder or `{ baseUrl }` for a platform. */
  config: Record<string, string | number | boolean>;
  /** Names of the secret fields that are stored (values never leave main). */
  secretFields: string[];
  syncStatus: SyncStatus;
  /** Why the last sync failed or was partial: core's English sentence (names, numbers)… */
  syncError: string | null;
  /** …and its code, so the UI can say it in its own language; null when there is no syncError (or it predates the code). */
  syncErrorCode: ErrorCode | null;
  lastSyncAt: string | null;
  nextSyncAt: string | null;
  documentCount: number;
  chunkCount: number;
  /** A plain statement (English) of what this connection cannot do, e.g. "full text unavailable: direct search only". */
  limitation: string | null;
  /** A stable code for `limitation` (e.g. "dingtalk.no-stream"): the UI shows its own translation of known codes, else `limitation`. */
  limitationCode: string | null;
  experimental: boolean;
  /** Platforms with a user sign-in (Feishu/Lark) only: whether search and My Library are authorised. */
  userAuth?: UserAuthState;
  /** Documents the last listing run deferred to the next sync (the platform's request limit or quota). */
  deferred?: number;
  /** Items the last listing run skipped per kind (no text API), e.g. `{ mindnote: 3 }`. */
  skippedKinds?: Record<string, number>;
  /** The platform gives this connection no full text: it can only be searched live (direct mode). */
  directOnly?: boolean;
  /** Local folders only: watching and vault state. */
  folder?: FolderState;
}

/** Kinds of files a local-folder connection reads (for counts such as "12 PDF, 40 Markdown"). */
export const FILE_KINDS = [
  'markdown',
  'text',
  'pdf',
  'word',
  'powerpoint',
  'spreadsheet',
  'html',
  'epub',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** What adding a folder would index (`connections.previewFolder`), before it is added. */
export interface FolderPreview {
  /** The absolute folder path (`~` expanded). */
  path: string;
  /** Files Cairn would read, by kind. */
  counts: Partial<Record<FileKind, number>>;
  total: number;
  /** True when counting stopped at the cap (the folder holds more). */
  capped: boolean;
  /** Seen but not to be indexed, by reason (`folder.link-outside`, `folder.too-large`, …). */
  skipped: Partial<Record<string, number>>;
  /** Subfolders that cannot be read. */
  unreadable: string[];
  /** The Obsidian vault name when the folder is a vault. */
  obsidianVault: string | null;
}

/** A local-folder connection's live state, for its card. */
export interface FolderState {
  /** The watcher is running: saved files are indexed within seconds. */
  watching: boolean;
  /** Why watching is not running although it is turned on (e.g. the system's watch limit). */
  watchError: string | null;
  /** The Obsidian vault name when the folder is a vault ("Open in Obsidian"). */
  obsidianVault: string | null;
}

/** none: never signed in; pending: a browser sign-in is waiting; expired: the platform refused the stored authorisation. */
export type UserAuthState = 'none' | 'pending' | 'authorized' | 'expired';

export interface NewConnection {
  platform: Platform;
  name: string;
  mode: ConnectionMode;
  config: Record<string, string | number | boolean>;
  /** Secret credential fields (app secret, token, API key). Stored in the secret store only. */
  secrets: Record<string, string>;
}

/** An edit of a saved connection (`connections.update`); its index and history stay. */
export interface ConnectionUpdate {
  id: string;
  name?: string;
  /** Non-secret fields to change; "" clears an optional one. Fields left out keep their value. */
  config?: Record<string, string | number | boolean>;
  /** Secret fields to replace; a field left out or "" keeps the stored value (never sent back). */
  secrets?: Record<string, string>;
  /** Optional secret fields to remove from the secret store (a required one is refused). */
  clearSecrets?: string[];
}
