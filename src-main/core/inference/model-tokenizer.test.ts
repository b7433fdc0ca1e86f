import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureTinyModel, ensureTokenizerFixtures } from '../../testing/models/test-models';
import { loadModelTokenizer } from './model-tokenizer';

interface Cases {
  cases: string[];
  sentencepiece_unigram_ids: number[][];
}

/** The case SentencePiece itself and every tokenizer.json conversion disagree on (XLMRobertaConverter keeps a trailing ▁). */
const KNOWN_CONVERTER_DIFFERENCE = '   leading and trailing spaces   ';

describe('loadModelTokenizer', () => {
  // The fixtures are built once by Python (SentencePiece, tokenizers); at high load that alone can
  // take minutes, so it is setup with its own budget rather than part of the first test's.
  beforeAll(() => {
    ensureTokenizerFixtures();
  }, 600_000);

  it('gives SentencePiece’s own ids for an XLM-R style Unigram tokenizer, where the plain JS normaliser does not', () => {
    const fixtures = ensureTokenizerFixtures();
    const { cases, sentencepiece_unigram_ids: gold } = JSON.parse(
      readFileSync(join(fixtures, 'cases.json'), 'utf8'),
    ) as Cases;
    const ours = loadModelTokenizer(join(fixtures, 'unigram'));
    const plain = new Tokenizer(
      JSON.parse(readFileSync(join(fixtures, 'unigram', 'tokenizer.json'), 'utf8')),
      {},
    );
    const differing = (encode: (text: string) => number[]) =>
      cases.filter(
        (text, i) =>
          text !== KNOWN_CONVERTER_DIFFERENCE && JSON.stringify(encode(text)) !== JSON.stringify(gold[i]),
      );
    expect({
      ours: differing((text) => [...ours.frame.head, ...ours.ids(text), ...ours.frame.tail]),
      plain: differing((text) => plain.encode(text).ids),
    }).toEqual({ ours: [], plain: ['emoji 👍🏽 and ZWJ 👨‍👩‍👧 family'] });
  });

  it('spaces astral CJK ideographs like the Rust BertNormalizer (𠮷 is its own token, not a word-eating [UNK])', () => {
    const fixtures = ensureTokenizerFixtures();
    const ours = loadModelTokenizer(join(fixtures, 'wordpiece'));
    const plain = new Tokenizer(
      JSON.parse(readFileSync(join(fixtures, 'wordpiece', 'tokenizer.json'), 'utf8')),
      {},
    );
    expect({ ours: ours.tokens('中𠮷文 a𠮷b'), plain: plain.tokenize('中𠮷文 a𠮷b') }).toEqual({
      ours: ['中', '[UNK]', '文', 'a', '[UNK]', 'b'],
      plain: ['中', '[UNK]', '文', '[UNK]'],
    });
  });

  it('reads each template’s special tokens around one text and a pair (BERT, XLM-R, Qwen)', () => {
    const fixtures = ensureTokenizerFixtures();
    const { dir } = ensureTinyModel();
    const frame = (path: string) => {
      const { head, tail, pairHead, pairMid, pairTail } = loadModelTokenizer(path).frame;
      return { head, tail, pairHead, pairMid, pairTail };
    };
    const tiny = loadModelTokenizer(dir);
    const [cls, sep] = [tiny.frame.head[0], tiny.frame.tail[0]];
    expect({
      bert: frame(dir),
      xlmr: frame(join(fixtures, 'unigram')),
      qwenTailOnly: frame(join(fixtures, 'bpe')).head,
    }).toEqual({
      bert: { head: [cls], tail: [sep], pairHead: [cls], pairMid: [sep], pairTail: [sep] },
      xlmr: { head: [0], tail: [2], pairHead: [0], pairMid: [2, 2], pairTail: [2] },
      qwenTailOnly: [],
    });
  });
});
