import { describe, expect, it } from 'vitest';
import { holdsExcluded, missingPhrase, parseQuerySyntax } from './query-syntax';

describe('parseQuerySyntax', () => {
  it('reads quoted phrases (kept in the ranked text) and -exclusions (taken out of it)', () => {
    expect(parseQuerySyntax('"data folder" backup -windows -"old version"')).toEqual({
      text: 'data folder backup',
      phrases: ['data folder'],
      excluded: ['windows', 'old version'],
    });
    expect(parseQuerySyntax('“报销 流程” 发票 -差旅')).toEqual({
      text: '报销 流程 发票',
      phrases: ['报销 流程'],
      excluded: ['差旅'],
    });
    expect(parseQuerySyntax('「审批」')).toMatchObject({ text: '审批', phrases: ['审批'] });
  });

  it('leaves hyphens inside words, dates, lone minus signs and unbalanced quotes alone', () => {
    expect(parseQuerySyntax('store-pool-size 2026-03-01 a - b "open')).toEqual({
      text: 'store-pool-size 2026-03-01 a - b "open',
      phrases: [],
      excluded: [],
    });
  });

  it('drops repeats, case aside', () => {
    expect(parseQuerySyntax('-Draft -draft "A b" "a B"')).toMatchObject({
      phrases: ['A b'],
      excluded: ['Draft'],
    });
  });
});

describe('matching', () => {
  it('finds a phrase across case, width and spacing, and names the first one missing', () => {
    expect(missingPhrase('Back up the  DATA folder first', ['data folder'])).toBeNull();
    expect(missingPhrase('报销流程说明', ['报销 流程'])).toBeNull();
    expect(missingPhrase('data is in the folder', ['data folder'])).toBe('data folder');
  });

  it('excludes whole Latin words and Chinese characters as written', () => {
    expect(holdsExcluded('Raft log replication', 'raft')).toBe(true);
    expect(holdsExcluded('Raftstore is busy', 'raft')).toBe(false);
    expect(holdsExcluded('a draft.', 'draft')).toBe(true);
    expect(holdsExcluded('提交差旅报销单', '差旅')).toBe(true);
    expect(holdsExcluded('提交报销单', '差旅')).toBe(false);
  });
});
