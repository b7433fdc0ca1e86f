import { describe, expect, it } from 'vitest';
import type { SearchHit } from '@shared/models';
import { ALL_RULES, type RankingRules } from '../search/ranking-rules';
import { buildExtractiveAnswer, sourceName } from './extractive-answer';

function hit(id: number, text: string, extra: Partial<SearchHit> = {}): SearchHit {
  return {
    key: `chunk:${id}`,
    source: 'index',
    connectionId: 'c1',
    platform: 'folder',
    documentId: id,
    externalId: `doc-${id}.md`,
    title: `Doc ${id}`,
    knowledgeBase: 'Docs',
    url: null,
    headingPath: '',
    text,
    charStart: 0,
    charEnd: text.length,
    score: 1,
    ranks: { keyword: id },
    ...extra,
  };
}

describe('buildExtractiveAnswer', () => {
  it('quotes the paragraph holding the rare query term, not the intro that repeats the title words', () => {
    const intro = hit(1, '# 错误码与故障诊断\n\n本篇文档描述错误码与故障诊断的方法，错误码按编号排列。');
    const codes = hit(
      2,
      '* Error Number: 8026\n\n    使用了没有实现的接口函数。\n\n* Error Number: 8027\n\n    表结构版本过期。请检查网络。',
      { documentId: 1, charStart: 500, charEnd: 560 },
    );
    const answer = buildExtractiveAnswer('错误码 8027 是什么原因', [intro, codes], 'no-model');
    expect(answer.sources[0]?.hit.key).toBe('chunk:2');
    expect(answer.sources[0]?.excerpt).toContain('8027');
  });

  it('keeps a list whole under its heading and the paragraph that introduces it', () => {
    const text =
      '### 其他问题\n\n无关内容。\n\n### 如何导出 TiDB 数据？\n\n你可以通过以下方式导出 TiDB 数据：\n\n- 使用 mysqldump。\n- 使用 Dumpling 导出。';
    const answer = buildExtractiveAnswer('如何导出 TiDB 数据', [hit(1, text)], 'no-model');
    // The best paragraph is the heading, its intro and the whole list; the quote grows around it.
    expect(answer.sources[0]?.paragraph.text).toBe(
      '### 如何导出 TiDB 数据？\n\n你可以通过以下方式导出 TiDB 数据：\n\n- 使用 mysqldump。\n- 使用 Dumpling 导出。',
    );
    expect(answer.sources[0]?.excerpt).toContain(answer.sources[0]!.paragraph.text);
    expect(answer.text).toContain('> - 使用 Dumpling 导出。');
    expect(answer.text).toContain('— Doc 1 › 如何导出 TiDB 数据？ [1]');
  });

  it('does not quote the overlap a later chunk of the same document shares with an earlier one', () => {
    const source =
      'First part about Raftstore threads. Shared overlap sentence about Raftstore. Second part about Raftstore pools.';
    const a = hit(1, source.slice(0, 75), { charStart: 0, charEnd: 75 });
    const b = hit(2, source.slice(36), { documentId: 1, charStart: 36, charEnd: source.length });
    const answer = buildExtractiveAnswer('Raftstore', [a, b], 'no-model');
    const quoted = answer.sources.map((s) => s.excerpt).join('\n');
    expect(quoted.match(/Shared overlap sentence/g)).toHaveLength(1);
  });

  it('counts the forms of one key once: "v7.4.0" and "7.4.0" are the same version', () => {
    // The release notes' table writes "v7.4.0" (indexed as v740 and 740); the date line sits under
    // the heading "TiDB 7.4.0" (740 only). The date paragraph also holds 发版日期 and must win.
    const notes = hit(
      1,
      '# TiDB 7.4.0 Release Notes\n\n发版日期：2023 年 10 月 12 日\n\n| 分类 | 描述 |\n|---|---|\n| 稳定性 | 在 v7.4.0 以前只能局部排序，v7.4.0 引入全局排序 |',
    );
    const answer = buildExtractiveAnswer('v7.4.0 发版日期', [notes], 'no-model');
    expect(answer.sources[0]?.paragraph.text).toContain('2023 年 10 月 12 日');
  });

  it('names the source once: the title, then the sections below it', () => {
    expect(sourceName({ title: 'TiDB 配置文件描述', headingPath: 'TiDB 配置文件描述 > 兼容性变更' })).toBe(
      'TiDB 配置文件描述 › 兼容性变更',
    );
    expect(sourceName({ title: 'FAQ', headingPath: 'FAQ' }, '### Why?\n\nBecause.')).toBe('FAQ › Why?');
    expect(sourceName({ title: 'Guide', headingPath: '' })).toBe('Guide');
  });
});

