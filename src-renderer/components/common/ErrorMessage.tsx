import { describeError, type DescribableError } from '../../i18n/describe-error';
import { useLanguage, useT } from '../../hooks/use-t';

/**
 * The one way the UI shows an error from core: the headline in the UI language (after `lead`,
 * e.g. "Sign-in failed", when given) and core's sentence beneath it, muted and selectable so
 * names and numbers can be copied. Renders nothing for CANCELLED (see describe-error.ts).
 * The caller owns the box (its class and role), so an error reads the same in every place.
 */
export function ErrorMessage({ error, lead }: { error: DescribableError; lead?: string }) {
  const t = useT();
  const language = useLanguage();
  const described = describeError(error, language);
  if (!described) return null;
  return (
    <span className="error-message" data-error-code={error.code}>
      <span className="error-headline">
        {lead ? t('error.lead', { lead, headline: described.headline }) : described.headline}
      </span>
      {described.detail && <span className="error-detail">{described.detail}</span>}
    </span>
  );
}
