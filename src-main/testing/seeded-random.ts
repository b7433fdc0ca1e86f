/** Seeded randomness for generated test data and benchmark corpora: the same seed replays exactly. */

export type Random = () => number;

/** mulberry32 (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c): tiny, fast, well mixed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}
