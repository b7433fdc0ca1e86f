import { useEffect } from 'react';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { ErrorMessage } from './ErrorMessage';
import { SuccessMessage } from './SuccessMessage';

/**
 * One transient message at a time; info fades after a few seconds, errors stay until dismissed.
 * Worded in the language shown now: a switch re-words a toast already up (its own sentence is kept
 * as a key, core's errors and successes by their code).
 */
export function NoticeToast() {
  const t = useT();
  const notice = useApp((state) => state.notice);
  const dismiss = useApp((state) => state.dismissNotice);
  useEffect(() => {
    if (notice?.kind !== 'info') return;
    const timer = setTimeout(dismiss, 4000);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);
  if (!notice) return null;
  return (
    <div className={`toast toast-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span>
        {notice.error ? (
          <ErrorMessage
            error={notice.error}
            {...(notice.lead ? { lead: t(notice.lead.key, notice.lead.params) } : {})}
          />
        ) : notice.success ? (
          <SuccessMessage success={notice.success} />
        ) : notice.message ? (
          t(notice.message.key, notice.message.params)
        ) : (
          notice.text
        )}
      </span>
      <button type="button" className="link-button" onClick={dismiss}>
        {t('common.dismiss')}
      </button>
    </div>
  );
}
