// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { SearchFacets, SearchRequest, SearchResponse } from '@shared/models';
import { connection, fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { NO_FILTERS, requestFilters, activeFilterCount } from '../../store/filter-model';
import { SearchView } from './SearchView';

afterEach(cleanup);

const FACETS: SearchFacets = {
  connections: [
    { id: 'c1', name: 'Notes', platform: 'folder', mode: 'rag', documents: 6 },
    { id: 'c2', name: 'Wiki', platform: 'yuque', mode: 'direct', documents: 0 },
  ],
  platforms: [
    { platform: 'folder', documents: 6 },
    { platform: 'yuque', documents: 0 },
  ],
  knowledgeBases: [{ name: 'notes', documents: 6, connectionIds: ['c1'] }],
  tags: [
    { tag: '项目', documents: 2 },
    { tag: 'roadmap', documents: 1 },
  ],
  modified: { oldest: '2025-01-01T00:00:00.000Z', newest: '2026-01-01T00:00:00.000Z' },
};

const EMPTY: SearchResponse = {
  hits: [],
  documents: [],
  warnings: [],
  tookMs: 3,
  liveSkipped: [
    {
      connectionId: 'c2',
      filters: ['modified', 'tags'],
      message: 'Wiki was not searched: its live search cannot filter by modified date or tag.',
    },
  ],
};

function setup(language: 'en' | 'zh' = 'en') {
  const backend = fakeBackend({
    'search.facets': () => ok(FACETS),
    'search.query': () => ok(EMPTY),
  });
  const view = renderWithStore(<SearchView />, backend, {
    connections: [
      connection({ id: 'c1', name: 'Notes' }),
      connection({ id: 'c2', name: 'Wiki', platform: 'yuque' }),
    ],
    settings: settings({ language }),
  });
  const queries = () =>
    backend.calls
      .filter((call) => call.channel === 'search.query')
      .map((call) => call.input as SearchRequest);
  return { ...view, backend, queries };
}

describe('FilterBar', () => {
  it('filters by a tag from a popover, shows it as a removable chip, and says the results are filtered', async () => {
    const { store, queries } = setup();
    act(() => store.setState({ query: 'plan' }));
    await act(() => store.getState().runSearch('plan'));
    const tag = await screen.findByRole('button', { name: 'Tag' });
    // One knowledge base only: no choice to offer, so no knowledge-base filter.
    expect(screen.queryByRole('button', { name: 'Knowledge base' })).toBeNull();
    fireEvent.click(tag);
    expect(tag.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('group', { name: 'Tag' });
    fireEvent.click(within(panel).getByRole('checkbox', { name: /项目/ }));
    await waitFor(() =>
      expect(queries().at(-1)).toEqual({ query: 'plan', filters: { tags: ['项目'] }, facetCounts: true }),
    );
    // Escape closes the popover and gives focus back to its button.
    fireEvent.keyDown(within(panel).getByRole('checkbox', { name: /项目/ }), { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Tag' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Tag: #项目' }));
    await waitFor(() => expect(screen.getByText(/Nothing matches “plan” with these filters\./)).toBeTruthy());
    expect(
      screen.getByText('Wiki was not searched: its live search cannot filter by modified date or tag.'),
    ).toBeTruthy();
    const chips = screen.getByRole('list', { name: 'Active filters' });
    fireEvent.click(within(chips).getByRole('button', { name: 'Remove filter #项目' }));
    await waitFor(() => expect(queries().at(-1)).toEqual({ query: 'plan', facetCounts: true }));
  });

  it('offers date presets and a custom range, in Chinese too, and clears everything at once', async () => {
    const { store, queries } = setup('zh');
    act(() => store.setState({ query: '计划' }));
    await act(() => store.getState().runSearch('计划'));
    fireEvent.click(await screen.findByRole('button', { name: '修改时间' }));
    fireEvent.click(screen.getByRole('radio', { name: '自定义范围' }));
    fireEvent.change(screen.getByLabelText('开始日期'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('结束日期'), { target: { value: '2026-03-31' } });
    await waitFor(() =>
      expect(queries().at(-1)?.filters).toEqual({
        modifiedAfter: new Date(2026, 2, 1).toISOString(),
        modifiedBefore: new Date(2026, 3, 1).toISOString(),
      }),
    );
    expect(screen.getByRole('list', { name: '当前筛选' }).textContent).toContain('2026-03-01 至 2026-03-31');
    fireEvent.click(screen.getAllByRole('button', { name: '清除筛选' })[0]!);
    await waitFor(() => expect(queries().at(-1)).toEqual({ query: '计划', facetCounts: true }));
    expect(store.getState().searchFilters).toEqual(NO_FILTERS);
  });
});

describe('filter-model', () => {
  it('turns presets into bounds relative to now and leaves an unfiltered request as it was', () => {
    const now = new Date(2026, 5, 15, 10);
    expect(requestFilters(NO_FILTERS, now)).toBeUndefined();
    expect(requestFilters({ ...NO_FILTERS, date: 'week' }, now)).toEqual({
      modifiedAfter: new Date(2026, 5, 8, 10).toISOString(),
    });
    expect(requestFilters({ ...NO_FILTERS, date: 'year', platforms: ['folder'] }, now)).toEqual({
      platforms: ['folder'],
      modifiedAfter: new Date(2025, 5, 15, 10).toISOString(),
    });
    // A backwards custom range is not sent (the bar says why).
    expect(
      requestFilters({ ...NO_FILTERS, date: 'custom', from: '2026-03-02', to: '2026-03-01' }, now),
    ).toBeUndefined();
    expect(activeFilterCount({ ...NO_FILTERS, tags: ['a', 'b'], date: 'custom' })).toBe(2);
  });
});
