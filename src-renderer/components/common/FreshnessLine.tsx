import type { Freshness } from '@shared/models';
import { timeAgo } from '@shared/time-ago';
import { useLanguage, useT } from '../../hooks/use-t';

/**
 * "edited 3 days ago · synced 2 h ago", and a warning when the source is known to have changed
 * since the indexed copy (a file saved or deleted after the sync, a newer edit a listing saw), so a
 * result or a citation never passes off an old copy as the current one. The full times are in the
 * title (hover). Nothing for a live hit: it is the platform's own answer, current by definition.
 */
export function FreshnessLine({ freshness, now = new Date() }: { freshness?: Freshness; now?: Date }) {
  const t = useT();
  const language = useLanguage();
  if (!freshness) return null;
  const ago = (iso: string) => timeAgo(iso, now, language);
  const full = (iso: string) =>
    new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', {
      dateStyle: 'long',
      timeStyle: 'short',
    }).format(new Date(iso));
  const parts = [
    ...(freshness.editedAt ? [t('freshness.edited', { when: ago(freshness.editedAt) })] : []),
    t('freshness.synced', { when: ago(freshness.syncedAt) }),
  ];
  const title = [
    ...(freshness.editedAt ? [t('freshness.edited', { when: full(freshness.editedAt) })] : []),
    t('freshness.synced', { when: full(freshness.syncedAt) }),
  ].join(' · ');
  const changed = freshness.changed;
  return (
    <span className="freshness" title={title}>
      <span className="freshness-times">{parts.join(' · ')}</span>
      {changed && (
        <span className="freshness-changed">
          {changed.kind === 'file-missing'
            ? t('freshness.fileMissing')
            : changed.kind === 'file-modified'
              ? t('freshness.fileModified', { when: changed.at ? ago(changed.at) : '' })
              : changed.at
                ? t('freshness.platformNewer', { when: ago(changed.at) })
                : t('freshness.platformNewerUnknown')}
        </span>
      )}
    </span>
  );
}
