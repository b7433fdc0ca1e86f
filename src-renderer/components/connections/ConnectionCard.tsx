import { useEffect, useState } from 'react';
import type { ConnectionView, SyncProgress, SyncRunView } from '@shared/models';
import { groupErrors } from '@shared/error-groups';
import { PLATFORM_INFO } from '@shared/platforms';
import { formatDateTime, formatNumber, hasMessage, type MessageKey, type Translate } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import type { Language } from '../../i18n/i18n';
import { useApp, useAppShallow } from '../../store/store-context';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorMessage } from '../common/ErrorMessage';
import { PlatformBadge } from '../common/PlatformBadge';
import { ProgressBar } from '../common/ProgressBar';
import { cardStatus, CREDENTIAL_CODES, nextSync } from './card-status';
import { EditConnectionForm } from './ConnectionForm';
import { FolderCardNotes, isLeftOut } from './FolderCardNotes';
import { indexedDocuments, ModeSwitch } from './ModeSwitch';
import { LIMITATIONS_SHOWN_BY_SIGN_IN, SignInPanel } from './SignInPanel';
import { DirectOnlyNote, SyncNotes } from './SyncNotes';

/** A partial sync whose only trouble was the platform saying stop: SyncNotes says it calmly instead. */
function deferralOnly(connection: ConnectionView, run: SyncRunView | undefined): boolean {
  const code = connection.syncErrorCode;
  return (
    (code === 'RATE_LIMITED' || code === 'QUOTA_EXCEEDED') &&
    (run?.errors.length ?? 0) === 0 &&
    (connection.deferred ?? run?.counters.deferred ?? 0) > 0
  );
}

function SyncProgressLine({ progress }: { progress: SyncProgress }) {
  const t = useT();
  const phase = t(`phase.${progress.phase}` as MessageKey);
  const label =
    progress.documentsTotal > 0
      ? t('card.progress', { phase, done: progress.documentsDone, total: progress.documentsTotal })
      : phase;
  return (
    <div className="sync-progress">
      <ProgressBar done={progress.documentsDone} total={progress.documentsTotal} label={label} />
      <span className="sync-progress-label">{label}</span>
    </div>
  );
}

/**
 * The last sync's failure (or, on a synced card, what went wrong in it) in the UI language. A
 * view from before the code was stored has none: its sentence is shown under a generic headline.
 * An interrupted sync (CANCELLED: Cairn stopped during it) is a calm note, not a failure.
 */
function SyncError({
  connection,
  run,
  onFix,
}: {
  connection: ConnectionView;
  run: SyncRunView | undefined;
  onFix: () => void;
}) {
  const t = useT();
  if (!connection.syncError) return null;
  // The run's error carries the reason (e.g. an IMA client too old) the connection row does not keep.
  const details = run?.error?.code === connection.syncErrorCode ? run?.error?.details : undefined;
  const error = {
    code: connection.syncErrorCode ?? 'unknown',
    message: connection.syncError,
    ...(details ? { details } : {}),
  };
  if (connection.syncErrorCode === 'CANCELLED')
    return (
      <p className="hint" role="note">
        {t('card.syncInterrupted')}
      </p>
    );
  return (
    <div className="sync-error" role="alert">
      <ErrorMessage error={error} />
      {CREDENTIAL_CODES.has(connection.syncErrorCode ?? '') && (
        <button type="button" className="button small" onClick={onFix}>
          {t('card.fixCredentials')}
        </button>
      )}
    </div>
  );
}

