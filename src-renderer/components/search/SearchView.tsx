import { useMemo } from 'react';
import { type MessageKey } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import type { QueryOperators, SearchSort } from '@shared/models';
import { MAX_RESULTS } from '../../store/slices/search-slice';
import { ErrorMessage } from '../common/ErrorMessage';
import { FilterBar } from './FilterBar';
import { highlightTerms } from './highlight';
import { resultTitles } from './SearchBox';
import { SearchResultCard } from './SearchResultCard';
import { SearchSuggestions, useTopics } from './Suggestions';
import { WhyNot } from './WhyNot';

function countKey(count: number, total: number, filtered: boolean, floor: boolean): MessageKey {
  // A floor: the keyword scan stopped at its depth, so "Top 10 of 30+" rather than a total it cannot back.
  if (floor && total > count) return filtered ? 'search.countOfAtLeastFiltered' : 'search.countOfAtLeast';
  if (total > count) return filtered ? 'search.countOfFiltered' : 'search.countOf';
  if (filtered) return count === 1 ? 'search.countOneFiltered' : 'search.countFiltered';
  return count === 1 ? 'search.countOne' : 'search.count';
}

/**
 * Arrow keys move between result titles; Up from the first goes back to the search box, and so
 * does Escape from anywhere in the results (the query kept, ready to refine).
 */
function moveBetweenResults(event: React.KeyboardEvent<HTMLElement>) {
  if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
    const box = document.querySelector<HTMLInputElement>('input[type="search"]');
    if (box) {
      event.preventDefault();
      box.focus();
    }
    return;
  }
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const titles = resultTitles();
  const at = titles.indexOf(document.activeElement as HTMLElement);
  if (at === -1) return;
  event.preventDefault();
  const next = at + (event.key === 'ArrowDown' ? 1 : -1);
  if (next < 0) document.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
  else titles[Math.min(next, titles.length - 1)]?.focus();
}

/** What the "phrase" and -word operators did, so a query that narrowed itself says so. */
function OperatorsLine({ operators }: { operators: QueryOperators }) {
  const t = useT();
  const language = useLanguage();
  const list = (items: string[]) =>
    new Intl.ListFormat(language === 'zh' ? 'zh-CN' : 'en', { type: 'conjunction' }).format(
      items.map((item) => `“${item}”`),
    );
  return (
    <p className="notice-line muted operators-line">
      {[
        ...(operators.phrases.length > 0
          ? [t('search.operators.phrases', { phrases: list(operators.phrases) })]
          : []),
        ...(operators.excluded.length > 0
          ? [t('search.operators.excluded', { words: list(operators.excluded) })]
          : []),
      ].join(language === 'zh' ? '；' : '; ')}
    </p>
  );
}

/** Relevance or newest first: the same matching documents in another order (core sorts them). */
function SortSelect() {
  const t = useT();
  const sort = useApp((state) => state.sort);
  const setSort = useApp((state) => state.setSort);
  return (
    <label className="sort-select">
      <span className="muted">{t('search.sortLabel')}</span>
      <select value={sort} onChange={(event) => setSort(event.target.value as SearchSort)}>
        <option value="relevance">{t('search.sort.relevance')}</option>
        <option value="modified">{t('search.sort.modified')}</option>
      </select>
    </label>
  );
}

/**
 * "Show 12 more" while the search matched more than it shows, up to MAX_RESULTS; then why it stops.
 * When `total` is a floor (more may match), it offers up to MAX_RESULTS.
 */
function MoreResults({ shown, total, floor }: { shown: number; total: number; floor: boolean }) {
  const t = useT();
  const showMore = useApp((state) => state.showMore);
  const searching = useApp((state) => state.searching);
  if (total <= shown && !floor) return null;
  if (shown >= MAX_RESULTS)
    return <p className="muted more-results">{t('search.atMost', { count: shown })}</p>;
  return (
    <p className="more-results">
      <button type="button" className="button" disabled={searching} onClick={showMore}>
        {t('search.showMore', { count: (floor ? MAX_RESULTS : Math.min(total, MAX_RESULTS)) - shown })}
      </button>
    </p>
  );
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
  const totalDocuments = useApp((state) => state.totalDocuments);
  const moreMayMatch = useApp((state) => state.moreMayMatch);
  const operators = useApp((state) => state.operators);
  const filtered = useApp((state) => state.answeredFiltered);
  const liveSkipped = useApp((state) => state.liveSkipped);
  const clearFilters = useApp((state) => state.clearSearchFilters);
  const language = useLanguage();
  const connections = useApp((state) => state.connections);
  const openAddForm = useApp((state) => state.openAddForm);
  const total = Math.max(totalDocuments ?? 0, documents.length);
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
      <div className="search-meta-row">
        <p className="search-meta muted" aria-live="polite">
          {!query.trim()
            ? t('search.empty')
            : searching && documents.length === 0
              ? t('search.searching')
              : answeredQuery && documents.length > 0
                ? t(countKey(documents.length, total, filtered, moreMayMatch), {
                    count: documents.length,
                    total,
                    ms: tookMs ?? 0,
                  })
                : ''}
        </p>
        {query.trim() && <SortSelect />}
      </div>
      {query.trim() && answeredQuery && operators && <OperatorsLine operators={operators} />}
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
      {query.trim() && answeredQuery && documents.length > 0 && (
        <MoreResults shown={documents.length} total={total} floor={moreMayMatch} />
      )}
      {query.trim() && answeredQuery && !searchError && <WhyNot />}
    </div>
  );
}
