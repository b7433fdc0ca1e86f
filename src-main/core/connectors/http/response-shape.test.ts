import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CairnError } from '../../errors';
import { parseResponse } from './response-shape';

const Page = z.object({
  data: z.object({ items: z.array(z.object({ node_token: z.string() })), has_more: z.boolean().optional() }),
});
const source = { platform: 'Feishu', endpoint: 'GET /open-apis/wiki/v2/spaces/{space_id}/nodes' };

function thrown(work: () => unknown): CairnError {
  try {
    work();
  } catch (error) {
    return error as CairnError;
  }
  throw new Error('expected a throw');
}

describe('parseResponse', () => {
  it('returns the parsed body when it fits', () => {
    expect(parseResponse(Page, { data: { items: [{ node_token: 'a' }] } }, source)).toEqual({
      data: { items: [{ node_token: 'a' }] },
    });
  });

  it('names platform, endpoint and the exact field that does not fit', () => {
    const wrongType = thrown(() => parseResponse(Page, { data: { items: [{ node_token: 7 }] } }, source));
    expect([wrongType.code, wrongType.message, wrongType.details]).toEqual([
      'UNEXPECTED_RESPONSE',
      expect.stringMatching(
        /^Feishu answered GET \/open-apis\/wiki\/v2\/spaces\/\{space_id\}\/nodes in a shape Cairn does not know: field "data\.items\[0\]\.node_token" is number 7 \(/,
      ),
      { platform: 'Feishu', endpoint: source.endpoint, field: 'data.items[0].node_token' },
    ]);
    const missing = thrown(() => parseResponse(Page, { code: 0 }, source));
    expect(missing.message).toContain('field "data" is missing');
    const notObject = thrown(() => parseResponse(Page, 'not json', source));
    expect(notObject.message).toContain('field "(the whole body)" is "not json"');
  });
});
