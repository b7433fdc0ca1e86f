/** The UI language from the store, as React hooks (the translation itself is i18n/i18n.ts, pure). */
import { useCallback } from 'react';
import { translate, type Language, type Translate } from '../i18n/i18n';
import { selectLanguage } from '../store/selectors';
import { useApp } from '../store/store-context';

export function useLanguage(): Language {
  return useApp(selectLanguage);
}

export function useT(): Translate {
  const language = useLanguage();
  return useCallback((key, params) => translate(language, key, params), [language]);
}
