import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../chunking/chunker';
import { chunkLocated, joinLocatedParts } from './located-text';

describe('located text', () => {
  it('joins normalised parts with exact offsets and chunks each part on its own, with its page', () => {
    const page = (n: number, text: string) => ({
      markdown: text,
      location: { kind: 'page' as const, page: n },
    });
    const long = 'Word '.repeat(400).trim();
    const joined = joinLocatedParts([
      page(1, '# Report\r\n\r\nIntro text.\r\n'),
      page(2, '   \n'),
      page(3, 'Short page.'),
      page(4, `## Costs\n\n${long}`),
    ]);
    expect(joined.marks).toEqual([
      { offset: 0, location: { kind: 'page', page: 1 } },
      { offset: 23, location: { kind: 'page', page: 3 } },
      { offset: 36, location: { kind: 'page', page: 4 } },
    ]);
    expect(joined.content.slice(0, 46)).toBe('# Report\n\nIntro text.\n\nShort page.\n\n## Costs\n\n');
    const chunks = chunkLocated(joined, (text) => chunkMarkdown(text));
    for (const chunk of chunks) expect(joined.content.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.text);
    // Page 3 is short, yet it is not merged into page 1 or 4: each passage names one page.
    expect(chunks.map((c) => [c.ord, c.text.slice(0, 11), c.location])).toEqual([
      [0, '# Report\n\nI', { kind: 'page', page: 1 }],
      [1, 'Short page.', { kind: 'page', page: 3 }],
      [2, '## Costs\n\nW', { kind: 'page', page: 4 }],
      [3, expect.any(String), { kind: 'page', page: 4 }],
    ]);
  });
});
