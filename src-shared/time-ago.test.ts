import { describe, expect, it } from 'vitest';
import { timeAgo } from './time-ago';

const now = new Date(2026, 4, 20, 12, 0, 0);
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const H = 3_600_000;

describe('timeAgo', () => {
  it('is relative within a week, in English and Chinese', () => {
    const cases: [number, string, string][] = [
      [20_000, 'just now', '刚刚'],
      [5 * 60_000, '5 min ago', '5 分钟前'],
      [2 * H, '2 h ago', '2 小时前'],
      [26 * H, 'yesterday', '1 天前'],
      [3 * 24 * H, '3 days ago', '3 天前'],
    ];
    for (const [ms, en, zh] of cases)
      expect([timeAgo(ago(ms), now, 'en'), timeAgo(ago(ms), now, 'zh')]).toEqual([en, zh]);
  });

  it('is a date older than a week: Chinese order, and the year when it is not this year', () => {
    const march = new Date(2026, 2, 5, 9).toISOString();
    const lastYear = new Date(2025, 11, 24, 9).toISOString();
    expect([timeAgo(march, now, 'en'), timeAgo(march, now, 'zh')]).toEqual(['Mar 5', '3月5日']);
    expect([timeAgo(lastYear, now, 'en'), timeAgo(lastYear, now, 'zh')]).toEqual([
      'Dec 24, 2025',
      '2025年12月24日',
    ]);
  });

  it('reads a time slightly ahead of the clock as now', () => {
    expect(timeAgo(ago(-30_000), now, 'en')).toBe('just now');
  });
});
