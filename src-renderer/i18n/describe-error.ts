/**
 * What an error says to the user, in the UI language. Core's sentence is English and written for
 * the user (it names the document, the host, the HTTP status), so:
 * - Chinese UI: the localised headline for the code, with core's sentence beneath it as the detail
 *   (it carries the names and numbers the headline cannot).
 * - English UI: core's sentence alone (a headline above it would say the same thing twice); the
 *   English headline stands in only when core sent no sentence.
 * CANCELLED is never a failure (docs/STYLE.md §6): it describes to nothing.
 */
import { isErrorCode, type AppErrorData } from '@shared/errors';
import type { Language } from '../i18n/i18n';
import { hasMessage, translate, type MessageKey } from './i18n';

/**
 * An error as it crosses the boundary; a stored per-document error keeps its code as a plain string,
 * and its `reason` and `params` at the top level (where a live error carries them in `details`).
 */
export type DescribableError = Pick<AppErrorData, 'message'> & {
  code: string;
  details?: Record<string, unknown>;
  reason?: string;
  params?: Record<string, string>;
};

export interface ErrorDescription {
  /** The line that says what went wrong, in the UI language. */
  headline: string;
  /** Core's sentence beneath it, when it adds to the headline. */
  detail: string | null;
}

export function headlineKey(code: string): MessageKey {
  return isErrorCode(code) ? `error.${code}` : 'error.unknown';
}

/**
 * A finer headline for a reason core names (`errorReason.<reason>`: a missing Feishu scope, a missing
 * DingTalk permission, an IMA client too old), with the values it carries; null when none is known.
 */
function reasonHeadline(error: DescribableError, language: Language): string | null {
  const reason = error.reason ?? error.details?.['reason'];
  const key = `errorReason.${String(reason)}`;
  if (typeof reason !== 'string' || !hasMessage(key)) return null;
  const given = error.params ?? error.details?.['params'];
  const params =
    given && typeof given === 'object'
      ? Object.fromEntries(Object.entries(given).filter(([, value]) => typeof value === 'string'))
      : {};
  return translate(language, key, params as Record<string, string>);
}

export function describeError(error: DescribableError, language: Language): ErrorDescription | null {
  if (error.code === 'CANCELLED') return null;
  const sentence = error.message.trim();
  if (language === 'en' && sentence) return { headline: sentence, detail: null };
  const headline = reasonHeadline(error, language) ?? translate(language, headlineKey(error.code));
  return { headline, detail: sentence || null };
}
