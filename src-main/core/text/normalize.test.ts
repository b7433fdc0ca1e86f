import { describe, expect, it } from 'vitest';
import { randomMarkdown, seededRandom } from '../../testing/markdown-fixtures';
import { BINARY_SNIFF_BYTES, contentHash, decodeUtf8, looksBinary, normalizeText } from './normalize';

describe('normalizeText', () => {
  it('canonicalises BOM, line ends, controls, composition, lone surrogates and the trailing end', () => {
    const cases: [string, string][] = [
      ['\uFEFFhello', 'hello'],
      ['a\uFEFFb', 'a\uFEFFb'],
      ['a\r\nb\rc\nd', 'a\nb\nc\nd'],
      ['e\u0301 cafe\u0301', 'é café'],
      ['a\u0000b\u0007c\td\ne\u001Bf\u000Bg\u000Ch', 'abc\td\nefgh'],
      ['e\u0000\u0301', 'é'],
      ['text  \n\n \t\r\n', 'text'],
      ['  leading kept\n\n  indented', '  leading kept\n\n  indented'],
      ['中文\u3000内容。\r\n\u3000', '中文\u3000内容。'],
      ['😀\uD800x\uDC00', '😀\uFFFDx\uFFFD'],
      ['<script>alert(1)</script>', '<script>alert(1)</script>'],
      ['', ''],
      ['\uFEFF \r\n', ''],
    ];
    expect(cases.map(([raw]) => normalizeText(raw))).toEqual(cases.map(([, expected]) => expected));
  });

  it('is idempotent on generated Markdown with CJK, emoji and control characters', () => {
    const notIdempotent: number[] = [];
    for (let seed = 1; seed <= 100; seed++) {
      const once = normalizeText(randomMarkdown(seededRandom(seed)));
      if (normalizeText(once) !== once || /[\r\u0000]/.test(once)) notIdempotent.push(seed);
    }
    expect(notIdempotent).toEqual([]);
  });
});

describe('contentHash', () => {
  it('is the SHA-256 hex of the UTF-8 bytes', () => {
    expect([contentHash(''), contentHash('abc'), contentHash('中文')]).toEqual([
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      '72726d8818f693066ceb69afa364218b692e62ea92b385782363780f47529c21',
    ]);
  });

  it('does not change when only line ends, BOM or composition change', () => {
    const variants = ['\uFEFF# Café\r\n\r\nBody\r\n', '# Cafe\u0301\n\nBody', '# Café\n\nBody\n\n\n'];
    expect(new Set(variants.map((raw) => contentHash(normalizeText(raw)))).size).toBe(1);
    expect(contentHash(normalizeText('# Café\n\nBody!'))).not.toBe(contentHash(normalizeText(variants[0]!)));
  });
});

describe('looksBinary', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);

  it('flags NUL bytes and control-heavy bytes, not text in any script', () => {
    const png = Uint8Array.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    ]);
    const controlHeavy = Uint8Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 0x01 : 0x41));
    const ansiLog = utf8('\u001b[32mok\u001b[0m build passed\n'.repeat(50));
    const samples = {
      png: png,
      controlHeavy,
      utf16le: Uint8Array.from([0xff, 0xfe, 0x61, 0x00, 0x62, 0x00]),
      empty: new Uint8Array(0),
      chinese: utf8('# 报销流程\n\n员工提交报销单。\r\n'),
      emoji: utf8('😀👨‍👩‍👧 notes\tand tabs\f'),
      ansiLog,
      invalidUtf8: Uint8Array.from([0x61, 0xff, 0xfe, 0x62]),
    };
    expect(
      Object.fromEntries(Object.entries(samples).map(([name, bytes]) => [name, looksBinary(bytes)])),
    ).toEqual({
      png: true,
      controlHeavy: true,
      utf16le: true,
      empty: false,
      chinese: false,
      emoji: false,
      ansiLog: false,
      invalidUtf8: false,
    });
  });

  it('only looks at the first 8 KB', () => {
    const bytes = new Uint8Array(BINARY_SNIFF_BYTES + 10).fill(0x61);
    bytes[BINARY_SNIFF_BYTES + 5] = 0;
    expect(looksBinary(bytes)).toBe(false);
    bytes[BINARY_SNIFF_BYTES - 1] = 0;
    expect(looksBinary(bytes)).toBe(true);
  });
});

describe('decodeUtf8', () => {
  it('decodes valid UTF-8 and reports invalid sequences it replaced', () => {
    const inputs = {
      chinese: new TextEncoder().encode('中文 😀'),
      withBom: Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]),
      invalidByte: Uint8Array.from([0x61, 0xff, 0x62]),
      truncated: Uint8Array.from([0x61, 0xe4, 0xb8]),
      overlong: Uint8Array.from([0xc0, 0xaf]),
      empty: new Uint8Array(0),
    };
    expect(
      Object.fromEntries(Object.entries(inputs).map(([name, bytes]) => [name, decodeUtf8(bytes)])),
    ).toEqual({
      chinese: { text: '中文 😀', invalid: false },
      withBom: { text: 'a', invalid: false },
      invalidByte: { text: 'a\uFFFDb', invalid: true },
      truncated: { text: 'a\uFFFD', invalid: true },
      overlong: { text: '\uFFFD\uFFFD', invalid: true },
      empty: { text: '', invalid: false },
    });
  });
});
