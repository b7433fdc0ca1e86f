import { useState } from 'react';
import { useT } from '../../i18n/i18n';

/** A destructive action that asks once, inline, before it runs. */
export function ConfirmButton({ label, question, onConfirm }: { label: string; question: string; onConfirm: () => void }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return <button type="button" className="button danger-quiet" onClick={() => setAsking(true)}>{label}</button>;
  }
  return (
    <span className="confirm" role="alertdialog" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <button type="button" className="button danger" onClick={() => { setAsking(false); onConfirm(); }}>{t('common.yes')}</button>
      <button type="button" className="button" onClick={() => setAsking(false)}>{t('common.no')}</button>
    </span>
  );
}
