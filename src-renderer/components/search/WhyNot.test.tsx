// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok } from '@shared/errors';
import type { DocumentExplanation, ExplainRequest, SearchHit, SearchResponse } from '@shared/models';
import { connection, fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { SearchBox } from './SearchBox';
import { SearchView } from './SearchView';

afterEach(cleanup);

const shown: SearchHit = {
  key: 'chunk:1',
  source: 'index',
  connectionId: 'c1',
  platform: 'folder',
  documentId: 1,
  externalId: 'raft.md',
  title: 'Raft overview',
  knowledgeBase: 'tikv',
  url: null,
  headingPath: '',
  text: 'Raft keeps replicas in step.',
  charStart: 0,
  charEnd: 28,
  score: 0.03,
  ranks: { keyword: 1 },
};
const response: SearchResponse = {
  hits: [shown],
  documents: [{ best: shown, more: [] }],
  warnings: [],
  tookMs: 3,
  totalDocuments: 14,
};

function explanation(query: string): DocumentExplanation {
  return {
    query,
    document: {
      id: 7,
      title: 'Region split size',
      connectionId: 'c1',
      connectionName: 'Notes',
      platform: 'folder',
      knowledgeBase: 'tikv',
      url: null,
      chunks: 4,
    },
    outcome: 'ranked-lower',
    shownRank: null,
    rank: 12,
    k: 10,
    words: [
      { word: 'region', found: true },
      { word: 'split', typed: 'splitting', found: true },
      { word: 'raft', found: false },
    ],
    keyword: { rank: 18, depth: 30, score: 3.456, lastKeptScore: 1.2 },
    vector: { ran: true, rank: null, depth: 30, score: 0.4123, lastKeptScore: 0.5012 },
    fusedScore: 0.016,
    reasons: [
      { kind: 'vector-depth', depth: 30 },
      { kind: 'top-k', rank: 12, k: 10, total: 14 },
    ],
    bestPassage: {
      chunkId: 70,
      headingPath: 'Region split size > region-split-size',
      text: 'region-split-size: the size at which a region splits.',
      charStart: 100,
      charEnd: 153,
    },
    summary: 'English summary for the CLI',
  };
}

function renderWhyNot(
  language: 'en' | 'zh' = 'en',
  explain = (input: ExplainRequest) => ok(explanation(input.query)),
) {
  const backend = fakeBackend({
    'search.query': () => ok(response),
    'search.titles': (input: { text: string }) =>
      ok(
        [
          {
            id: 6,
            title: 'Region merge',
            knowledgeBase: 'tikv',
            platform: 'folder' as const,
            connectionId: 'c1',
          },
          {
            id: 7,
            title: 'Region split size',
            knowledgeBase: 'tikv',
            platform: 'folder' as const,
            connectionId: 'c1',
          },
        ].filter((title) => title.title.toLowerCase().includes(input.text.toLowerCase())),
      ),
    'search.explain': explain as never,
    'documents.get': () => fail('NOT_FOUND', 'not in this test'),
  });
  const rendered = renderWithStore(
    <>
      <SearchBox />
      <SearchView />
    </>,
    backend,
    {
      connections: [connection({ documentCount: 20, syncStatus: 'synced' })],
      settings: settings({ language }),
    },
  );
  fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'raft region splitting' } });
  return { backend, ...rendered };
}

const listOf = (box: HTMLElement) => document.getElementById(box.getAttribute('aria-controls')!)!;