/** Re-renders the caller every `ms` so relative times ("in 23 h") stay true while the page is open. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

function NextSyncText({ connection }: { connection: ConnectionView }) {
  const t = useT();
  const language = useLanguage();
  const paused = useApp((state) => state.settings?.scheduledSyncPaused ?? false);
  const now = useNow(30_000);
  const next = nextSync(connection, paused, now);
  if (next.kind === 'none') return <>—</>;
  if (next.kind === 'paused') return <>{t('card.nextPaused')}</>;
  if (next.kind === 'due') return <>{t('card.nextDue')}</>;
  const relative = new Intl.RelativeTimeFormat(language === 'zh' ? 'zh-CN' : 'en', { numeric: 'always' });
  return (
    <time
      dateTime={connection.nextSyncAt ?? undefined}
      title={formatDateTime(language, connection.nextSyncAt, '')}
    >
      {relative.format(next.value, next.unit)}
    </time>
  );
}

function DocumentErrors({ connection, run }: { connection: ConnectionView; run: SyncRunView | undefined }) {
  const t = useT();
  const language = useLanguage();
  const loadLastRun = useApp((state) => state.loadLastRun);
  // What the folder notes list as left out is not repeated here (FolderCardNotes.isLeftOut).
  const errors = (run?.errors ?? []).filter((error) => !isLeftOut(connection, error));
  const summary =
    errors.length === 1
      ? t('card.errorsOne')
      : errors.length > 1
        ? t('card.errors', { count: errors.length })
        : null;
  if (!summary && !(connection.syncError && connection.syncStatus === 'synced')) return null;
  if (!summary && deferralOnly(connection, run)) return null;
  return (
    <details
      className="doc-errors"
      onToggle={(event) => {
        if ((event.target as HTMLDetailsElement).open && !run) void loadLastRun(connection.id);
      }}
    >
      <summary>
        {summary ??
          (connection.syncErrorCode === 'CANCELLED' ? (
            t('card.syncInterrupted')
          ) : (
            <ErrorMessage
              error={{ code: connection.syncErrorCode ?? 'unknown', message: connection.syncError ?? '' }}
            />
          ))}
      </summary>
      {run ? (
        <ul>
          {/* Documents that failed the same way are one row with a count, not a row each. */}
          {groupErrors(errors).map((group) => (
            <li key={`${group.code} ${group.reason ?? ''} ${group.message}`}>
              <strong>
                {group.count === 1
                  ? group.titles[0]
                  : t('card.errorGroup', {
                      count: formatNumber(language, group.count),
                      titles: group.titles.join(', ') + (group.count > group.titles.length ? ', …' : ''),
                    })}
              </strong>{' '}
              <span className="muted">
                <ErrorMessage error={group} />
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('card.errorsLoading')}</p>
      )}
    </details>
  );
}

/**
 * The stored counts lag a running sync (a first sync shows 0 until it finishes), so while one
 * runs the card counts that run's documents live; before listing has a total it keeps the stored
 * count, or a dash when there is none yet.
 */
function documentCount(
  language: Language,
  connection: ConnectionView,
  progress: SyncProgress | undefined,
  settled?: SyncProgress,
): string {
  // Ended, stored counts not here yet: what the run reached, as a plain count.
  if (!progress && settled && settled.documentsTotal > 0)
    return formatNumber(language, Math.max(settled.documentsDone, connection.documentCount));
  if (progress && progress.documentsTotal > 0)
    return `${formatNumber(language, progress.documentsDone)}/${formatNumber(language, progress.documentsTotal)}`;
  if (progress && connection.documentCount === 0) return '—';
  return formatNumber(language, connection.documentCount);
}

/** During a first sync the chunks written so far; a re-sync keeps the stored total until it ends. */
function chunkCount(
  language: Language,
  connection: ConnectionView,
  progress: SyncProgress | undefined,
): string {
  return formatNumber(
    language,
    progress && connection.chunkCount === 0 ? progress.chunksWritten : connection.chunkCount,
  );
}

/** Core's sentence may start mid-thought ("full text unavailable: …"); a note starts with a capital. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The limitation in the UI language when its code is known here; otherwise core's English sentence. */
function limitationText(t: Translate, language: Language, connection: ConnectionView): string {
  const key = `limitation.${connection.limitationCode ?? ''}`;
  if (connection.limitationCode && hasMessage(key))
    return t(key, { platform: PLATFORM_INFO[connection.platform].label[language] });
  return sentence(connection.limitation ?? '');
}

