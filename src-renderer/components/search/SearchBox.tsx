import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/i18n';
import { useApp } from '../../store/store-context';

/** The always-visible search field; Ctrl/Cmd+K (handled in App) focuses it. */
export function SearchBox() {
  const t = useT();
  const query = useApp((state) => state.query);
  const setQuery = useApp((state) => state.setQuery);
  const setView = useApp((state) => state.setView);
  const focusRequest = useApp((state) => state.searchFocusRequest);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusRequest === 0) return;
    input.current?.focus();
    input.current?.select();
  }, [focusRequest]);
  return (
    <div className="search-box">
      <span className="search-icon" aria-hidden="true">
        ⌕
      </span>
      <input
        ref={input}
        type="search"
        aria-label={t('nav.search')}
        placeholder={t('search.placeholder')}
        value={query}
        maxLength={10_000}
        onFocus={() => setView('search')}
        onChange={(event) => {
          setView('search');
          setQuery(event.target.value);
        }}
      />
      <kbd>{t('search.shortcut')}</kbd>
    </div>
  );
}
