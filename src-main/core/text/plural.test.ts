import { describe, expect, it } from 'vitest';
import { countOf } from './plural';

describe('countOf', () => {
  it('says one thing in the singular and every other count in the plural, with digit grouping', () => {
    expect(countOf(1, 'document')).toBe('1 document');
    expect(countOf(0, 'document')).toBe('0 documents');
    expect(countOf(2, 'knowledge base')).toBe('2 knowledge bases');
    expect(countOf(12_345, 'knowledge space')).toBe('12,345 knowledge spaces');
    expect(countOf(3, 'child', 'children')).toBe('3 children');
  });
});
