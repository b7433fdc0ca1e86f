import { describe, expect, it } from 'vitest';
import { QueryVectorCache } from './query-vector-cache';

describe('QueryVectorCache', () => {
  it('keeps vectors per space and text, and drops the least recently used beyond its capacity', () => {
    const cache = new QueryVectorCache(2);
    const a = Float32Array.of(1);
    const b = Float32Array.of(2);
    const c = Float32Array.of(3);
    cache.set(1, 'a', a);
    cache.set(1, 'b', b);
    expect(cache.get(2, 'a')).toBeUndefined();
    expect(cache.get(1, 'a')).toBe(a); // now 'b' is the least recently used
    cache.set(1, 'c', c);
    expect(cache.size).toBe(2);
    expect(cache.get(1, 'b')).toBeUndefined();
    expect(cache.get(1, 'a')).toBe(a);
    expect(cache.get(1, 'c')).toBe(c);
  });
});
