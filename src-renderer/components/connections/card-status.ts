/**
 * What a connection card says about its sync, decided in one place (and unit-tested): the pill,
 * and when the next scheduled sync is. A sync the user stopped says "Stopped" (core puts the
 * connection back to its previous status, so only the last run knows); one Cairn was stopped during
 * (a crash: CANCELLED on the connection) says so too.
 */
import type { ConnectionView, SyncProgress, SyncRunView } from '@shared/models';

export type CardStatus = 'direct' | 'syncing' | 'idle' | 'synced' | 'failed' | 'stopped';

export function cardStatus(
  connection: ConnectionView,
  progress: SyncProgress | undefined,
  lastRun: SyncRunView | undefined,
): CardStatus {
  if (connection.mode !== 'rag') return 'direct';
  if (connection.syncStatus === 'syncing' || progress !== undefined) return 'syncing';
  if (connection.syncStatus === 'failed') return 'failed';
  const stoppedRun =
    lastRun?.status === 'cancelled' &&
    (connection.lastSyncAt === null || (lastRun.finishedAt ?? lastRun.startedAt) > connection.lastSyncAt);
  if (stoppedRun || connection.syncErrorCode === 'CANCELLED') return 'stopped';
  return connection.syncStatus;
}

/** Codes a user fixes by changing what is stored (the card offers "Fix credentials" → Edit). */
export const CREDENTIAL_CODES = new Set(['AUTH_INVALID', 'AUTH_EXPIRED', 'PERMISSION_DENIED']);

export type NextSync =
  | { kind: 'none' }
  | { kind: 'paused' }
  | { kind: 'due' }
  | { kind: 'in'; value: number; unit: 'minute' | 'hour' | 'day' };

/** When the scheduler will sync next, relative to `now` (the card re-renders every half minute). */
export function nextSync(connection: ConnectionView, paused: boolean, now: number): NextSync {
  if (connection.mode !== 'rag' || connection.nextSyncAt === null) return { kind: 'none' };
  if (paused) return { kind: 'paused' };
  const ms = Date.parse(connection.nextSyncAt) - now;
  if (!Number.isFinite(ms) || ms <= 60_000) return { kind: 'due' };
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return { kind: 'in', value: minutes, unit: 'minute' };
  const hours = Math.round(ms / 3_600_000);
  if (hours < 48) return { kind: 'in', value: hours, unit: 'hour' };
  return { kind: 'in', value: Math.round(ms / 86_400_000), unit: 'day' };
}
