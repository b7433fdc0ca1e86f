import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../src-main/core/chunking/chunker';
import { generateDocument, generateQueries } from './corpus';

describe('generated corpus', () => {
  it('is deterministic: the same (seed, index, version) gives the same document in any order', () => {
    const forward = [0, 1, 2, 3].map((i) => generateDocument(i));
    const backward = [3, 2, 1, 0].map((i) => generateDocument(i)).reverse();
    expect(backward).toEqual(forward);
    expect(generateDocument(5, { seed: 2 })).not.toEqual(generateDocument(5, { seed: 1 }));
    expect(generateQueries(20)).toEqual(generateQueries(20));
    expect(generateQueries(20, 8)).not.toEqual(generateQueries(20));
  });

  it('edits keep the id, topic and language but change the text', () => {
    const before = generateDocument(42);
    const after = generateDocument(42, { version: 2 });
    expect([after.externalId, after.knowledgeBase, after.language]).toEqual([
      before.externalId,
      before.knowledgeBase,
      before.language,
    ]);
    expect(after.markdown).not.toBe(before.markdown);
  });

  it('mixes Chinese and English Markdown with headings and realistic sizes', () => {
    const docs = Array.from({ length: 400 }, (_v, i) => generateDocument(i));
    const languages = new Set(docs.map((d) => d.language));
    expect(languages).toEqual(new Set(['zh', 'en', 'mixed']));
    expect(docs.every((d) => d.markdown.startsWith(`# ${d.title}\n`) && d.markdown.includes('\n## '))).toBe(
      true,
    );
    expect(docs.filter((d) => /\p{Script=Han}/u.test(d.markdown)).length).toBeGreaterThan(150);
    const chunks = docs.flatMap((d) => chunkMarkdown(d.markdown));
    const perDocument = chunks.length / docs.length;
    // Mostly one-chunk notes with a tail of long handbooks (measured: ~1.65 chunks per document).
    expect(perDocument).toBeGreaterThan(1.2);
    expect(perDocument).toBeLessThan(2.5);
    expect(Math.max(...docs.map((d) => chunkMarkdown(d.markdown).length))).toBeGreaterThan(5);
  });
});
