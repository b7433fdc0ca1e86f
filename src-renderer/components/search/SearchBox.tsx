import { useEffect, useRef } from 'react';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';

/** The result titles, in order: arrow keys move between them (SearchView too). */
export function resultTitles(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('.hit-list .hit-open')];
}

/**
 * The always-visible search field; Ctrl/Cmd+K (handled in App) focuses it. Focusing it (a click,
 * Tab) leaves the current view alone; typing switches to Search. Arrow Down goes to the first result.
 */
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
        onChange={(event) => {
          setView('search');
          setQuery(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            const first = resultTitles()[0];
            if (first) {
              event.preventDefault();
              first.focus();
            }
          }
        }}
      />
      <kbd aria-hidden="true">{t('search.shortcut')}</kbd>
    </div>
  );
}
