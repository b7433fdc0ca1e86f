import { useMemo } from 'react';
import { type MessageKey } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { ErrorMessage } from '../common/ErrorMessage';
import { FilterBar } from './FilterBar';
import { highlightTerms } from './highlight';
import { resultTitles } from './SearchBox';
import { SearchResultCard } from './SearchResultCard';
import { SearchSuggestions, useTopics } from './Suggestions';

function countKey(count: number, filtered: boolean): MessageKey {
  if (filtered) return count === 1 ? 'search.countOneFiltered' : 'search.countFiltered';
  return count === 1 ? 'search.countOne' : 'search.count';
}

/** Arrow keys move between result titles; Up from the first goes back to the search box. */
function moveBetweenResults(event: React.KeyboardEvent<HTMLElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const titles = resultTitles();
  const at = titles.indexOf(document.activeElement as HTMLElement);
  if (at === -1) return;
  event.preventDefault();
  const next = at + (event.key === 'ArrowDown' ? 1 : -1);
  if (next < 0) document.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
  else titles[Math.min(next, titles.length - 1)]?.focus();
}

export function SearchView() {
  const t = useT();
  const query = useApp((state) => state.query);
  const answeredQuery = useApp((state) => state.answeredQuery);
  const documents = useApp((state) => state.documents);
  const warnings = useApp((state) => state.warnings);
  const searching = useApp((state) => state.searching);
  const searchError = useApp((state) => state.searchError);
  const tookMs = useApp((state) => state.tookMs);
  const filtered = useApp((state) => state.answeredFiltered);
  const liveSkipped = useApp((state) => state.liveSkipped);
  const clearFilters = useApp((state) => state.clearSearchFilters);
  const language = useLanguage();
  const connections = useApp((state) => state.connections);
  const openAddForm = useApp((state) => state.openAddForm);
  const terms = useMemo(() => highlightTerms(answeredQuery), [answeredQuery]);
  const topics = useTopics();

  if (connections.length === 0) {
    return (
      <section className="empty-state compact">
        <p>{t('search.noConnections')}</p>
        <button type="button" className="button primary" onClick={() => openAddForm('folder')}>
          {t('connections.emptyAction')}
        </button>
      </section>
    );
  }
  return (
    <div className="view-search">
      <FilterBar />
      <p className="search-meta muted" aria-live="polite">
        {!query.trim()
          ? t('search.empty')
          : searching && documents.length === 0
            ? t('search.searching')
            : answeredQuery && documents.length > 0
              ? t(countKey(documents.length, filtered), {
                  count: documents.length,
                  ms: tookMs ?? 0,
                })
              : ''}
      </p>
      {!query.trim() && <SearchSuggestions topics={topics} />}
      {searchError && searchError.code !== 'CANCELLED' && (
        <p className="form-error" role="alert">
          <ErrorMessage error={searchError} />
        </p>
      )}
      {warnings
        .filter((warning) => warning.error.code !== 'CANCELLED')
        .map((warning) => (
          <p key={warning.connectionId} className="warning">
            <ErrorMessage
              error={warning.error}
              lead={t('search.warning', {
                name: connections.find((c) => c.id === warning.connectionId)?.name ?? warning.connectionId,
              })}
            />
          </p>
        ))}
      {liveSkipped.map((skipped) => (
        <p key={skipped.connectionId} className="notice-line muted">
          {/* Core's English sentence as it is (the CLI and MCP print the same); Chinese from the catalog. */}
          {language === 'en' && skipped.message
            ? skipped.message
            : t('search.liveSkipped', {
                name: connections.find((c) => c.id === skipped.connectionId)?.name ?? skipped.connectionId,
                what: new Intl.ListFormat(language === 'zh' ? 'zh-CN' : 'en', { type: 'disjunction' }).format(
                  skipped.filters.map((gap) => t(`filters.gap.${gap}`)),
                ),
              })}
        </p>
      ))}
      {query.trim() && answeredQuery && !searching && documents.length === 0 && !searchError && (
        <p className="empty-line">
          {t(filtered ? 'search.noHitsFiltered' : 'search.noHits', { query: answeredQuery })}
          {filtered && (
            <>
              {' '}
              <button type="button" className="button quiet" onClick={clearFilters}>
                {t('filters.clear')}
              </button>
            </>
          )}
        </p>
      )}
      {documents.length > 0 && <p className="visually-hidden">{t('search.keyboardHint')}</p>}
      <div className="hit-list" onKeyDown={moveBetweenResults}>
        {documents.map((document) => (
          <SearchResultCard key={document.best.key} document={document} terms={terms} />
        ))}
      </div>
    </div>
  );
}
