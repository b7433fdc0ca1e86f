import { useEffect } from 'react';
import type { ConnectionView, DocumentError, SyncRunView } from '@shared/models';
import { hasMessage, type MessageKey } from '../../i18n/i18n';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';

/**
 * Whether a folder card lists this under "Left out of the index" (grouped by reason, each file
 * named inside its group) instead of "could not be indexed": files skipped on purpose (binary,
 * scanned, too large, links leaving the folder) and subfolders that could not be listed. A file
 * that failed (damaged, unreadable) is a failure, listed once, there.
 */
export function isLeftOut(connection: ConnectionView, error: DocumentError): boolean {
  return (
    connection.platform === 'folder' &&
    connection.mode === 'rag' &&
    !!error.reason &&
    (error.skipped === true || error.reason === 'folder.unreadable')
  );
}

/** Reasons grouped with their items, in a stable order (most first). */
export function reasonGroups(
  errors: DocumentError[],
): { reason: string; count: number; items: DocumentError[] }[] {
  const groups = new Map<string, DocumentError[]>();
  for (const error of errors)
    if (error.reason) groups.set(error.reason, [...(groups.get(error.reason) ?? []), error]);
  return [...groups]
    .map(([reason, items]) => ({ reason, count: items.length, items }))
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
  const groups = reasonGroups((run?.errors ?? []).filter((error) => isLeftOut(connection, error)));
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
          {groups.map(({ reason, count, items }) => {
            const key = `reason.${reason}` as MessageKey;
            return (
              <li key={reason} data-reason={reason}>
                <details>
                  <summary>{hasMessage(key) ? t(key, { count }) : `${reason}: ${count}`}</summary>
                  <ul className="reason-items">
                    {items.map((item) => (
                      <li key={item.externalId}>
                        <strong>{item.title}</strong> <span className="muted">{item.message}</span>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
