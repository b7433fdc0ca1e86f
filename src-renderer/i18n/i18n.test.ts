import { describe, expect, it } from 'vitest';
import { formatDateTime, formatNumber } from './i18n';

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
