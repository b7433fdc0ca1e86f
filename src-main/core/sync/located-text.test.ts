import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../chunking/chunker';
import { joinLocatedParts, locateChunks, spanLocation } from './located-text';

describe('located text', () => {
  it('joins normalised parts with exact offsets and gives each chunk the pages it covers', () => {
    const page = (n: number, text: string) => ({
      markdown: text,
      location: { kind: 'page' as const, page: n },
    });
    const long = 'Word '.repeat(250).trim();
    const joined = joinLocatedParts([
      page(1, '# Report\r\n\r\nIntro text.\r\n'),
      page(2, '   \n'),
      page(3, `## Costs\n\n${long}`),
      page(4, `${long}\n\n## End\n\nDone.`),
    ]);
    expect(joined.marks).toEqual([
      { offset: 0, location: { kind: 'page', page: 1 } },
      { offset: 23, location: { kind: 'page', page: 3 } },
      { offset: 23 + 10 + long.length + 2, location: { kind: 'page', page: 4 } },
    ]);
    expect(joined.content.slice(0, 33)).toBe('# Report\n\nIntro text.\n\n## Costs\n\n');
    const chunks = locateChunks(chunkMarkdown(joined.content, { chunkSize: 1500 }), joined.marks);
    for (const chunk of chunks) expect(joined.content.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.text);
    // The long Costs section is cut in two (with overlap); its second piece crosses into page 4.
    expect(chunks.map((c) => [c.headingPath, c.location])).toEqual([
      ['Report', { kind: 'page', page: 1 }],
      ['Report > Costs', { kind: 'page', page: 3 }],
      ['Report > Costs', { kind: 'page', page: 3, endPage: 4 }],
      ['Report > End', { kind: 'page', page: 4 }],
    ]);
  });

  it('leaves chunks of unlocated text alone and merges row ranges of one sheet only', () => {
    const chunks = chunkMarkdown('# A\n\ntext');
    expect(locateChunks(chunks, [])).toBe(chunks);
    const rows = (sheet: string, firstRow: number, lastRow: number) =>
      ({ kind: 'rows', sheet, firstRow, lastRow }) as const;
    expect(spanLocation(rows('S', 2, 40), rows('S', 41, 80))).toEqual(rows('S', 2, 80));
    expect(spanLocation(rows('S', 2, 40), rows('T', 2, 9))).toEqual(rows('S', 2, 40));
    expect(spanLocation({ kind: 'slide', slide: 2 }, { kind: 'slide', slide: 3 })).toEqual({
      kind: 'slide',
      slide: 2,
      endSlide: 3,
    });
    expect(spanLocation(null, { kind: 'page', page: 3 })).toEqual({ kind: 'page', page: 3 });
  });
});
