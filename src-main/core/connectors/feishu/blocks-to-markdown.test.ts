import { describe, expect, it } from 'vitest';
import { docxBlocksToMarkdown, type DocxBlock } from './blocks-to-markdown';

const run = (content: string, style: Record<string, unknown> = {}) => ({
  elements: [{ text_run: { content, text_element_style: style } }],
});

describe('docxBlocksToMarkdown', () => {
  it('renders headings, styled text, nested and numbered lists, todos, quotes, callouts, code, dividers and tables', () => {
    const blocks: DocxBlock[] = [
      {
        block_id: 'page',
        block_type: 1,
        page: run('标题'),
        children: ['h', 'p', 'b1', 'b2', 'o1', 'o2', 't', 'q', 'c', 'code', 'd', 'tbl'],
      },
      { block_id: 'h', parent_id: 'page', block_type: 4, heading2: run('第二级 Heading') },
      {
        block_id: 'p',
        parent_id: 'page',
        block_type: 2,
        text: {
          elements: [
            { text_run: { content: 'bold', text_element_style: { bold: true } } },
            { text_run: { content: ' and ' } },
            { text_run: { content: 'code', text_element_style: { inline_code: true } } },
            {
              text_run: {
                content: ' link',
                text_element_style: { link: { url: 'https%3A%2F%2Fexample.com%2Fa' } },
              },
            },
            { mention_doc: { title: '另一篇', url: 'https://x.feishu.cn/docx/abc' } },
            { equation: { content: 'E=mc^2\n' } },
          ],
        },
      },
      { block_id: 'b1', parent_id: 'page', block_type: 12, bullet: run('一'), children: ['b1a'] },
      { block_id: 'b1a', parent_id: 'b1', block_type: 12, bullet: run('nested') },
      { block_id: 'b2', parent_id: 'page', block_type: 12, bullet: run('二') },
      { block_id: 'o1', parent_id: 'page', block_type: 13, ordered: run('first') },
      { block_id: 'o2', parent_id: 'page', block_type: 13, ordered: run('second') },
      {
        block_id: 't',
        parent_id: 'page',
        block_type: 17,
        todo: { ...run('done item'), style: { done: true } },
      },
      { block_id: 'q', parent_id: 'page', block_type: 15, quote: run('引用') },
      { block_id: 'c', parent_id: 'page', block_type: 19, callout: {}, children: ['c1'] },
      { block_id: 'c1', parent_id: 'c', block_type: 2, text: run('注意 note') },
      {
        block_id: 'code',
        parent_id: 'page',
        block_type: 14,
        code: { ...run('print("hi | there")\n'), style: { language: 49 } },
      },
      { block_id: 'd', parent_id: 'page', block_type: 22, divider: {} },
      {
        block_id: 'tbl',
        parent_id: 'page',
        block_type: 31,
        table: { cells: ['x1', 'x2', 'x3', 'x4'], property: { row_size: 2, column_size: 2 } },
        children: ['x1', 'x2', 'x3', 'x4'],
      },
      ...['A', 'B|C', '中', '']
        .map((text, i): DocxBlock[] => [
          {
            block_id: `x${i + 1}`,
            parent_id: 'tbl',
            block_type: 32,
            table_cell: {},
            children: [`x${i + 1}t`],
          },
          { block_id: `x${i + 1}t`, parent_id: `x${i + 1}`, block_type: 2, text: run(text) },
        ])
        .flat(),
    ];
    expect(docxBlocksToMarkdown(blocks)).toBe(
      [
        '## 第二级 Heading',
        '**bold** and `code` [link](https://example.com/a)[另一篇](https://x.feishu.cn/docx/abc)$E=mc^2$',
        '- 一\n  - nested\n- 二',
        '1. first\n2. second',
        '- [x] done item',
        '> 引用',
        '> 注意 note',
        '```python\nprint("hi | there")\n```',
        '---',
        '| A | B\\|C |\n| --- | --- |\n| 中 |  |',
      ].join('\n\n') + '\n',
    );
  });

  it('returns an empty string for an empty block list', () => {
    expect(docxBlocksToMarkdown([])).toBe('');
  });
});
