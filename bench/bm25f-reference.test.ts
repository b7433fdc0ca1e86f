import { describe, expect, it } from 'vitest';
import { BM25F, Bm25fReference, referenceTitle, referenceWords, STOP_WORDS } from './bm25f-reference';

describe('referenceWords', () => {
  it('segments Chinese in search mode: a word and the words inside it', () => {
    const words = referenceWords('分区表');
    expect(words).toContain('分区表');
    expect(words).toContain('分区');
  });

  it('drops stop words only as whole words, never the characters inside a word', () => {
    expect(referenceWords('的')).toEqual([]);
    expect(referenceWords('是什么')).toEqual([]);
    // 目的 and 是否 share 的 and 是 with the stop list: 目的 is a word of its own and stays.
    expect(referenceWords('目的')).toEqual(['目的']);
    expect(referenceWords('是否的目的')).toEqual(['目的']);
    expect(referenceWords('what is the')).toEqual([]);
  });

  it('keeps identifiers whole and in (stemmed) parts', () => {
    expect(referenceWords('tidb_mem_quota_query')).toEqual([
      'tidb_mem_quota_query',
      'tidb',
      'mem',
      'quota',
      'queri',
    ]);
    expect(referenceWords('v7.4.0')).toEqual(['v7.4.0', 'v7', '4', '0']);
    expect(referenceWords('max-index-length')).toEqual(['max-index-length', 'max', 'index', 'length']);
    expect(referenceWords('maxIndexLength')).toEqual(['maxindexlength', 'max', 'index', 'length']);
  });

  it('Porter-stems plain English words and lowercases them', () => {
    expect(referenceWords('Running configurations')).toEqual(['run', 'configur']);
  });

  it('reads mixed Chinese and English text', () => {
    const words = referenceWords('把 MySQL 的数据迁移到 TiDB');
    expect(words).toEqual(expect.arrayContaining(['数据', '迁移', 'mysql', 'tidb']));
    expect(words).not.toContain('的');
  });

  it('has a small stop list (about 60 words)', () => {
    expect(STOP_WORDS.size).toBeGreaterThanOrEqual(50);
    expect(STOP_WORDS.size).toBeLessThanOrEqual(70);
  });
});

describe('referenceTitle', () => {
  it("takes the record's title, else the front matter's, else the first heading", () => {
    expect(referenceTitle({ title: 'Given', text: '# Heading' })).toBe('Given');
    expect(referenceTitle({ title: '', text: '---\ntitle: "分区表"\nsummary: x\n---\n\n# Other' })).toBe(
      '分区表',
    );
    expect(referenceTitle({ title: '', text: 'intro\n\n## 时区 ##\n\nbody' })).toBe('时区');
    expect(referenceTitle({ title: '', text: 'no heading' })).toBe('');
  });
});

describe('Bm25fReference', () => {
  it('scores by the BM25F formula (title weight 3, k1 1.2, b 0.75)', () => {
    const records = [
      { id: 'a', title: 'alpha', text: 'alpha beta' },
      { id: 'b', title: 'gamma', text: 'beta gamma delta epsilon' },
    ];
    const [a, b] = new Bm25fReference(records).scored('alpha beta');
    // Average lengths: title 1, text 3. "alpha" is in one document, "beta" in both.
    const idf = (df: number) => Math.log(1 + (2 - df + 0.5) / (df + 0.5));
    const saturate = (tf: number) => tf / (BM25F.k1 + tf);
    const textNorm = (len: number) => 1 - BM25F.b + (BM25F.b * len) / 3;
    const alphaInA = 3 * 1 + 1 / textNorm(2);
    const betaInA = 1 / textNorm(2);
    const betaInB = 1 / textNorm(4);
    expect(a!.id).toBe('a');
    expect(a!.score).toBeCloseTo(idf(1) * saturate(alphaInA) + idf(2) * saturate(betaInA), 10);
    expect(b!.id).toBe('b');
    expect(b!.score).toBeCloseTo(idf(2) * saturate(betaInB), 10);
  });

  it('ranks a title match above the same word in a body, and leaves out non-matching documents', () => {
    const reference = new Bm25fReference([
      { id: 'mentions', title: '临时表', text: '临时表 可以 与 分区表 一起 使用 吗 不行' },
      { id: 'about', title: '分区表', text: '按 范围 切分 数据 的 表' },
      { id: 'other', title: '调度', text: '调度 器 的 工作 方式' },
    ]);
    expect(reference.search('分区表')).toEqual(['about', 'mentions']);
    expect(reference.search('分区')).toEqual(['about', 'mentions']);
    expect(reference.search('怎么 的')).toEqual([]);
  });

  it('finds a configuration key by its whole name and by its parts', () => {
    const reference = new Bm25fReference([
      {
        id: 'config',
        title: 'Configuration',
        text: '### raftstore.store-pool-size\n\nThreads that process Raft.',
      },
      { id: 'notes', title: 'Release notes', text: 'The store pool got faster.' },
    ]);
    expect(reference.search('raftstore.store-pool-size')[0]).toBe('config');
    expect(reference.search('store pool size')[0]).toBe('config');
  });

  it('prefers a rare word over a common one (idf) and a short field over a long one (b)', () => {
    const filler = Array.from({ length: 40 }, (_, i) => `filler${i}`).join(' ');
    const reference = new Bm25fReference([
      { id: 'long', title: '', text: `common rare ${filler}` },
      { id: 'short', title: '', text: 'common rare' },
      { id: 'common-only', title: '', text: 'common common' },
    ]);
    expect(reference.search('rare')).toEqual(['short', 'long']);
    expect(reference.search('rare common')[2]).toBe('common-only');
  });
});
