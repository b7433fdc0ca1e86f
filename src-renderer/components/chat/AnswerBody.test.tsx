// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBackend } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { AnswerBody } from './AnswerBody';

afterEach(cleanup);

const HOSTILE = [
  '报销需要 **发票** [1]，审批见 [2]。未知来源 [9]。',
  '',
  '<script>window.hacked = true</script><img src=x onerror="window.hacked = true"><b>raw</b>',
  '',
  '[click me](javascript:alert(1)) and [site](https://example.com/doc) and `code [1]`',
].join('\n');

describe('AnswerBody', () => {
  it('renders Markdown without raw HTML, scripts or javascript: links', () => {
    const { container } = renderWithStore(
      <AnswerBody text={HOSTILE} messageId="m1" citations={[1, 2]} />,
      fakeBackend({}),
    );
    expect({
      scripts: container.querySelectorAll('script, img, b').length,
      javascript: container.innerHTML.includes('javascript:'),
      anchors: container.querySelectorAll('a').length,
      bold: container.querySelector('strong')?.textContent,
      code: container.querySelector('code')?.textContent,
    }).toEqual({ scripts: 0, javascript: false, anchors: 0, bold: '发票', code: 'code [1]' });
    expect((window as unknown as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('turns only valid [n] markers into buttons that highlight their source', () => {
    const { store } = renderWithStore(
      <AnswerBody text={HOSTILE} messageId="m1" citations={[1, 2]} />,
      fakeBackend({}),
    );
    // The javascript: link survives only as its text; the https link becomes a checked "open" button.
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['[1]', '[2]', 'site']);
    expect(screen.getByText('click me').tagName).toBe('SPAN');
    expect(screen.getByText(/未知来源 \[9\]/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '[2]' }));
    expect(store.getState().highlighted).toEqual({ messageId: 'm1', n: 2 });
  });

  it('renders a GitHub-style table in an answer as a table, not pipes', () => {
    const { container } = renderWithStore(
      <AnswerBody
        text={'对比如下 [1]：\n\n| 方案 | 费用 |\n| --- | ---: |\n| 自建 | **高** |\n| 托管 | 低 |'}
        messageId="m1"
        citations={[1]}
      />,
      fakeBackend({}),
    );
    const rows = [...container.querySelectorAll('table tr')].map((row) =>
      [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
    );
    expect({ rows, pipes: container.textContent?.includes('|') }).toEqual({
      rows: [
        ['方案', '费用'],
        ['自建', '高'],
        ['托管', '低'],
      ],
      pipes: false,
    });
  });
});
