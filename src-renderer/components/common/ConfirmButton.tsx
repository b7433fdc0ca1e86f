import { useState } from 'react';
import { useT } from '../../hooks/use-t';

export interface ConfirmButtonProps {
  /** The button's text, and its accessible name when `icon` is given. */
  label: string;
  question: string;
  onConfirm: () => void;
  /** @default t('common.yes') ("Yes, remove") */
  confirmLabel?: string;
  /** Shows this glyph instead of the label, for rows too narrow for a word (e.g. "×"). */
  icon?: string;
}

/** A destructive action that asks once, inline, before it runs. */
export function ConfirmButton({ label, question, onConfirm, confirmLabel, icon }: ConfirmButtonProps) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return icon ? (
      <button
        type="button"
        className="button danger-quiet icon-button"
        aria-label={label}
        title={label}
        onClick={() => setAsking(true)}
      >
        {icon}
      </button>
    ) : (
      <button type="button" className="button danger-quiet" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span
      className="confirm"
      role="alertdialog"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          setAsking(false);
        }
      }}
    >
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        className="button danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel ?? t('common.yes')}
      </button>
      {/* Focus lands on the safe answer, so Escape and Enter both keep things as they are. */}
      <button type="button" className="button" autoFocus onClick={() => setAsking(false)}>
        {t('common.no')}
      </button>
    </span>
  );
}
