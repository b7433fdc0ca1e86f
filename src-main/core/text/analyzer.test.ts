import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, analyzeText, toSearchText } from './analyzer';

describe('analyze: identifiers', () => {
  it('indexes an identifier whole as well as in its parts', () => {
    expect(analyze('tidb_mem_quota_query')).toEqual(['tidb', 'mem', 'quota', 'queri', 'tidbmemquotaquery']);
    expect(analyze('raftstore.store-pool-size')).toEqual([
      'raftstor',
      'store',
      'pool',
      'size',
      'raftstorestorepoolsize',
    ]);
    expect(analyze('HTTP_PROXY')).toContain('httpproxy');
    expect(analyze('max-connections')).toContain('maxconnections');
  });

  it('matches a version with and without "v", but leaves decimals and CJK alone', () => {
    expect(analyze('v7.4.0')).toEqual(expect.arrayContaining(['v740', '740']));
    expect(analyze('TiDB 7.4.0')).toContain('740');
    expect(analyze('3.14')).toEqual(['3', '14']);
    expect(analyze('从v7.4.0版本开始')).toEqual(expect.arrayContaining(['v740', '740']));
  });
});

describe('analyze', () => {
  it('segments, normalises, stems and drops stop words as documented', () => {
    const cases: Record<string, string[]> = {
      差旅报销单怎么填写: [
        '差旅',
        '报销',
        '单',
        '怎么',
        '填写',
        '差旅',
        '旅报',
        '报销',
        '销单',
        '单怎',
        '怎么',
        '么填',
        '填写',
      ],
      // A 2-character word is also its own bigram: counted twice, on both sides alike.
      报销: ['报销', '报销'],
      "The cell’s proteins don't ACTIVATE running cafés": ['cell', 'protein', 'dont', 'activ', 'run', 'cafe'],
      // Identifiers also whole (covid19, v12); 3.14 is a number, not an identifier.
      'COVID-19 patients, 3.14 and v1.2': ['covid', '19', 'patient', '3', '14', 'v1', '2', 'covid19', 'v12'],
      '1998年出版': ['1998', '年', '出版', '1998年', '年出', '出版'],
      iPhone15价格: ['iphone15', '价格', 'iphone15价', '价格'],
      '한국어를 공부': ['한국어를', '공부', '한국', '국어', '어를', '공부'],
      'Ｆｕｌｌｗｉｄｔｈ ＡＢＣ１２３': ['fullwidth', 'abc123'],
      ภาษาไทย: ['ภาษา', 'ไทย'],
      '👍🎉!!… ——': [],
      '': [],
    };
    const actual = Object.fromEntries(Object.keys(cases).map((text) => [text, analyze(text)]));
    expect(actual).toEqual(cases);
  });

  it('finds a 2-character word inside a longer compound', () => {
    // ICU keeps 报销单 whole in some contexts; the bigrams still carry 报销.
    const documentTokens = new Set(analyze('请把本月的差旅报销单和发票一起交给财务。'));
    expect(analyze('报销').every((token) => documentTokens.has(token))).toBe(true);
    expect(analyze('发票').every((token) => documentTokens.has(token))).toBe(true);
  });

  it('is the same at index and query time and copes with hostile input', () => {
    const huge = 'x'.repeat(200_000);
    expect(analyze(huge)).toEqual([]); // one 200k-letter "word" is not a token
    expect(analyze('a'.repeat(10_000) + ' real words')).toEqual(['real', 'word']);
    expect(toSearchText('Search QUERIES')).toBe(analyze('search queries').join(' '));
    expect(analyze('<script>alert("x")</script>')).toEqual(['script', 'alert', 'x', 'script']);
  });

  it('gives a repeated word the same analysis, which no caller can change for the next text', () => {
    const first = analyzeText('Running proteins');
    expect(() => first.words[0]!.tokens.push('injected')).toThrow(TypeError);
    expect(analyzeText('running PROTEINS').words).toEqual(first.words);
    expect(analyze('running')).toEqual(['run']);
    // Text that needs NFKC is still normalised when the same word was seen in plain ASCII first.
    expect(analyze('abc123 ＡＢＣ１２３')).toEqual(['abc123', 'abc123']);
  });
});

describe("tokens survive Postgres' 'simple' text search config unchanged", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(() => db.close());

  it('to_tsvector keeps every token whole, across scripts and awkward shapes', async () => {
    const sample = [
      'Hello, world! E-mail me at jane.doe@example.com or see https://example.org/a/b?c=1 and /usr/local/bin.',
      "Version v1.2.3, 3.14e-5, 1e10, 0x1F, x86_64, C++, C#, .NET, node.js, foo_bar, O'Reilly's, naïve façade Ærø.",
      '差旅报销单怎么填写？1998年出版的《战国无双3》由ω-force开发。iPhone15价格',
      '東京都に住んでいます。コンピューターを使う。한국어를 공부합니다. ภาษาไทยง่าย हिन्दी भाषा العربية Русский Ελληνικά',
      '<b>bold</b> &amp; 👍🎉 ① ⅻ ² ½ ﬁ ǅ İstanbul straße ÇA Ⅷ',
    ].join('\n');
    const tokens = analyze(sample);
    expect(tokens.length).toBeGreaterThan(80);
    const { rows } = await db.query<{ lexeme: string }>(
      "SELECT lexeme FROM unnest(to_tsvector('simple', $1))",
      [tokens.join(' ')],
    );
    expect(rows.map((row) => row.lexeme).sort()).toEqual([...new Set(tokens)].sort());
  });

  it('would catch a token the parser splits (control)', async () => {
    const { rows } = await db.query<{ lexeme: string }>(
      "SELECT lexeme FROM unnest(to_tsvector('simple', $1))",
      ['e-mail'],
    );
    expect(rows.map((row) => row.lexeme).sort()).toEqual(['e', 'e-mail', 'mail']);
  });
});
