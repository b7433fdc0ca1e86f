import { describe, expect, it } from 'vitest';
import type { SearchHit } from '@shared/models';
import { citedCards, paragraphUsedByAnswer, toSourceCard, validateCitations } from './citations';
import { queryTerms, bestParagraph } from './text-match';

describe('validateCitations', () => {
  it('normalises every marker form and keeps first-use order', () => {
    const text = 'A[2][1]. B [1, 3]. C [1-3]. D ［4］. E 【２】. F [source 1]. G [1，4]. H [2–3].';
    expect(validateCitations(text, 4)).toEqual({
      text: 'A[2][1]. B [1][3]. C [1][2][3]. D [4]. E [2]. F [1]. G [1][4]. H [2][3].',
      cited: [2, 1, 3, 4],
      dropped: [],
    });
  });

  it('drops markers that point to no source, with the space before them, and keeps the valid part of a group', () => {
    const text = 'Sync runs daily [1]. It is also documented elsewhere [7]. Both [2, 9] agree [0][3].';
    expect(validateCitations(text, 4)).toEqual({
      text: 'Sync runs daily [1]. It is also documented elsewhere. Both [2] agree [3].',
      cited: [1, 2, 3],
      dropped: [7, 9, 0],
    });
  });

  it('leaves code, Markdown links and absurd ranges alone', () => {
    const text = 'Use `arr[0]` and\n```\nx = y[7]\n```\nsee [1](https://example.com) and [1-2024] [2]';
    expect(validateCitations(text, 2)).toEqual({
      text: 'Use `arr[0]` and\n```\nx = y[7]\n```\nsee [1](https://example.com) and [1] [2]',
      cited: [1, 2],
      dropped: [2024],
    });
  });
});

describe('toSourceCard', () => {
  const chunk = 'Intro paragraph about nothing.\n\nThe API key rotates every 90 days.\n\nOutro.';
  const hit: SearchHit = {
    key: 'chunk:1',
    source: 'index',
    connectionId: 'c1',
    platform: 'yuque',
    documentId: 42,
    externalId: 'doc-1',
    title: 'Security',
    knowledgeBase: 'Ops',
    url: 'https://www.yuque.com/ops/security',
    headingPath: 'Keys',
    text: chunk,
    charStart: 1000,
    charEnd: 1000 + chunk.length,
    score: 1,
    ranks: { keyword: 1 },
  };

  it('points at the matching paragraph inside the document', () => {
    const paragraph = bestParagraph(chunk, queryTerms('how often does the key rotate'));
    const card = toSourceCard({ n: 2, hit, excerpt: chunk, paragraph });
    expect(card).toEqual({
      n: 2,
      title: 'Security',
      platform: 'yuque',
      knowledgeBase: 'Ops',
      connectionId: 'c1',
      documentId: 42,
      externalId: 'doc-1',
      url: 'https://www.yuque.com/ops/security',
      headingPath: 'Keys',
      paragraph: 'The API key rotates every 90 days.',
      charStart: 1000 + chunk.indexOf('The API'),
      charEnd: 1000 + chunk.indexOf('\n\nOutro'),
    });
    expect(citedCards([card, { ...card, n: 3 }], [3]).map((c) => c.n)).toEqual([3]);
  });

  it('keeps the chunk offsets when the hit text is not the exact slice', () => {
    const snippet = { ...hit, text: 'The API key rotates every 90 days.', charEnd: 1500 };
    const card = toSourceCard({
      n: 1,
      hit: snippet,
      excerpt: snippet.text,
      paragraph: bestParagraph(snippet.text, new Set()),
    });
    expect([card.charStart, card.charEnd]).toEqual([1000, 1500]);
  });
  it('labels the paragraph by its own nearest heading, not only the heading its chunk shares', () => {
    const merged =
      '## 变量参考\n\n### tidb_mem_quota_query\n\n单条 SQL 语句可以占用的最大内存，默认值 1073741824。\n\n### region-split-size\n\nRegion 分裂的大小阈值，默认 96MiB。';
    const card = toSourceCard({
      n: 1,
      hit: { ...hit, text: merged, charEnd: 1000 + merged.length, headingPath: '系统变量 > 变量参考' },
      excerpt: merged,
      paragraph: bestParagraph(merged, queryTerms('region-split-size 分裂阈值')),
    });
    expect(card.paragraph).toContain('96MiB');
    expect(card.headingPath).toBe('系统变量 > 变量参考 > region-split-size');
  });

  it('never offers a heading alone as the matching paragraph', () => {
    const chunk = '# 报销流程\n\n报销需要发票和经理审批。\n\n## 其他\n\n无关内容。';
    const paragraph = bestParagraph(chunk, queryTerms('报销流程是什么？'));
    expect(paragraph).toEqual({
      text: '# 报销流程\n\n报销需要发票和经理审批。',
      start: 0,
      end: chunk.indexOf('\n\n## 其他'),
    });
  });

  it("labels and links a cited paragraph by its own nearest heading, not the chunk's shared path", () => {
    const merged =
      '### `region-max-size`\n\nThe largest a Region grows to.\n\n### `region-split-size`\n\nThe size a new Region is split at.';
    const folderHit: SearchHit = {
      ...hit,
      platform: 'folder',
      url: '/docs/tikv-configuration-file.md#配置项',
      headingPath: 'TiKV 配置文件 > 配置项',
      text: merged,
      charEnd: 1000 + merged.length,
    };
    const paragraph = bestParagraph(merged, queryTerms('region split size'));
    expect(paragraph.text).toBe('### `region-split-size`\n\nThe size a new Region is split at.');
    const card = toSourceCard({ n: 1, hit: folderHit, excerpt: merged, paragraph });
    expect([card.headingPath, card.url]).toEqual([
      'TiKV 配置文件 > 配置项 > `region-split-size`',
      '/docs/tikv-configuration-file.md#region-split-size',
    ]);
  });
});

