import { describe, expect, it } from 'vitest';
import { chunkCeiling, chunkMarkdown, type Chunk } from './chunker';
import { splitsCharacter } from './boundaries';
import { randomMarkdown, seededRandom } from '../../testing/markdown-fixtures';

/** Every invariant a chunk list must keep, returned as a list of violations (empty = fine). */
function violations(source: string, chunks: Chunk[], chunkSize: number): string[] {
  const found: string[] = [];
  chunks.forEach((chunk, index) => {
    const where = `chunk ${index} [${chunk.charStart}, ${chunk.charEnd})`;
    if (chunk.ord !== index) found.push(`${where}: ord ${chunk.ord}`);
    if (
      (chunk.tableHeader ? `${chunk.tableHeader}\n` : '') + source.slice(chunk.charStart, chunk.charEnd) !==
      chunk.text
    )
      found.push(`${where}: text differs from the source slice`);
    if (chunk.text.trim() === '') found.push(`${where}: whitespace only`);
    if (/^\s|\s$/.test(chunk.text)) found.push(`${where}: untrimmed`);
    // The source slice obeys the size; a split table's repeated header comes on top of it.
    const sliceLength = chunk.charEnd - chunk.charStart;
    if (sliceLength > chunkSize) found.push(`${where}: ${sliceLength} > ${chunkSize}`);
    // And whatever the structure, the text with its header stays under the hard ceiling.
    if (chunk.text.length > chunkCeiling(chunkSize))
      found.push(`${where}: text of ${chunk.text.length} > the ceiling ${chunkCeiling(chunkSize)}`);
    if (chunk.tableHeader && !/^\|?.*\|.*\n\s*\|?\s*:?-/.test(chunk.text))
      found.push(`${where}: repeated table header is not a header and delimiter row`);
    if (splitsSurrogatePair(source, chunk.charStart) || splitsSurrogatePair(source, chunk.charEnd))
      found.push(`${where}: splits a surrogate pair`);
    if (splitsCharacter(source, chunk.charStart) || splitsCharacter(source, chunk.charEnd))
      found.push(`${where}: splits a grapheme`);
    const previous = chunks[index - 1];
    if (previous && (chunk.charStart <= previous.charStart || chunk.charEnd <= previous.charEnd))
      found.push(`${where}: out of order`);
  });
  // Nothing is lost: every non-whitespace character lies in some chunk.
  let covered = 0;
  for (const chunk of chunks) {
    const gap = source.slice(covered, chunk.charStart);
    if (chunk.charStart > covered && gap.trim() !== '')
      found.push(`lost text before ${chunk.charStart}: ${JSON.stringify(gap.slice(0, 40))}`);
    covered = Math.max(covered, chunk.charEnd);
  }
  if (source.slice(covered).trim() !== '') found.push(`lost text at the end from ${covered}`);
  return found;
}

function splitsSurrogatePair(source: string, pos: number): boolean {
  const before = source.charCodeAt(pos - 1);
  const after = source.charCodeAt(pos);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

describe('chunkMarkdown invariants over generated documents', () => {
  it('keeps exact offsets, order, size, whole characters and full coverage for 400 random documents', () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= 400; seed++) {
      const random = seededRandom(seed);
      const source = randomMarkdown(random);
      const chunkSize = 20 + Math.floor(random() * 600);
      const overlap = Math.floor(random() * (chunkSize / 3));
      const problems = violations(source, chunkMarkdown(source, { chunkSize, overlap }), chunkSize);
      if (problems.length > 0)
        failures.push(
          `seed ${seed} (chunkSize ${chunkSize}, overlap ${overlap}): ${problems.slice(0, 3).join('; ')}`,
        );
    }
    expect(failures).toEqual([]);
  });

  it('never cuts inside an emoji sequence, even in a line made only of them', () => {
    const family = '👨‍👩‍👧';
    const source = family.repeat(400);
    const chunks = chunkMarkdown(source, { chunkSize: 50, overlap: 10 });
    expect(violations(source, chunks, 50)).toEqual([]);
    expect(chunks.filter((chunk) => chunk.text.replaceAll(family, '') !== '')).toEqual([]);
  });

  it('reports no violations for the checker itself on a hand-made broken chunk list', () => {
    // Guards the property above against passing vacuously.
    const source = 'ab😀 cd';
    const broken: Chunk[] = [{ ord: 0, headingPath: '', text: 'ab\uD83D', charStart: 0, charEnd: 3 }];
    expect(violations(source, broken, 10)).toEqual([
      'chunk 0 [0, 3): splits a surrogate pair',
      'chunk 0 [0, 3): splits a grapheme',
      'lost text at the end from 3',
    ]);
  });
});