// Each passage rule the rule ablation kept (ranking-rules.ts; docs/decisions/retrieval-on-real-documents.md),
// shown deciding the quote: with it one paragraph, without it another.
describe('the passage rules', () => {
  const quoted = (question: string, hits: SearchHit[], off?: keyof RankingRules) =>
    buildExtractiveAnswer(question, hits, 'no-model', {
      rules: off ? { ...ALL_RULES, [off]: false } : ALL_RULES,
    }).sources[0]?.paragraph.text;

  it('rare terms: the paragraph with the rare word, not the one repeating the common ones', () => {
    const guide = [
      hit(
        1,
        'TiDB 备份 概述。\n\nTiDB 备份 工具。\n\nTiDB 备份 BR 的用法。\n\nBR 限速：使用 --ratelimit 参数。',
      ),
    ];
    expect(quoted('TiDB 备份 BR 限速', guide)).toBe('BR 限速：使用 --ratelimit 参数。');
    expect(quoted('TiDB 备份 BR 限速', guide, 'rarePassageTerms')).toBe('TiDB 备份 BR 的用法。');
  });

  it('key terms: the paragraph holding the code the question names, over one holding its other words', () => {
    const hits = [
      hit(1, 'TiDB 报错时怎么处理：先查看 TiDB 日志，再处理报错。'),
      hit(2, '8027：表结构版本过期。'),
    ];
    expect(quoted('TiDB 报错 8027 怎么处理', hits)).toBe('8027：表结构版本过期。');
    expect(quoted('TiDB 报错 8027 怎么处理', hits, 'keyTermPassages')).toContain('先查看 TiDB 日志');
  });

  it('key terms: an identifier holding a stop word (no) is one key, written beside = or in CJK', () => {
    const hits = [
      hit(1, 'Hertz 选 netpoll 还是 go net？设为 true 是干嘛用的，见下文。'),
      hit(2, 'HERTZ_NO_NETPOLL：禁用 netpoll。'),
    ];
    expect(quoted('HERTZ_NO_NETPOLL=true 是干嘛用的', hits)).toBe('HERTZ_NO_NETPOLL：禁用 netpoll。');
    expect(quoted('HERTZ_NO_NETPOLL=true 是干嘛用的', hits, 'keyTermPassages')).toContain('见下文');
    expect(
      quoted('错误码8027怎么处理', [
        hit(1, '错误码的处理方法：先查日志。'),
        hit(2, '8027：表结构版本过期。'),
      ]),
    ).toBe('8027：表结构版本过期。');
  });

  it('reorder: a later hit that matches clearly better is quoted first', () => {
    const hits = [
      hit(1, 'TiKV 的内存使用，TiKV 内存限制。'),
      hit(2, 'TiKV 内存 限制 与 block-cache 的 capacity。\n\nTiKV 内存 说明。'),
    ];
    expect(quoted('TiKV 内存 限制 block-cache', hits)).toContain('block-cache');
    expect(quoted('TiKV 内存 限制 block-cache', hits, 'passageReorder')).toBe(
      'TiKV 的内存使用，TiKV 内存限制。',
    );
  });
});
