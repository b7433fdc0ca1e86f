import type { ConnectionView, DocumentNote, SyncRunView } from '@shared/models';
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

/** Titles named on one line: the first three, then how many more. */
function titleList(language: Language, titles: string[]): string {
  const shown = titles.slice(0, 3).map((title) => `“${title}”`);
  const more = titles.length - shown.length;
  const separator = language === 'zh' ? '、' : ', ';
  return more > 0
    ? `${shown.join(separator)}${language === 'zh' ? ` 等 ${more} 篇` : ` and ${more} more`}`
    : shown.join(separator);
}

/**
 * Documents indexed, but from less than they hold (the run's `partial` notes), one line per reason:
 * a bitable that answered no rows, a table cut at Cairn's cap. A reason without a message here shows
 * core's English sentences.
 */
function PartialNotes({ notes }: { notes: DocumentNote[] }) {
  const t = useT();
  const language = useLanguage();
  const groups = new Map<string, DocumentNote[]>();
  for (const note of notes)
    if (note.status === 'partial') {
      const key = note.code ?? note.reason;
      groups.set(key, [...(groups.get(key) ?? []), note]);
    }
  return (
    <>
      {[...groups].map(([code, group]) => {
        const key = `note.${code}`;
        const text = hasMessage(key)
          ? t(key, {
              ...group[0]!.params,
              titles: titleList(
                language,
                group.map((note) => note.title),
              ),
            })
          : group.map((note) => `${note.title}: ${note.reason}`).join(' ');
        return (
          <p key={code} className="hint sync-note" role="note" data-testid="partial-note" data-reason={code}>
            {text}
          </p>
        );
      })}
    </>
  );
}

/**
 * What the last sync did not index without failing, as calm notes (never alerts): documents the
 * platform's request limit deferred to the next sync, kinds no official API gives text for, and
 * documents the platform gave in part. The connection's stored counts are the truth; a run just
 * finished here fills in until they arrive.
 */
export function SyncNotes({ connection, run }: { connection: ConnectionView; run: SyncRunView | undefined }) {
  const t = useT();
  const language = useLanguage();
  const platform = PLATFORM_INFO[connection.platform].label[language];
  const deferred = connection.deferred ?? run?.counters.deferred ?? 0;
  const list = skippedList(t, language, connection.skippedKinds ?? run?.skippedKinds ?? {});
  const partial = (run?.notes ?? []).filter((note) => note.status === 'partial');
  if (deferred === 0 && !list && partial.length === 0) return null;
  return (
    <>
      <PartialNotes notes={partial} />
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
