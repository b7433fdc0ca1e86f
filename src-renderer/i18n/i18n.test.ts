import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatDuration, formatNumber, translate } from './i18n';

describe('formatDateTime', () => {
  // A local time: the format is checked, not the machine's time zone.
  const at = new Date(2026, 11, 3, 9, 5).toISOString();

  it('says the year, in Chinese order in Chinese (not "12/3")', () => {
    expect(formatDateTime('zh', at, '从未')).toBe('2026年12月3日 09:05');
    expect(formatDateTime('en', at, 'never')).toBe('Dec 3, 2026, 09:05');
    expect(formatDateTime('en', null, 'never')).toBe('never');
  });
});

describe('formatNumber', () => {
  it('groups thousands the same way in both languages', () => {
    expect([formatNumber('en', 1225), formatNumber('zh', 1225)]).toEqual(['1,225', '1,225']);
  });
});

describe('numbers in messages, sizes and durations', () => {
  it('groups every number a message says, in both languages', () => {
    expect(translate('en', 'search.count', { count: 1225, ms: 1042 })).toBe('1,225 results in 1,042 ms');
    expect(translate('zh', 'search.count', { count: 1225, ms: 1042 })).toBe('1,225 条结果，用时 1,042 毫秒');
    expect(translate('en', 'settings.reindexRunning', { done: 1024, total: 50000 })).toBe(
      'Re-indexing: 1,024/50,000 chunks',
    );
  });

  it('writes sizes with grouped numbers and the same units in both languages; a byte is never 0 KB', () => {
    expect(formatBytes('en', 1_234_500_000_000)).toBe('1,234.5 GB');
    expect(formatBytes('zh', 1_250_000_000)).toBe('1.25 GB');
    expect(formatBytes('en', 86_400_000)).toBe('86.4 MB');
    expect(formatBytes('en', 186_400_000)).toBe('186 MB');
    expect(formatBytes('zh', 4_200)).toBe('4 KB');
    expect([formatBytes('en', 1), formatBytes('en', 0)]).toEqual(['1 KB', '0 KB']);
  });

  it('says durations in whole seconds or minutes, in the language', () => {
    expect(formatDuration('en', 12.345)).toBe('12 s');
    expect(formatDuration('zh', 12.345)).toBe('12 秒');
    expect(formatDuration('en', 5400)).toBe('90 min');
    expect(formatDuration('zh', 5400)).toBe('90 分钟');
  });
});
