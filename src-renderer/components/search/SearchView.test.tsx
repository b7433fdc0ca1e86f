// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { SearchHit, SearchResponse } from '@shared/models';
import { connection, fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { DocumentPreview } from '../preview/DocumentPreview';
import { SearchBox } from './SearchBox';
import { SearchView } from './SearchView';

afterEach(cleanup);

function hit(key: string, fields: Partial<SearchHit>): SearchHit {
  return {
    key,
    source: 'index',
    connectionId: 'c1',
    platform: 'folder',
    documentId: 1,
    externalId: 'expense.md',
    title: '报销流程',
    knowledgeBase: 'notes',
    url: '/n/expense.md',
    headingPath: '',
    text: '',
    charStart: 0,
    charEnd: 0,
    score: 0.03,
    ranks: { keyword: 1 },
    ...fields,
  };
}

const best = hit('chunk:1', {
  headingPath: '报销流程 > 提交',
  text: '## 提交\n\n员工提交**报销**单，附上发票。',
  // Offsets into the previewed document below: its "## 提交" section.
  charStart: 8,
  charEnd: 30,
  ranks: { vector: 1, keyword: 1 },
});
const second = hit('chunk:2', {
  headingPath: '报销流程 > 审批',
  text: '经理审批后打款。\n\n| 金额 | 审批人 |\n| --- | --- |\n| *5000* 以上 | 总监 |',
  ranks: { keyword: 3 },
});
const third = hit('chunk:3', {
  headingPath: '报销流程 > 差旅',
  text: '差旅报销还需附上行程单。',
  ranks: { vector: 4 },
});
const travel = hit('chunk:9', {
  documentId: 2,
  externalId: 'travel.md',
  title: '差旅政策',
  headingPath: '差旅政策',
  text: '超出部分需在报销时说明原因。',
  ranks: { keyword: 2 },
});
const response: SearchResponse = {
  hits: [best, travel, second, third],
  documents: [
    { best, more: [second, third] },
    { best: travel, more: [] },
  ],
  warnings: [],
  tookMs: 4,
};

/** A local embedding model's space: its vectors know meaning (the built-in one's only wording). */
const SEMANTIC_SPACE = 'local/multilingual-e5-small/384';

function renderSearch(
  language: 'en' | 'zh' = 'en',
  activeSpace = SEMANTIC_SPACE,
  answer: SearchResponse = response,
) {
  const backend = fakeBackend({ 'search.query': () => ok(answer) });
  renderWithStore(
    <>
      <SearchBox />
      <SearchView />
    </>,
    backend,
    {
      connections: [connection({ documentCount: 2, syncStatus: 'synced' })],
      settings: settings({ language }),
      reindex: { running: false, done: 0, total: 0, activeSpace, pendingSpace: null },
    },
  );
  fireEvent.change(screen.getByRole('searchbox'), { target: { value: '报销' } });
}

describe('SearchView', () => {
  it('shows each document once with its best passage, and folds its other passages under a toggle', async () => {
    renderSearch();
    await screen.findByText('2 results in 4 ms');
    const cards = screen.getAllByRole('article');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['报销流程', '差旅政策']);
    const [expense, other] = cards as [HTMLElement, HTMLElement];
    // The title is said once: not again as the heading path's first step or the passage's first line.
    expect(expense.querySelector('.heading-path')?.textContent).toBe('提交');
    expect(expense.querySelector('.hit-text')?.textContent).toBe('员工提交报销单，附上发票。');
    expect(within(other).queryByRole('button', { name: /more passage/ })).toBeNull();

    const toggle = within(expense).getByRole('button', { name: '2 more passages in this document' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(expense).queryByRole('list', { name: 'Other matching passages' })).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toBe('Hide the other passages');
    const passages = within(
      within(expense).getByRole('list', { name: 'Other matching passages' }),
    ).getAllByRole('listitem');
    expect(
      passages.map((item) => [
        item.querySelector('.heading-path')?.textContent,
        item.querySelector('.hit-text')?.textContent,
        [...item.querySelectorAll('mark')].map((mark) => mark.textContent),
      ]),
    ).toEqual([
      ['审批', '经理审批后打款。 金额 · 审批人 5000 以上 · 总监', []],
      ['差旅', '差旅报销还需附上行程单。', ['报销']],
    ]);
    expect(toggle.getAttribute('aria-controls')).toBe(
      within(expense).getByRole('list', { name: 'Other matching passages' }).id,
    );
    fireEvent.click(toggle);
    expect(within(expense).queryByRole('list', { name: 'Other matching passages' })).toBeNull();
  });

  it('says why a result is here in plain words, not channel ranks', async () => {
    renderSearch();
    const [expense, travel] = (await screen.findAllByRole('article')) as [HTMLElement, HTMLElement];
    expect(within(expense).getByText('Why this result?')).toBeTruthy();
    expect([...expense.querySelectorAll('.why li')].map((item) => item.textContent)).toEqual([
      'Contains “报销”',
      'Close in meaning to your search',
    ]);
    expect([...travel.querySelectorAll('.why li')].map((item) => item.textContent)).toEqual([
      'Contains “报销”',
    ]);
    expect(expense.textContent).not.toMatch(/vector|keyword|#1/);
  });

  it('claims closeness in meaning only when the vectors know meaning: the built-in embedder matches wording', async () => {
    const wordingOnly = hit('chunk:7', {
      documentId: 3,
      externalId: 'claims.md',
      title: '费用申请',
      headingPath: '费用申请',
      text: '报账单据按月提交。',
      ranks: { vector: 2 },
    });
    renderSearch('en', 'builtin/cairn-hash-v1/1024', {
      ...response,
      hits: [best, wordingOnly],
      documents: [
        { best, more: [] },
        { best: wordingOnly, more: [] },
      ],
    });
    const [expense, claims] = (await screen.findAllByRole('article')) as [HTMLElement, HTMLElement];
    expect([...expense.querySelectorAll('.why li')].map((item) => item.textContent)).toEqual([
      'Contains “报销”',
    ]);
    expect([...claims.querySelectorAll('.why li')].map((item) => item.textContent)).toEqual([
      'Similar in wording to your search (parts of words, other forms)',
    ]);
    expect(document.body.textContent).not.toContain('Close in meaning');
  });

  it('opens a result in the preview with its passage marked; arrow keys move between results; Escape closes', async () => {
    const markdown = '# 报销流程\n\n## 提交\n\n员工提交**报销**单，附上发票。\n\n## 审批\n\n经理审批后打款。';
    const backend = fakeBackend({
      'search.query': () => ok(response),
      'documents.get': () =>
        ok({
          id: 1,
          connectionId: 'c1',
          externalId: 'expense.md',
          title: '报销流程',
          platform: 'folder',
          knowledgeBase: 'notes',
          url: '/n/expense.md',
          updatedAt: null,
          indexedAt: '2026-11-01T00:00:00.000Z',
          markdown,
          chunks: [
            {
              id: 1,
              ord: 0,
              headingPath: '报销流程 > 提交',
              charStart: 0,
              charEnd: markdown.indexOf('## 审批'),
            },
            {
              id: 2,
              ord: 1,
              headingPath: '报销流程 > 审批',
              charStart: markdown.indexOf('## 审批'),
              charEnd: markdown.length,
            },
          ],
        }),
    });
    // jsdom has no scrollIntoView: record what the preview scrolls to, and how.
    const scrolled: Array<[string, ScrollIntoViewOptions | boolean | undefined]> = [];
    Element.prototype.scrollIntoView = function (this: Element, options?: ScrollIntoViewOptions | boolean) {
      scrolled.push([`${this.tagName} ${this.textContent}`, options]);
    };
    renderWithStore(
      <>
        <SearchBox />
        <SearchView />
        <DocumentPreview />
      </>,
      backend,
      { connections: [connection({ documentCount: 2, syncStatus: 'synced' })], settings: settings() },
    );
    const box = screen.getByRole('searchbox');
    fireEvent.change(box, { target: { value: '报销' } });
    await screen.findByText('2 results in 4 ms');
    const titles = screen.getAllByRole('button', { name: /报销流程|差旅政策/ });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(titles[0]);
    fireEvent.keyDown(titles[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(titles[1]);
    // Escape from a result goes back to the search box, the query kept.
    fireEvent.keyDown(titles[1]!, { key: 'Escape' });
    expect(document.activeElement).toBe(box);
    expect((box as HTMLInputElement).value).toBe('报销');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.click(document.activeElement as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: '报销流程' });
    const passage = await within(dialog).findByRole('region', { name: 'The passage you opened' });
    expect(passage.textContent).toContain('提交');
    expect([...dialog.querySelectorAll('mark')].map((mark) => mark.textContent)).toContain('报销');
    // It lands on the heading of the passage's section, at the top (not the passage's middle).
    expect(scrolled.at(-1)).toEqual(['H2 提交', { block: 'start' }]);
    delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    expect(backend.calls.find((call) => call.channel === 'documents.get')?.input).toEqual({ documentId: 1 });
    fireEvent(dialog, new Event('cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says how many more passages a document has in Chinese', async () => {
    renderSearch('zh');
    const toggle = await screen.findByRole('button', { name: '本文档还有 2 处匹配' });
    fireEvent.click(toggle);
    expect(toggle.textContent).toBe('收起其他匹配');
    expect(screen.getByRole('list', { name: '其他匹配段落' }).querySelectorAll('li')).toHaveLength(2);
  });
});
