import { describe, expect, it } from 'vitest';
import { generateCorpus } from './dingtalk-ima-corpus';

describe('generateCorpus', () => {
  it('gives exactly N deterministic documents in both languages with headings, code, tables and long ones', () => {
    const corpus = generateCorpus({ documents: 40, spaces: 4 });
    const again = generateCorpus({ documents: 40, spaces: 4 });
    const docs = corpus.documents;
    expect({
      count: docs.length,
      sameAgain: JSON.stringify(again) === JSON.stringify(corpus),
      uniqueKeys: new Set(docs.map((doc) => doc.key)).size,
      languages: [...new Set(docs.map((doc) => doc.language))].sort(),
      spaces: corpus.spaces.length,
      allStructured: docs.every(
        (doc) =>
          /^# /m.test(doc.markdown) &&
          /^## /m.test(doc.markdown) &&
          doc.markdown.includes('```') &&
          /^\| --- \|/m.test(doc.markdown),
      ),
      nested: docs.some((doc) => doc.folder.length === 2),
      long: docs.filter((doc) => doc.markdown.length > 8000).length,
    }).toEqual({
      count: 40,
      sameAgain: true,
      uniqueKeys: 40,
      languages: ['en', 'zh'],
      spaces: 4,
      allStructured: true,
      nested: true,
      long: 5,
    });
  });
});
