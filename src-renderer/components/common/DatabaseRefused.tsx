import { useState } from 'react';
import type { AppErrorData } from '@shared/errors';
import type { RecoveryAction } from '@shared/models';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { ConfirmButton } from './ConfirmButton';
import { ErrorMessage } from './ErrorMessage';

/**
 * Core refused to open the database (DATA_DIR_DAMAGED) and changed nothing in it: the folder, why,
 * and the two ways on (core/app/data-dir-recovery.ts). After a choice the page loads again from a
 * fresh status, as at start.
 */
export function DatabaseRefused({ error }: { error: AppErrorData }) {
  const t = useT();
  const recover = useApp((state) => state.recoverDatabase);
  const [working, setWorking] = useState(false);
  const [failure, setFailure] = useState<AppErrorData | null>(null);
  const folder = typeof error.details?.['folder'] === 'string' ? error.details['folder'] : null;
  const reason = typeof error.details?.['reason'] === 'string' ? error.details['reason'] : null;

  const choose = async (action: RecoveryAction) => {
    setWorking(true);
    setFailure(null);
    const result = await recover(action);
    if (result.ok) globalThis.location.reload();
    else {
      setFailure(result.error);
      setWorking(false);
    }
  };

  return (
    <div className="refused" role="alert">
      <span className="brand-mark large" aria-hidden="true" />
      <h1>{t('refused.title')}</h1>
      <dl className="refused-facts">
        {folder && (
          <>
            <dt>{t('refused.folder')}</dt>
            <dd>
              <code>{folder}</code>
            </dd>
          </>
        )}
        {reason && (
          <>
            <dt>{t('refused.reason')}</dt>
            <dd className="muted">{reason}</dd>
          </>
        )}
      </dl>
      <p>{t('refused.unchanged')}</p>
      <div className="refused-choices">
        <section className="card">
          <h2>{t('refused.rebuild.title')}</h2>
          <p className="muted">{t('refused.rebuild.body')}</p>
          <button
            type="button"
            className="button primary"
            disabled={working}
            onClick={() => void choose('rebuild')}
          >
            {t('refused.rebuild.button')}
          </button>
          <p className="hint">{t('refused.cli', { command: 'cairn recover --rebuild' })}</p>
        </section>
        <section className="card">
          <h2>{t('refused.fresh.title')}</h2>
          <p className="muted">{t('refused.fresh.body')}</p>
          {working ? (
            <button type="button" className="button danger-quiet" disabled>
              {t('refused.fresh.button')}
            </button>
          ) : (
            <ConfirmButton
              label={t('refused.fresh.button')}
              question={t('refused.fresh.confirm')}
              confirmLabel={t('refused.fresh.button')}
              onConfirm={() => void choose('fresh')}
            />
          )}
          <p className="hint">{t('refused.cli', { command: 'cairn recover --fresh' })}</p>
        </section>
      </div>
      <p className="muted small">{t('refused.kept')}</p>
      {working && <p role="status">{t('refused.working')}</p>}
      {failure && (
        <p className="form-error">
          <ErrorMessage error={failure} lead={t('refused.failed')} />
        </p>
      )}
    </div>
  );
}
