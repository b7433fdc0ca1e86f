/**
 * The rank table and its encoder give gpt-tokenizer's o200k_base tokens exactly: the built-in
 * embedder's stored vectors depend on them (term-prior.ts). Compared token for token on every
 * token of the vocabulary (alone and after a space) and on generated text in many scripts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { createO200KSpecialTokenMap } from 'gpt-tokenizer/encodingParams/o200k_base';
import bpeRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { describe, expect, it } from 'vitest';
import { O200K_SPECIAL_TOKENS, O200K_SPLIT, O200kEncoder } from './o200k-encoder';
import { RankTable } from './rank-table';
import { loadO200kEncode } from './term-prior';

const VERSION = (createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version: string }).version;
const tableBytes = RankTable.build(bpeRanks as (string | number[])[], VERSION);
const table = RankTable.read(tableBytes);
const encoder = new O200kEncoder(table);

/** Every text whose tokens differ, with both encodings (empty when all agree). */
function mismatches(texts: Iterable<string>): { text: string; expected: number[]; actual: number[] }[] {
  const wrong = [];
  for (const text of texts) {
    const expected = encode(text);
    const actual = encoder.encode(text);
    if (expected.length !== actual.length || expected.some((rank, i) => rank !== actual[i]))
      wrong.push({ text, expected, actual });
    if (wrong.length >= 5) break;
  }
  return wrong;
}

/** A small deterministic generator (mulberry32): the same texts on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789',
  ' \t\n\r',
  '.,;:!?\'"()[]{}<>/\\|-_=+*&^%$#@~`',
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后',
  'ひらがなカタカナの日本語テキストです',
  '한국어텍스트입니다',
  'абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВ',
  'αβγδεζηθικλμνξοπρστυφχψω',
  'ةيبرعلاصوصنلا',
  'éèêëàâäôöûüçñßøåæœÉÀ',
  '→≠≤≥∞∑√∫™©®°±×÷€£¥',
  '😀🎉👍🏽🇨🇳🧑‍💻',
  '\u0301\u0308\u200d\ufe0f\u00a0\u3000',
];

function generated(count: number): string[] {
  const next = random(15);
  const texts: string[] = [];
  for (let n = 0; n < count; n++) {
    let text = '';
    const length = 1 + Math.floor(next() * 24);
    while ([...text].length < length) {
      const alphabet = [...ALPHABETS[Math.floor(next() * ALPHABETS.length)]!];
      const run = 1 + Math.floor(next() * 6);
      for (let i = 0; i < run; i++) text += alphabet[Math.floor(next() * alphabet.length)];
    }
    texts.push(n % 2 ? ` ${text}` : text);
  }
  return texts;
}

describe('the o200k rank table and encoder', () => {
  it('split text and refuse special tokens as gpt-tokenizer does', () => {
    expect(O200K_SPLIT.source).toBe(O200K_TOKEN_SPLIT_REGEX.source);
    expect(O200K_SPLIT.flags).toBe(O200K_TOKEN_SPLIT_REGEX.flags);
    expect(O200K_SPECIAL_TOKENS).toEqual([...createO200KSpecialTokenMap().keys()]);
    expect(() => encode('a <|endoftext|> b')).toThrow('Disallowed special token found: <|endoftext|>');
    expect(() => encoder.encode('a <|endoftext|> b')).toThrow(
      'Disallowed special token found: <|endoftext|>',
    );
  });

  it('encode every token of the vocabulary, alone and after a space, as gpt-tokenizer does', () => {
    const tokens: string[] = [];
    for (let rank = 0; rank < (bpeRanks as unknown[]).length; rank++) tokens.push(decode([rank]));
    expect(tokens.length).toBe(199_998);
    expect(mismatches(tokens)).toEqual([]);
    expect(mismatches(tokens.map((token) => ` ${token}`))).toEqual([]);
  }, 600_000);

  it('encode generated words and phrases in many scripts, digits, punctuation and mixes', () => {
    const words = [
      'homocysteine',
      ' protein',
      '住宿',
      '出差住宿标准',
      '1998年',
      "don't",
      'HTTPServer2',
      'naïve café',
      '\uD800lone',
      'a\uDC00b',
      '   ',
      '',
      '12345678901',
      'x'.repeat(300),
      // The pre-split fast path (ONE_PIECE): Latin words, capitals, CJK ideographs, with and without a space.
      'Protein',
      ' ABC',
      'ABc',
      ' zzzqqq',
      '\u4e00\u9fff',
      ' 一丁七万丈三上下',
      '〇々',
      '差'.repeat(200),
    ];
    expect(mismatches(words)).toEqual([]);
    // ONE_PIECE takes U+4E00-U+9FFF as letters O200K_SPLIT keeps together: all \p{Lo} in this runtime.
    const ideographs = Array.from({ length: 0x9fff - 0x4e00 + 1 }, (_, i) => String.fromCharCode(0x4e00 + i));
    expect(ideographs.filter((char) => !/^\p{Lo}$/u.test(char))).toEqual([]);
    expect(mismatches(generated(20_000))).toEqual([]);
  }, 600_000);

  it('is read from a file, and gpt-tokenizer answers when the file is missing or from another version', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-ranks-'));
    try {
      const file = join(dir, 'o200k_base.ranks');
      await writeFile(file, tableBytes);
      const fromTable = loadO200kEncode(file);
      expect(fromTable.source).toBe('table');
      expect(fromTable(' homocysteine')).toEqual(encode(' homocysteine'));
      expect(loadO200kEncode(join(dir, 'missing.ranks')).source).toBe('gpt-tokenizer');
      const otherVersion = tableBytes.slice();
      otherVersion[28] = otherVersion[28] === 0x39 ? 0x38 : 0x39; // the version's first digit
      await writeFile(file, otherVersion);
      expect(loadO200kEncode(file).source).toBe('gpt-tokenizer');
      await writeFile(file, 'not a table');
      const fallback = loadO200kEncode(file);
      expect(fallback.source).toBe('gpt-tokenizer');
      expect(fallback('住宿')).toEqual(encode('住宿'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
