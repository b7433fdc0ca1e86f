import { useEffect } from 'react';
import type { ConnectionView, DocumentError, SyncRunView } from '@shared/models';
import { hasMessage, useT, type MessageKey } from '../../i18n/i18n';
import { useApp } from '../../store/store-context';

/** Reasons grouped with their count, in a stable order (most first). */
export function reasonGroups(errors: DocumentError[]): { reason: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const error of errors) if (error.reason) counts.set(error.reason, (counts.get(error.reason) ?? 0) + 1);
  return [...counts]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

/**
 * A local folder's state on its card: whether it is watched (saved files are indexed within
 * seconds), and what the last sync left out, grouped by reason in the UI language
 * ("3 PDFs have no text: scanned images"). The last run is fetched once for this.
 */
export function FolderCardNotes({
  connection,
  run,
}: {
  connection: ConnectionView;
  run: SyncRunView | undefined;
}) {
  const t = useT();
  const loadLastRun = useApp((state) => state.loadLastRun);
  const hasRun = connection.lastSyncAt !== null;
  useEffect(() => {
    if (!run && hasRun) void loadLastRun(connection.id);
  }, [run, hasRun, connection.id, loadLastRun]);
  const folder = connection.folder;
  if (connection.platform !== 'folder' || connection.mode !== 'rag') return null;
  const groups = reasonGroups(run?.errors ?? []);
  return (
    <div className="folder-notes">
      {folder?.watching ? (
        <p className="watching" data-testid="watching">
          <span className="watch-dot" aria-hidden="true" />
          {t('card.watching')}
        </p>
      ) : folder?.watchError ? (
        <p className="hint" role="note">
          {t('card.watchFailed', { reason: folder.watchError })}
        </p>
      ) : connection.config['noWatch'] === true ? (
        <p className="hint">{t('card.watchOff')}</p>
      ) : null}
      {groups.length > 0 && (
        <ul className="reason-list" aria-label={t('card.leftOut')}>
          {groups.map(({ reason, count }) => {
            const key = `reason.${reason}` as MessageKey;
            return (
              <li key={reason} data-reason={reason}>
                {hasMessage(key) ? t(key, { count }) : `${reason}: ${count}`}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
