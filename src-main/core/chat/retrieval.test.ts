import { describe, expect, it } from 'vitest';
import type { SearchHit } from '@shared/models';
import { dedupeHits, fuseRankings } from './retrieval';

function hit(
  key: string,
  externalId: string,
  text: string,
  offsets: [number, number] | null = null,
  source: SearchHit['source'] = 'index',
): SearchHit {
  return {
    key,
    source,
    connectionId: 'c',
    platform: 'feishu',
    documentId: source === 'index' ? 1 : null,
    externalId,
    title: externalId,
    knowledgeBase: '',
    url: null,
    headingPath: '',
    text,
    charStart: offsets?.[0] ?? null,
    charEnd: offsets?.[1] ?? null,
    score: 1,
    ranks: {},
  };
}

describe('dedupeHits', () => {
  it('keeps one hit per document paragraph, preferring the fuller text at the better rank', () => {
    const hits = [
      hit('direct:c:a', 'a', 'The VPN   certificate expires', null, 'direct'),
      hit('chunk:1', 'a', 'Intro.\n\nThe VPN certificate expires every 90 days.', [0, 48]),
      hit('chunk:2', 'a', 'Renewal takes five minutes.', [48, 75]),
      hit('chunk:3', 'b', 'Renewal takes five minutes.', [0, 27]),
      hit('chunk:1-again', 'a', 'other text, same offsets', [0, 48]),
    ];
    expect(dedupeHits(hits).map((h) => h.key)).toEqual(['chunk:1', 'chunk:2', 'chunk:3']);
  });
});

describe('fuseRankings', () => {
  it('ranks by reciprocal rank across lists, earlier lists winning ties', () => {
    const [a, b, c] = [hit('a', 'a', 'a'), hit('b', 'b', 'b'), hit('c', 'c', 'c')];
    expect(
      fuseRankings([
        [a, b],
        [c, b],
      ]).map((h) => h.key),
    ).toEqual(['b', 'a', 'c']);
    expect(fuseRankings([[a], [c]]).map((h) => h.key)).toEqual(['a', 'c']);
  });
});