async function pickRegionSplit(open: string, label: string) {
  fireEvent.click(await screen.findByRole('button', { name: open }));
  const box = screen.getByRole('combobox', { name: label });
  fireEvent.change(box, { target: { value: 'region' } });
  const options = await within(listOf(box)).findAllByRole('option');
  expect(options.map((option) => option.textContent)).toEqual([
    'Region merge · tikv',
    'Region split size · tikv',
  ]);
  expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
  fireEvent.keyDown(box, { key: 'ArrowDown' });
  expect(box.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
  fireEvent.keyDown(box, { key: 'Enter' });
  return box;
}

describe('Why not this document?', () => {
  it('follows a document named by its title through the search: verdict, reasons, words, ranks, best passage', async () => {
    const { backend } = renderWhyNot();
    await screen.findByText('Top 1 of 14 results in 3 ms');
    const box = await pickRegionSplit('Why not this document?', 'Document');
    expect((box as HTMLInputElement).value).toBe('Region split size');
    const panel = screen.getByRole('region', { name: 'Why not this document?' });
    await within(panel).findByText(
      '“Region split size” matches “raft region splitting” but ranks 12 of 14, below the 10 shown.',
    );
    expect(backend.calls.find((call) => call.channel === 'search.explain')?.input).toEqual({
      query: 'raft region splitting',
      document: 7,
    });
    expect([...panel.querySelectorAll('.why-not-reasons li')].map((li) => li.textContent)).toEqual([
      'In meaning, none of its passages is among the 30 nearest.',
      'It ranks 12 of 14 matching documents; only the top 10 are shown.',
    ]);
    expect([...panel.querySelectorAll('.why-not-words li')].map((li) => li.textContent)).toEqual([
      '✓region in it',
      '✓split (from “splitting”) in it',
      '✗raft not in it',
    ]);
    expect([...panel.querySelectorAll('.why-not-channels dd')].map((dd) => dd.textContent)).toEqual([
      'rank 18 of the 30 kept · BM25 score 3.46 (the last kept: 1.20)',
      'not among the 30 kept · similarity 0.412 (the last kept: 0.501)',
    ]);
    expect(panel.querySelector('.why-not-passage .heading-path')?.textContent).toBe('region-split-size');
    fireEvent.click(within(panel).getByRole('button', { name: 'Show in document' }));
    await waitFor(() =>
      expect(backend.calls.find((call) => call.channel === 'documents.get')?.input).toEqual({
        documentId: 7,
      }),
    );

    // A new search asks about the same document again; Close ends it.
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'region split' } });
    await within(panel).findByText(
      '“Region split size” matches “region split” but ranks 12 of 14, below the 10 shown.',
    );
    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Why not this document?' })).toBeNull();
  });

  it('says when no title matches, and shows core’s refusal as an error', async () => {
    renderWhyNot('en', () => fail('NOT_FOUND', 'No indexed document 7.'));
    fireEvent.click(await screen.findByRole('button', { name: 'Why not this document?' }));
    const box = screen.getByRole('combobox', { name: 'Document' });
    fireEvent.change(box, { target: { value: 'nothing like it' } });
    await screen.findByText('No indexed document has that in its title.');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    fireEvent.change(box, { target: { value: 'split' } });
    expect((await within(listOf(box)).findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Region split size · tikv',
    ]);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toContain('Could not explain this document');
  });

  it('in Chinese', async () => {
    renderWhyNot('zh');
    await pickRegionSplit('为什么没有找到某个文档？', '文档');
    const panel = screen.getByRole('region', { name: '为什么没有找到这个文档？' });
    await within(panel).findByText(
      '“Region split size” 与 “raft region splitting” 匹配，但在 14 个文档中排第 12，不在显示的前 10 条中。',
    );
    expect([...panel.querySelectorAll('.why-not-reasons li')].map((li) => li.textContent)).toEqual([
      '按语义，它的段落都不在最接近的 30 个之中。',
      '它在 14 个匹配文档中排第 12，只显示前 10 个。',
    ]);
    expect([...panel.querySelectorAll('.why-not-channels dt')].map((dt) => dt.textContent)).toEqual([
      '按关键词',
      '按语义',
    ]);
    expect(panel.querySelector('.why-not-channels dd')?.textContent).toBe(
      '在保留的 30 个中排第 18 · BM25 得分 3.46（最后入选：1.20）',
    );
  });
});
