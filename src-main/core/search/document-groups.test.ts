import { describe, expect, it } from 'vitest';
import { groupByDocument } from './document-groups';

describe('groupByDocument', () => {
  it('ranks each document by its best passage and tucks its other passages under it, best first', () => {
    const ranked = [
      { key: 'c1', doc: 'release' },
      { key: 'c2', doc: 'limits' },
      { key: 'c3', doc: 'release' },
      { key: 'live', doc: 'live' },
      { key: 'c4', doc: 'release' },
      { key: 'c5', doc: 'limits' },
    ];
    const groups = groupByDocument(ranked, (item) => item.doc).map((group) => ({
      best: group.best.key,
      more: group.more.map((item) => item.key),
    }));
    expect(groups).toEqual([
      { best: 'c1', more: ['c3', 'c4'] },
      { best: 'c2', more: ['c5'] },
      { best: 'live', more: [] },
    ]);
    expect(groupByDocument([], () => 'x')).toEqual([]);
  });
});
