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
  return CATALOGS[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!(name in params)) return whole;
    const value = params[name]!;
    // Every number a message says is grouped the one way ("1,225 results", "Re-indexing: 1,024/5,000").
    return typeof value === 'number' ? formatNumber(language, value) : value;
  });
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

/** Thousands grouped, at most `fractionDigits` decimals (3 by default), as the language writes them. */
export function formatNumber(language: Language, value: number, fractionDigits = 3): string {
  return new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en', {
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/**
 * A size in decimal units (as file managers count disk space), its number formatted like every
 * other: "1.25 GB", "1,234.5 GB", "86 MB", "12.5 MB", "4 KB"; nothing is "0 KB" that holds a byte.
 */
export function formatBytes(language: Language, bytes: number): string {
  if (bytes >= 1e9) return `${formatNumber(language, bytes / 1e9, bytes >= 1e11 ? 1 : 2)} GB`;
  if (bytes >= 1e6) return `${formatNumber(language, bytes / 1e6, bytes >= 1e8 ? 0 : 1)} MB`;
  return `${formatNumber(language, bytes === 0 ? 0 : Math.max(1, Math.round(bytes / 1e3)))} KB`;
}

/** About how long: whole minutes from 90 s on, whole seconds below (never "12.345 s"). */
export function formatDuration(language: Language, seconds: number): string {
  return seconds >= 90
    ? translate(language, 'models.minutes', { n: Math.round(seconds / 60) })
    : translate(language, 'models.seconds', { n: Math.max(1, Math.round(seconds)) });
}
