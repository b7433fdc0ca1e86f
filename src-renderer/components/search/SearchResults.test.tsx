// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { SearchDocument, SearchHit, SearchRequest, SearchResponse } from '@shared/models';
import { connection, fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { SearchBox } from './SearchBox';
import { SearchView } from './SearchView';

afterEach(cleanup);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function hit(n: number, fields: Partial<SearchHit> = {}): SearchHit {
  return {
    key: `chunk:${n}`,
    source: 'index',
    connectionId: 'c1',
    platform: 'folder',
    documentId: n,
    externalId: `doc-${n}.md`,
    title: `Runbook ${n}`,
    knowledgeBase: 'notes',
    url: `/n/doc-${n}.md`,
    headingPath: '',
    text: `Restart the service, step ${n}.`,
    charStart: 0,
    charEnd: 10,
    score: 1 / (60 + n),
    ranks: { keyword: n },
    freshness: { editedAt: ago(3 * DAY), syncedAt: ago(2 * HOUR) },
    ...fields,
  };
}

/** A search over `total` matching documents that answers the first k (10 by default), like core. */
function searchOver(total: number, extra: Partial<SearchResponse> = {}) {
  return (request: SearchRequest) => {
    const k = request.k ?? 10;
    const all = Array.from({ length: total }, (_, i) => hit(i + 1));
    const ordered = request.sort === 'modified' ? [...all].reverse() : all;
    const documents: SearchDocument[] = ordered.slice(0, k).map((best) => ({ best, more: [] }));
    return ok<SearchResponse>({
      hits: documents.map((document) => document.best),
      documents,
      warnings: [],
      tookMs: 5,
      totalDocuments: total,
      ...extra,
    });
  };
}

function renderSearch(
  handler: ReturnType<typeof searchOver>,
  language: 'en' | 'zh' = 'en',
  query = 'restart',
) {
  const backend = fakeBackend({ 'search.query': handler as never });
  const rendered = renderWithStore(
    <>
      <SearchBox />
      <SearchView />
    </>,
    backend,
    {
      connections: [connection({ documentCount: 80, syncStatus: 'synced' })],
      settings: settings({ language }),
    },
  );
  fireEvent.change(screen.getByRole('searchbox'), { target: { value: query } });
  return { backend, ...rendered };
}

const searchCalls = (backend: ReturnType<typeof fakeBackend>) =>
  backend.calls.filter((call) => call.channel === 'search.query').map((call) => call.input as SearchRequest);

describe('more results, their order and freshness', () => {
  it('says how many matched, shows more up to 50, then says why it stops; a new query starts at 10', async () => {
    const { backend } = renderSearch(searchOver(80));
    await screen.findByText('Top 10 of 80 results in 5 ms');
    expect(screen.getAllByRole('article')).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: 'Show 40 more' }));
    await screen.findByText('Top 50 of 80 results in 5 ms');
    expect(screen.getAllByRole('article')).toHaveLength(50);
    expect(searchCalls(backend).at(-1)).toEqual({ query: 'restart', k: 50, facetCounts: true });
    expect(screen.queryByRole('button', { name: /more$/ })).toBeNull();
    expect(screen.getByText('Showing the first 50: add words or filters to reach the others.')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'restart service' } });
    await screen.findByText('Top 10 of 80 results in 5 ms');
    expect(searchCalls(backend).at(-1)).toEqual({ query: 'restart service', facetCounts: true });
  });

  it('says a total core cannot back as a floor, and still offers up to 50', async () => {
    // Core's first page saw 30 candidates and its keyword scan stopped on a match: more may match.
    const firstPage = searchOver(30, { moreMayMatch: true });
    const { backend } = renderSearch((request: SearchRequest) =>
      request.k === 50 ? searchOver(55)(request) : firstPage(request),
    );
    await screen.findByText('Top 10 of 30+ results in 5 ms');
    fireEvent.click(screen.getByRole('button', { name: 'Show 40 more' }));
    await screen.findByText('Top 50 of 55 results in 5 ms');
    expect(searchCalls(backend).at(-1)).toMatchObject({ k: 50 });
    cleanup();
    renderSearch(firstPage, 'zh');
    await screen.findByText('至少 30 条结果，显示前 10 条，用时 5 毫秒');
    expect(screen.getByRole('button', { name: '再显示 40 条' })).toBeTruthy();
  });

  it('offers only the documents there are, and nothing more when all are shown', async () => {
    renderSearch(searchOver(13));
    await screen.findByText('Top 10 of 13 results in 5 ms');
    fireEvent.click(screen.getByRole('button', { name: 'Show 3 more' }));
    await screen.findByText('13 results in 5 ms');
    expect(screen.getAllByRole('article')).toHaveLength(13);
    expect(screen.queryByRole('button', { name: /more$/ })).toBeNull();
    expect(screen.queryByText(/Showing the first/)).toBeNull();
  });

  it('sorts newest first through core and keeps that order for the next query', async () => {
    const { backend } = renderSearch(searchOver(12));
    await screen.findByText('Top 10 of 12 results in 5 ms');
    expect(screen.getAllByRole('article')[0]!.getAttribute('aria-label')).toBe('Runbook 1');
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), { target: { value: 'modified' } });
    await waitFor(() =>
      expect(screen.getAllByRole('article')[0]!.getAttribute('aria-label')).toBe('Runbook 12'),
    );
    expect(searchCalls(backend).at(-1)).toEqual({ query: 'restart', sort: 'modified', facetCounts: true });
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'runbook' } });
    await waitFor(() =>
      expect(searchCalls(backend).at(-1)).toEqual({ query: 'runbook', sort: 'modified', facetCounts: true }),
    );
  });

  it('says on each result when it was edited and synced, and when the source changed since', async () => {
    const handler = (request: SearchRequest) => {
      const fresh = hit(1);
      const modified = hit(2, {
        freshness: {
          editedAt: ago(3 * DAY),
          syncedAt: ago(2 * HOUR),
          changed: { kind: 'file-modified', at: ago(10 * 60_000) },
        },
      });
      const gone = hit(3, {
        freshness: { editedAt: null, syncedAt: ago(2 * HOUR), changed: { kind: 'file-missing', at: null } },
      });
      const newer = hit(4, {
        platform: 'yuque',
        freshness: {
          editedAt: ago(3 * DAY),
          syncedAt: ago(2 * HOUR),
          changed: { kind: 'platform-newer', at: ago(DAY) },
        },
      });
      const live = hit(5, { source: 'direct', freshness: undefined });
      const documents = [fresh, modified, gone, newer, live].map((best) => ({ best, more: [] }));
      void request;
      return ok<SearchResponse>({ hits: [], documents, warnings: [], tookMs: 5, totalDocuments: 5 });
    };
    renderSearch(handler);
    await screen.findByText('5 results in 5 ms');
    const lines = screen
      .getAllByRole('article')
      .map((card) => card.querySelector('.hit-freshness')?.textContent ?? '');
    expect(lines).toEqual([
      'edited 3 days ago · synced 2 h ago',
      'edited 3 days ago · synced 2 h agothe file changed since (10 min ago): sync to update',
      'synced 2 h agothe file is gone since the last sync',
      'edited 3 days ago · synced 2 h agoedited again yesterday, not synced yet',
      '',
    ]);
    cleanup();
    renderSearch(handler, 'zh');
    await screen.findByText('5 条结果，用时 5 毫秒');
    expect(
      screen.getAllByRole('article').map((card) => card.querySelector('.hit-freshness')?.textContent ?? ''),
    ).toEqual([
      '3 天前编辑 · 2 小时前同步',
      '3 天前编辑 · 2 小时前同步文件在同步后有改动（10 分钟前），同步后更新',
      '2 小时前同步上次同步后文件已被删除或移走',
      '3 天前编辑 · 2 小时前同步平台上有新的编辑（1 天前），尚未同步',
      '',
    ]);
  });

  it('says what "phrase" and -word did, in both languages', async () => {
    const handler = searchOver(3, { operators: { phrases: ['rolling restart'], excluded: ['draft'] } });
    renderSearch(handler, 'en', '"rolling restart" -draft');
    expect((await screen.findByText(/Only passages with/)).textContent).toBe(
      'Only passages with the exact phrase “rolling restart”; Leaving out documents with “draft”',
    );
    cleanup();
    renderSearch(handler, 'zh', '"rolling restart" -draft');
    expect((await screen.findByText(/只看含有/)).textContent).toBe(
      '只看含有完整短语 “rolling restart” 的段落；已排除含有 “draft” 的文档',
    );
    expect(
      within(screen.getByRole('combobox', { name: '排序' })).getByRole('option', { name: '最近修改' }),
    ).toBeTruthy();
    expect(screen.getByText('3 条结果，用时 5 毫秒')).toBeTruthy();
  });

  it('labels each passage by its own nearest heading, without raw Markdown, and copies its link', async () => {
    const merged =
      '## 变量参考\n\n### tidb_mem_quota_query\n\n单条语句的内存上限。\n\n### `region-split-size`\n\nRegion 分裂阈值，默认 96MiB。';
    const handler = () => {
      const documents = [
        hit(1, {
          title: '系统变量',
          headingPath: '系统变量 > 变量参考',
          text: merged,
          url: 'https://docs.example.com/system-variables#region-split-size',
        }),
        hit(2, {
          title: 'Config',
          headingPath: 'Config > `raftstore` > **Region**',
          text: 'region split check',
          url: '/n/config.md',
        }),
      ].map((best) => ({ best, more: [] }));
      return ok<SearchResponse>({ hits: [], documents, warnings: [], tookMs: 5, totalDocuments: 2 });
    };
    renderSearch(handler as never, 'en', '分裂阈值');
    await screen.findByText('2 results in 5 ms');
    const [variables, config] = screen.getAllByRole('article') as [HTMLElement, HTMLElement];
    expect(variables.querySelector('.heading-path')?.textContent).toBe('变量参考 › region-split-size');
    // Headings in the passage are set off from their text, so one section does not run into the next
    // (a shown heading is left out only where it leads the passage: hit-preview.test).
    expect(variables.querySelector('.hit-text')?.textContent).toBe(
      'tidb_mem_quota_query — 单条语句的内存上限。 region-split-size — Region 分裂阈值，默认 96MiB。',
    );
    expect(config.querySelector('.heading-path')?.textContent).toBe('raftstore › Region');

    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: (text: string) => (copied.push(text), Promise.resolve()) },
    });
    fireEvent.click(within(variables).getByRole('button', { name: 'Copy link' }));
    await within(variables).findByRole('button', { name: 'Copied' });
    fireEvent.click(within(config).getByRole('button', { name: 'Copy path' }));
    await waitFor(() =>
      expect(copied).toEqual(['https://docs.example.com/system-variables#region-split-size', '/n/config.md']),
    );
  });
});
