import { describe, expect, it } from 'vitest';
import { plainHeading, plainHeadingPath } from './plain-heading';

describe('plain headings', () => {
  it('drops code ticks, emphasis and link targets, keeping the words', () => {
    expect(plainHeading('`tidb_mem_quota_query`')).toBe('tidb_mem_quota_query');
    expect(plainHeading('**重要** 配置 [TiKV](https://tikv.org)')).toBe('重要 配置 TiKV');
  });

  it('keeps the levels of a path, each plain', () => {
    expect(plainHeadingPath('系统变量 > 变量参考 > `tidb_mem_quota_query`')).toBe(
      '系统变量 > 变量参考 > tidb_mem_quota_query',
    );
    expect(plainHeadingPath('')).toBe('');
  });
});
