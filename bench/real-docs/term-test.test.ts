import { describe, expect, it } from 'vitest';
import { headingsOf, headingText, runTermTest, termCases } from './term-test';

const record = (id: string, text: string, title = '') => ({ id, title, text });

describe('termCases', () => {
  it('takes titles and headings of two to four CJK characters, with every document that has them', () => {
    const corpus = [
      record('a.md', '---\ntitle: 分区表\n---\n\n## 概述\n\n## 使用限制\n\n## Partition pruning\n'),
      record('b.md', '# 时区\n\n## 概述\n\n### 分区表的使用限制和注意事项\n'),
      record('c.md', '# 表\n\n```\n# 注释行\n```\n'),
    ];
    expect(termCases(corpus)).toEqual([
      { term: '使用限制', documents: ['a.md'] },
      { term: '分区表', documents: ['a.md'] },
      { term: '时区', documents: ['b.md'] },
      { term: '概述', documents: ['a.md', 'b.md'] },
    ]);
  });

  it('reads headings without their Markdown decoration and skips fenced code', () => {
    expect(headingText('**监控** {#monitor}')).toBe('监控');
    expect(headingText('[`备份`](backup.md) ##')).toBe('备份');
    expect(headingsOf(record('x', 'x\n~~~\n## 不是标题\n~~~\n## 是标题'))).toEqual(['是标题']);
  });
});

describe('runTermTest', () => {
  it('passes a term when a titled document is in the top 3, and lists the failures', async () => {
    const cases = [
      { term: '分区表', documents: ['a.md'] },
      { term: '时区', documents: ['b.md'] },
    ];
    const result = await runTermTest('corpus', cases, {
      good: (term) => (term === '分区表' ? ['x', 'y', 'a.md'] : ['b.md']),
      bad: () => ['x', 'y', 'z', 'a.md'],
    });
    expect(result.passRate).toEqual({ good: 1, bad: 0 });
    expect(result.failures.bad).toEqual([
      { term: '分区表', expected: ['a.md'], got: ['x', 'y', 'z'] },
      { term: '时区', expected: ['b.md'], got: ['x', 'y', 'z'] },
    ]);
  });
});
