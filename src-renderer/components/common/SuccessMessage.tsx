import type { CoreMessage } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { PLATFORMS, type Platform } from '@shared/models';
import { formatNumber, hasMessage, translate } from '../../i18n/i18n';
import { useLanguage } from '../../hooks/use-t';
import type { Language } from '../../i18n/i18n';

/**
 * A success from core in the UI language, as errors are shown (ErrorMessage): Chinese UI, the
 * headline for its code with the details beneath, in Chinese where the catalog has a
 * `success.<code>.detail` message (a folder's file counts, what a platform's Test found), else
 * core's English sentence (it names what was found); English UI, core's sentence alone. An unknown
 * code falls back to the sentence.
 */
export function describeSuccess(
  success: CoreMessage,
  language: Language,
): { headline: string; detail: string | null } {
  const key = `success.${success.code}`;
  const sentence = success.message.trim();
  if ((language === 'en' && sentence) || !hasMessage(key)) return { headline: sentence, detail: null };
  const params = withCases(key, localParams(success.params, language), language);
  const detailKey = `${key}.detail`;
  const detail = hasMessage(detailKey) ? translate(language, detailKey, params) : sentence || null;
  return { headline: translate(language, key, params), detail };
}

/**
 * Params as the UI says them: a platform by its label, numbers in the language's format, and
 * `kind.<kind>` counts joined into one `{kinds}` list with the language's punctuation ("6 Markdown、1 文本").
 */
function localParams(params: CoreMessage['params'], language: Language): Record<string, string | number> {
  const local: Record<string, string | number> = {};
  const kinds: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (name === 'platform' && (PLATFORMS as readonly string[]).includes(String(value)))
      local[name] = PLATFORM_INFO[value as Platform].label[language];
    else if (name.startsWith('kind.') && hasMessage(name))
      kinds.push(`${formatNumber(language, Number(value))} ${translate(language, name)}`);
    else local[name] = typeof value === 'number' ? formatNumber(language, value) : value;
  }
  if (params.capped === 1 && typeof local.total === 'string') local.total += '+';
  local.kinds = new Intl.ListFormat(language === 'zh' ? 'zh-CN' : 'en', {
    type: 'conjunction',
    style: 'narrow',
  }).format(kinds);
  return local;
}

/**
 * A param whose value names one of its code's cases (`success.<code>.<param>.<value>` in the
 * catalog, e.g. Feishu's `search: 'signIn'`) becomes that case's phrase, said with the same
 * params; any other value (a name the platform returned) stays as it is.
 */
function withCases(
  key: string,
  params: Record<string, string | number>,
  language: Language,
): Record<string, string | number> {
  const said = { ...params };
  for (const [name, value] of Object.entries(params)) {
    const phrase = `${key}.${name}.${value}`;
    if (hasMessage(phrase)) said[name] = translate(language, phrase, params);
  }
  return said;
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
