import { describe, expect, it } from 'vitest';
import { furthest, landDelta } from './stream-text';

describe('landDelta (chat.token offsets)', () => {
  it('appends a delta that starts where the text ends, CJK included', () => {
    expect(landDelta('报销', 2, '需要发票')).toEqual({ text: '报销需要发票', gap: false });
  });

  it('drops a delta the text already holds, and keeps only the new tail of one that overlaps', () => {
    expect(landDelta('Within 30 days', 7, '30 days')).toEqual({ text: 'Within 30 days', gap: false });
    expect(landDelta('Within 30', 7, '30 days')).toEqual({ text: 'Within 30 days', gap: false });
  });

  it('reports a gap and keeps the text when tokens before this one were missed', () => {
    expect(landDelta('Within', 9, ' days')).toEqual({ text: 'Within', gap: true });
  });

  it('furthest keeps the longer of two texts of one answer', () => {
    expect([furthest('ab', 'abc'), furthest('abc', 'ab'), furthest('', '')]).toEqual(['abc', 'abc', '']);
  });
});
