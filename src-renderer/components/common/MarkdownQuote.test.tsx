// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownQuote } from './MarkdownQuote';

afterEach(cleanup);

function quote(markdown: string): HTMLElement {
  return render(<MarkdownQuote markdown={markdown} />).container.querySelector('.markdown-quote')!;
}

describe('MarkdownQuote', () => {
  it('shows a fenced code block as a monospace block without its fence markers', () => {
    const element = quote('Example:\n\n```ts\nconst limit = rate * 2; // **not bold**\n```');
    expect(element.querySelector('pre code')?.textContent).toBe('const limit = rate * 2; // **not bold**\n');
    expect(element.textContent).not.toContain('```');
    expect(element.querySelector('p')?.textContent).toBe('Example:');
  });

  it('drops heading, emphasis and link syntax and keeps the words; raw HTML never reaches the page', () => {
    const element = quote(
      '## Rate limits\n\nWe **throttle** at _50_ per [second](https://example.test/x).\n\n<img src=x onerror="alert(1)"><script>alert(2)</script>',
    );
    // Tags are dropped; text between them stays inert text.
    expect(element.textContent).toBe('Rate limits\nWe throttle at 50 per second.\nalert(2)');
    expect(element.querySelector('.quote-heading strong')?.textContent).toBe('Rate limits');
    expect(element.querySelector('a, img, script, h2')).toBeNull();
  });

  it('shows a pipe table as a table of cells with their inline Markdown rendered', () => {
    const element = quote(
      'Settings:\n\n| Setting | Value |\n| --- | :---: |\n| `region` | us-west-1 |\n| **并发** | 2 |',
    );
    const rows = [...element.querySelectorAll('table tr')].map((row) =>
      [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['Setting', 'Value'],
      ['region', 'us-west-1'],
      ['并发', '2'],
    ]);
    expect(element.querySelector('td code')?.textContent).toBe('region');
    expect(element.textContent).not.toContain('|');
  });

  it('keeps Chinese text intact, with its emphasis rendered', () => {
    const element = quote('# 报销流程\n\n报销需要**发票**，单笔超过 5000 元需写明用途。');
    expect(element.textContent).toBe('报销流程\n报销需要发票，单笔超过 5000 元需写明用途。');
    expect(element.querySelector('p:not(.quote-heading) strong')?.textContent).toBe('发票');
  });

  it('renders bold next to Chinese punctuation, which plain CommonMark leaves as literal asterisks', () => {
    const element = quote('报销必须附**“发票”**。审批人是**部门负责人（或其代理人）**，然后提交。');
    expect({
      text: element.textContent,
      bold: [...element.querySelectorAll('strong')].map((node) => node.textContent),
    }).toEqual({
      text: '报销必须附“发票”。审批人是部门负责人（或其代理人），然后提交。',
      bold: ['“发票”', '部门负责人（或其代理人）'],
    });
  });
});
