import type { ConnectionView, SyncRunView } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { formatNumber, hasMessage, type Translate } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import type { Language } from '../../i18n/i18n';

/** "12 spreadsheets, 3 mind notes" in the UI language; kinds without a message keep their platform name. */
export function skippedList(t: Translate, language: Language, kinds: Record<string, number>): string {
  return Object.entries(kinds)
    .filter(([, count]) => count > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([kind, count]) => {
      const key = `kind.${kind}.${count === 1 ? 'one' : 'other'}`;
      return hasMessage(key)
        ? t(key, { count: formatNumber(language, count) })
        : t('kind.unknown', { count: formatNumber(language, count), kind });
    })
    .join(language === 'zh' ? '、' : ', ');
}

/**
 * What the last sync did not index without failing, as calm notes (never alerts): documents the
 * platform's request limit deferred to the next sync, and kinds no official API gives text for.
 * The connection's stored counts are the truth; a run just finished here fills in until they arrive.
 */
export function SyncNotes({ connection, run }: { connection: ConnectionView; run: SyncRunView | undefined }) {
  const t = useT();
  const language = useLanguage();
  const platform = PLATFORM_INFO[connection.platform].label[language];
  const deferred = connection.deferred ?? run?.counters.deferred ?? 0;
  const list = skippedList(t, language, connection.skippedKinds ?? run?.skippedKinds ?? {});
  if (deferred === 0 && !list) return null;
  return (
    <>
      {deferred > 0 && (
        <p className="hint sync-note" role="note" data-testid="deferred-note">
          {deferred === 1
            ? t('card.deferredOne', { platform })
            : t('card.deferred', { count: formatNumber(language, deferred), platform })}
        </p>
      )}
      {list && (
        <p className="hint sync-note" role="note" data-testid="skipped-note">
          {t('card.skipped', { list })}
        </p>
      )}
    </>
  );
}

/** A connection the platform gives no full text: why its card has no indexing switch. */
export function DirectOnlyNote({ connection }: { connection: ConnectionView }) {
  const t = useT();
  const language = useLanguage();
  if (!connection.directOnly) return null;
  return (
    <p className="hint" role="note" data-testid="direct-only-note">
      {t('card.directOnly', { platform: PLATFORM_INFO[connection.platform].label[language] })}
    </p>
  );
}