export function ConnectionCard({ connection }: { connection: ConnectionView }) {
  const t = useT();
  const language = useLanguage();
  const progress = useApp((state) => state.progress[connection.id]);
  const settled = useApp((state) => state.settledProgress[connection.id]);
  const run = useApp((state) => state.lastRun[connection.id]);
  const actions = useAppShallow((state) => ({
    syncNow: state.syncNow,
    cancelSync: state.cancelSync,
    testConnection: state.testConnection,
    removeConnection: state.removeConnection,
  }));
  const loadLastRun = useApp((state) => state.loadLastRun);
  const syncing = connection.syncStatus === 'syncing' || progress !== undefined;
  const rag = connection.mode === 'rag';
  const status = cardStatus(connection, progress, run);
  const [editing, setEditing] = useState(false);
  // The last run says what the connection row cannot (a stopped sync, each failed document), so a
  // reloaded page reads the same as the one that watched the sync end.
  useEffect(() => {
    if (rag && !run) void loadLastRun(connection.id, { quiet: true });
  }, [rag, run, loadLastRun, connection.id]);
  const limitationNote =
    connection.limitation !== null &&
    !(connection.userAuth !== undefined && LIMITATIONS_SHOWN_BY_SIGN_IN.has(connection.limitationCode ?? ''));
  if (editing) return <EditConnectionForm connection={connection} onClose={() => setEditing(false)} />;
  return (
    <article
      className={`card connection-card status-${status}`}
      aria-label={connection.name}
      data-connection-id={connection.id}
    >
      <header className="card-header">
        <PlatformBadge platform={connection.platform} />
        <h3 className="card-title">{connection.name}</h3>
        {connection.experimental && <span className="tag">{t('card.experimental')}</span>}
        <span className="spacer" />
        <span className={`status-pill status-${status}`} data-testid="sync-status">
          {t(`card.status.${status}` as MessageKey)}
        </span>
      </header>
      <ModeSwitch connection={connection} disabled={syncing} />
      {!rag && !connection.directOnly && <p className="hint">{t('card.ragHint')}</p>}
      <DirectOnlyNote connection={connection} />
      {limitationNote && (
        // What the platform cannot do is a fact about it, not a failure: a calm note, never an alert.
        <p className="limitation-note" role="note">
          <span className="limitation-label">{t('card.limitation')}</span>
          <span>{limitationText(t, language, connection)}</span>
        </p>
      )}
      <SignInPanel connection={connection} />
      {rag && progress && <SyncProgressLine progress={progress} />}
      {rag && connection.syncStatus === 'failed' && !syncing && (
        <SyncError connection={connection} run={run} onFix={() => setEditing(true)} />
      )}
      {status === 'stopped' && (
        <p className="hint" role="note">
          {t('card.stoppedNote')}
        </p>
      )}
      {rag && (
        <dl className="facts">
          <div>
            <dt>{t('card.documents')}</dt>
            <dd data-testid="document-count">{documentCount(language, connection, progress, settled)}</dd>
          </div>
          <div>
            <dt>{t('card.chunks')}</dt>
            <dd data-testid="chunk-count">{chunkCount(language, connection, progress ?? settled)}</dd>
          </div>
          <div>
            <dt>{t('card.lastSync')}</dt>
            <dd>{formatDateTime(language, connection.lastSyncAt, t('common.never'))}</dd>
          </div>
          <div>
            <dt>{t('card.nextSync')}</dt>
            <dd data-testid="next-sync">
              <NextSyncText connection={connection} />
            </dd>
          </div>
        </dl>
      )}
      <FolderCardNotes connection={connection} run={run} />
      {rag && <DocumentErrors connection={connection} run={run} />}
      {rag && <SyncNotes connection={connection} run={run} />}
      <footer className="actions">
        {rag && !syncing && (
          <button
            type="button"
            className="button primary"
            onClick={() => void actions.syncNow(connection.id)}
          >
            {t('card.syncNow')}
          </button>
        )}
        {rag && syncing && (
          <button type="button" className="button" onClick={() => void actions.cancelSync(connection.id)}>
            {t('card.cancelSync')}
          </button>
        )}
        <button
          type="button"
          className="button quiet"
          onClick={() => void actions.testConnection(connection.id)}
        >
          {t('card.test')}
        </button>
        <button type="button" className="button quiet" onClick={() => setEditing(true)}>
          {t('card.edit')}
        </button>
        <span className="spacer" />
        <ConfirmButton
          label={t('card.remove')}
          question={
            rag && connection.documentCount > 0
              ? t('card.removeConfirmCount', {
                  name: connection.name,
                  documents: indexedDocuments(t, language, connection.documentCount),
                })
              : t('card.removeConfirm', { name: connection.name })
          }
          onConfirm={() => void actions.removeConnection(connection.id)}
        />
      </footer>
    </article>
  );
}
