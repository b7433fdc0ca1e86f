import { describe, expect, it } from 'vitest';
import { toSearchText } from '../text/analyzer';
import { embeddingInput, keywordInput } from './embedding-input';

describe('keywordInput', () => {
  it('holds the same tokens as title, heading path and text analysed as lines (whitespace only separates)', () => {
    const chunks = [
      {
        title: '费用 Handbook',
        headingPath: 'Guide > Install',
        text: "差旅报销单 uses the installer's wizard. 1998年版 ＡＢＣ café",
      },
      { title: '  Notes  ', headingPath: '', text: '  カタカナ と 한국어를 mixed\n\nline two  ' },
    ];
    for (const chunk of chunks) {
      expect(keywordInput(chunk)).toBe(toSearchText([chunk.title, chunk.headingPath, chunk.text].join('\n')));
      expect(keywordInput(chunk)).toBe(toSearchText(embeddingInput(chunk)));
    }
    expect(keywordInput(chunks[0]!).split(' ')).toEqual(
      expect.arrayContaining(['报销', 'instal', 'wizard', 'cafe', '1998年']),
    );
  });
});
