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
    <ConfirmPrompt
      question={question}
      confirmLabel={confirmLabel}
      onConfirm={() => {
        setAsking(false);
        onConfirm();
      }}
      onCancel={() => setAsking(false)}
    />
  );
}

/** The inline question of a destructive action: the action, or the safe answer (focused, and Escape). */
export function ConfirmPrompt({
  question,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: {
  question: string;
  /** @default t('common.yes') ("Yes, remove") */
  confirmLabel?: string | undefined;
  /** @default t('common.no') ("Keep it") */
  cancelLabel?: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  return (
    <span
      className="confirm"
      role="alertdialog"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <span className="confirm-question">{question}</span>
      <button type="button" className="button danger" onClick={onConfirm}>
        {confirmLabel ?? t('common.yes')}
      </button>
      {/* Focus lands on the safe answer, so Escape and Enter both keep things as they are. */}
      <button type="button" className="button" autoFocus onClick={onCancel}>
        {cancelLabel ?? t('common.no')}
      </button>
    </span>
  );
}