describe('paragraphUsedByAnswer', () => {
  const text = [
    '## region-max-size',
    '',
    'Region 的最大大小，超过后 Region 会被分裂。默认值：144MiB。',
    '',
    '## region-split-size',
    '',
    'Region 分裂后的大小。默认值：96MiB。',
  ].join('\n');
  const hit: SearchHit = {
    key: 'chunk:9',
    source: 'index',
    connectionId: 'c1',
    platform: 'folder',
    documentId: 7,
    externalId: 'tikv-config.md',
    title: 'TiKV 配置',
    knowledgeBase: 'docs',
    url: '/docs/tikv-config.md',
    headingPath: 'TiKV 配置',
    text,
    charStart: 500,
    charEnd: 500 + text.length,
    score: 1,
    ranks: { keyword: 1 },
  };
  const question = bestParagraph(text, queryTerms('Region 分裂的大小是多少'));

  it('marks the block the citing sentence used, not the neighbour the question matched as well', () => {
    expect(question.text).toContain('region-max-size');
    const answer = '分裂后每个 Region 的大小由 region-split-size 决定，默认 96MiB [1]。';
    const used = paragraphUsedByAnswer({ n: 1, hit, excerpt: text, paragraph: question }, answer);
    expect(used.text).toBe('## region-split-size\n\nRegion 分裂后的大小。默认值：96MiB。');
    const card = toSourceCard({ n: 1, hit, excerpt: text, paragraph: used });
    expect(card.headingPath).toBe('TiKV 配置 > region-split-size');
    expect(card.charStart).toBe(500 + text.indexOf('## region-split-size'));
    expect(card.charEnd).toBe(500 + text.length);
  });

  it('keeps the question’s paragraph when no sentence cites the source, or when the other block was not shown', () => {
    const answer = 'Region 默认在 96MiB 时分裂 [2]。 region-split-size 是 96MiB。';
    expect(paragraphUsedByAnswer({ n: 1, hit, excerpt: text, paragraph: question }, answer)).toBe(question);
    const cited = '分裂后每个 Region 的大小由 region-split-size 决定，默认 96MiB。[1]';
    expect(paragraphUsedByAnswer({ n: 1, hit, excerpt: text, paragraph: question }, cited).text).toContain(
      '96MiB',
    );
    // The model saw only the first block: the answer cannot have used the second.
    expect(paragraphUsedByAnswer({ n: 1, hit, excerpt: question.text, paragraph: question }, cited)).toBe(
      question,
    );
  });
});
