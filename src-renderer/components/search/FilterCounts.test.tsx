// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { SearchFacets, SearchResponse } from '@shared/models';
import { connection, fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { SearchView } from './SearchView';

afterEach(cleanup);

// The whole index: 40 notes in two knowledge bases, tagged.
const FACETS: SearchFacets = {
  connections: [{ id: 'c1', name: 'Notes', platform: 'folder', mode: 'rag', documents: 40 }],
  platforms: [{ platform: 'folder', documents: 40 }],
  knowledgeBases: [
    { name: 'work', documents: 30, connectionIds: ['c1'] },
    { name: 'home', documents: 10, connectionIds: ['c1'] },
  ],
  tags: [
    { tag: '项目', documents: 12 },
    { tag: 'roadmap', documents: 5 },
  ],
  modified: { oldest: '2025-01-01T00:00:00.000Z', newest: '2026-01-01T00:00:00.000Z' },
};

// What the query matches: 3 documents, all in "work", one tagged 项目.
const ANSWER: SearchResponse = {
  hits: [],
  documents: [],
  warnings: [],
  tookMs: 3,
  totalDocuments: 3,
  facetCounts: {
    connections: { c1: 3 },
    platforms: { folder: 3 },
    knowledgeBases: { work: 3 },
    tags: { 项目: 1 },
  },
};

function counts(group: HTMLElement): string[] {
  return within(group)
    .getAllByRole('checkbox')
    .map((box) => box.closest('label')!.querySelector('.filter-count')!.textContent ?? '');
}

async function openFilter(name: string): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name }));
  return screen.getByRole('group', { name });
}

describe('filter counts', () => {
  it('count the whole index before a search, and the matching documents once one is answered', async () => {
    const backend = fakeBackend({ 'search.facets': () => ok(FACETS), 'search.query': () => ok(ANSWER) });
    const { store } = renderWithStore(<SearchView />, backend, {
      connections: [connection({ id: 'c1', name: 'Notes', documentCount: 40 })],
      settings: settings({ language: 'en' }),
    });
    let kb = await openFilter('Knowledge base');
    expect(counts(kb)).toEqual(['3030 documents', '1010 documents']);
    fireEvent.keyDown(within(kb).getAllByRole('checkbox')[0]!, { key: 'Escape' });

    act(() => store.setState({ query: 'plan' }));
    await act(() => store.getState().runSearch('plan'));
    kb = await openFilter('Knowledge base');
    expect(counts(kb)).toEqual(['33 matching documents', '00 matching documents']);
    fireEvent.keyDown(within(kb).getAllByRole('checkbox')[0]!, { key: 'Escape' });
    const tags = await openFilter('Tag');
    expect(counts(tags)).toEqual(['11 matching document', '00 matching documents']);
    // Exact counts: a 0 is a 0, and nothing says more may match.
    expect(within(tags).queryByText(/more documents may match/)).toBeNull();
  });

  it('say "at least" when core says more documents may match than it counted', async () => {
    const floor: SearchResponse = { ...ANSWER, moreMayMatch: true };
    const backend = fakeBackend({ 'search.facets': () => ok(FACETS), 'search.query': () => ok(floor) });
    const { store } = renderWithStore(<SearchView />, backend, {
      connections: [connection({ id: 'c1', name: 'Notes', documentCount: 40 })],
      settings: settings({ language: 'en' }),
    });
    act(() => store.setState({ query: 'plan' }));
    await act(() => store.getState().runSearch('plan'));
    const kb = await openFilter('Knowledge base');
    // "home" holds none of the counted documents, but may hold one past them: not a 0.
    expect(counts(kb)).toEqual([
      '3+at least 3 matching documents',
      '0+none of the documents counted so far; more may match',
    ]);
    expect(
      within(kb).getByText('Counted over the first matches only: more documents may match.'),
    ).toBeTruthy();
    act(() => store.setState({ settings: settings({ language: 'zh' }) }));
    const zh = screen.getByRole('group', { name: '知识库' });
    expect(counts(zh)).toEqual(['3+至少 3 篇匹配的文档', '0+已统计的文档中没有，可能还有更多匹配的文档']);
    expect(within(zh).getByText('只统计了前面的匹配结果，可能还有更多匹配的文档。')).toBeTruthy();
  });

  it('in Chinese', async () => {
    const backend = fakeBackend({ 'search.facets': () => ok(FACETS), 'search.query': () => ok(ANSWER) });
    const { store } = renderWithStore(<SearchView />, backend, {
      connections: [connection({ id: 'c1', name: 'Notes', documentCount: 40 })],
      settings: settings({ language: 'zh' }),
    });
    act(() => store.setState({ query: '计划' }));
    await act(() => store.getState().runSearch('计划'));
    const tags = await openFilter('标签');
    expect(counts(tags)).toEqual(['11 篇匹配的文档', '00 篇匹配的文档']);
  });
});
