import { describe, expect, it } from 'vitest';
import { analyze } from './analyzer';
import { queryTerms } from './query-terms';
import { wordTier } from './stop-words';

describe('queryTerms', () => {
  it('drops Chinese and English question and function words, keeping the content words', () => {
    expect(queryTerms('怎么找出执行很慢的 SQL 语句').content).not.toEqual(
      expect.arrayContaining(['怎么', '的']),
    );
    expect(queryTerms('TiDB 是否支持外键').content).toEqual(['tidb', '支持', '外', '键', '持外', '外键']);
    expect(queryTerms('How does PD decide to merge two regions?').content).toEqual([
      'pd',
      'decid',
      'merg',
      'two',
      'region',
    ]);
    expect(queryTerms('TiDB 7.4.0 是什么时候发布的').content).toEqual(['tidb', '7', '4', '0', '发布', '740']);
    // Without the tier (the rule ablation's switch) they are searched like content...
    expect(queryTerms('怎么找出执行很慢的 SQL 语句', { functionWordTier: false }).content).toEqual(
      expect.arrayContaining(['怎么', '的']),
    );
    // ...but a query of nothing else still has no terms.
    expect(queryTerms('是什么', { functionWordTier: false })).toEqual({
      content: [],
      frame: [],
      phrases: [],
    });
  });

  it('weighs question-frame words instead of deleting them, and makes them content when alone', () => {
    expect(queryTerms('错误码 8027 是什么原因')).toMatchObject({
      content: ['错误', '码', '8027', '误码'],
    });
    expect(queryTerms('错误码 8027 是什么原因').frame).toContain('原因');
    expect(queryTerms('tidb_enable_clustered_index 有什么作用').frame).toContain('作用');
    expect(queryTerms('是什么原因')).toEqual({ content: [], frame: ['原因'], phrases: [] });
    expect(wordTier('原因')).toBe('frame');
    expect(wordTier('什么')).toBe('function');
    expect(wordTier('最大')).toBe('content');
  });

  it('searches function words beside content words in the weak query, never as content', () => {
    const terms = queryTerms('TiKV channel full 是什么原因');
    expect(terms.content).toEqual(['tikv', 'channel', 'full']);
    // 是, 什么 and the bigrams reaching into them (是什, 么原) are weighed by their IDF in the
    // frame query (index-retrieval.ts), where an FAQ titled "… 是什么原因" cannot lead.
    expect(terms.frame).toEqual(expect.arrayContaining(['是', '什么', '原因', '是什', '么原']));
    expect(queryTerms('How does PD decide to merge two regions?').frame).toEqual(['how', 'doe']);
    expect(queryTerms('差旅报销').content).toEqual(expect.arrayContaining(['差旅', '报销', '旅报']));
    // A query of function words only has nothing to search.
    expect(queryTerms('是什么')).toEqual({ content: [], frame: [], phrases: [] });
    expect(queryTerms('what is the')).toEqual({ content: [], frame: [], phrases: [] });
  });

  it('searches a word the segmenter split into listed characters rather than nothing', () => {
    // Intl.Segmenter knows neither 分区 nor 时区 and yields single characters, each on the function
    // word list alone; side by side they are one word, and the index holds its bigram.
    expect(queryTerms('分区').content).toEqual(['分区']);
    expect(queryTerms('时区').content).toEqual(['时区']);
    for (const term of ['分区', '时区']) {
      const indexed = new Set(analyze(term));
      expect(queryTerms(term).content.every((t) => indexed.has(t))).toBe(true);
    }
    // Only when nothing else is left: beside other words such a pair is as often two words.
    expect(queryTerms('广茂铁路由哪家公司管理运营').content).not.toContain('由哪');
    // A particle (的, 是) is never part of one: a query of them still has no term.
    expect(queryTerms('把被').content).toEqual([]);
  });

  it('searches the pairs of a run the segmenter split entirely into single characters as content', () => {
    // 分区表 is 分|区|表 to Intl.Segmenter, 分 and 区 listed alone: without the pairs 表 is its only
    // content word, and any page with more 表 (临时表) outranks the one about 分区表.
    const terms = queryTerms('分区表');
    expect(terms.content).toEqual(['表', '分区', '区表']);
    expect(terms.phrases).toEqual(['分区表']);
    expect(queryTerms('TiDB 分区表').content).toEqual(['tidb', '表', '分区', '区表']);
    // Off (the rule ablation's switch), the pairs are as weak as 分 and 区.
    const without = queryTerms('分区表', { loneCharacterPairs: false });
    expect(without.content).toEqual(['表']);
    expect(without.frame).toEqual(expect.arrayContaining(['分区', '区表']));
    // A particle is never half of a pair; punctuation ends a run.
    expect(queryTerms('分区的表').content).toEqual(['表', '分区']);
    expect(queryTerms('分区，表').content).toEqual(['表', '分区']);
    // A run holding a word the segmenter knew (哪|家|公司) keeps its lone pairs weak: there they are
    // as often two words (由哪) as one.
    expect(queryTerms('由哪家公司').content).not.toContain('由哪');
    expect(queryTerms('分区表怎么用').content).toEqual(['表']);
    for (const query of ['分区表', 'TiDB 分区表', '分区的表']) {
      const indexed = new Set(analyze(query));
      expect(queryTerms(query).content.filter((t) => !indexed.has(t))).toEqual([]);
    }
  });

  it('yields nothing for a query of function words only', () => {
    for (const query of ['的', '是什么', '怎么 如何', 'what is the', 'how does it'])
      expect({ query, terms: queryTerms(query) }).toEqual({
        query,
        terms: { content: [], frame: [], phrases: [] },
      });
  });

  it('keeps runs of content words as phrases', () => {
    expect(queryTerms('TiKV channel full 是什么原因').phrases).toEqual(['tikv channel full']);
    expect(queryTerms('Placement Rules in SQL').phrases).toEqual([
      'placement rules',
      'sql',
      'placement rules in sql',
    ]);
    expect(queryTerms('raftstore.store-pool-size').phrases).toEqual(['raftstore.store-pool-size']);
  });

  it('only yields tokens the analyzer also yields for the same text, so they can match the index', () => {
    for (const query of [
      '错误码 8027 是什么原因',
      'v7.4.0 发版日期',
      'What is the default value of store-pool-size?',
    ]) {
      const all = new Set(analyze(query));
      const terms = queryTerms(query);
      expect([...terms.content, ...terms.frame].filter((t) => !all.has(t))).toEqual([]);
    }
  });
});
