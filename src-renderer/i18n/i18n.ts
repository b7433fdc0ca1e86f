/**
 * Translation and formatting in the UI language: pure functions of a language and a key, with no
 * store or React in sight, so the store, components and tests can all use them (the hooks that
 * read the language from the store are in hooks/use-t.ts).
 */
import { en, type MessageKey } from './messages-en';
import { zh } from './messages-zh';

export type { MessageKey };
export type Language = 'en' | 'zh';
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const CATALOGS: Record<Language, Record<MessageKey, string>> = { en, zh };

export function translate(
  language: Language,
  key: MessageKey,
  params: Record<string, string | number> = {},
): string {
  return CATALOGS[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** For keys built from data (e.g. a limitation code): true when the catalog has the message. */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/** Maps a BCP 47 tag (navigator.language) to one of the UI languages. */
export function languageFromTag(tag: string | undefined): Language {
  return tag?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/**
 * A date and time with its year, in the language's own order: "2026年12月3日 16:15" /
 * "Dec 3, 2026, 16:15" (numeric months read "12/3", US order, in Chinese too).
 */
export function formatDateTime(language: Language, iso: string | null, never: string): string {
  if (!iso) return never;
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

export function formatNumber(language: Language, value: number): string {
  return new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en').format(value);
}
