import type { CoreMessage } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { PLATFORMS, type Platform } from '@shared/models';
import { hasMessage, translate, useLanguage } from '../../i18n/i18n';
import type { Language } from '../../store/slices/ui-slice';

/**
 * A success from core in the UI language, as errors are shown (ErrorMessage): Chinese UI, the
 * headline for its code with core's English sentence beneath (it names what was found); English UI,
 * core's sentence alone. An unknown code falls back to the sentence.
 */
export function describeSuccess(
  success: CoreMessage,
  language: Language,
): { headline: string; detail: string | null } {
  const key = `success.${success.code}`;
  const sentence = success.message.trim();
  if ((language === 'en' && sentence) || !hasMessage(key)) return { headline: sentence, detail: null };
  const params = Object.fromEntries(
    Object.entries(success.params).map(([name, value]) => [
      name,
      name === 'platform' && (PLATFORMS as readonly string[]).includes(String(value))
        ? PLATFORM_INFO[value as Platform].label[language]
        : value,
    ]),
  );
  return { headline: translate(language, key, params), detail: sentence || null };
}

export function SuccessMessage({ success }: { success: CoreMessage }) {
  const language = useLanguage();
  const { headline, detail } = describeSuccess(success, language);
  return (
    <span className="error-message success-message" data-success-code={success.code}>
      <span className="error-headline">{headline}</span>
      {detail && <span className="error-detail">{detail}</span>}
    </span>
  );
}
