import { describe, expect, it } from 'vitest';
import {
  HEADING_BONUS,
  phraseAdjuster,
  phraseAdjustment,
  phraseShare,
  rerankByPhrase,
} from './phrase-rerank';
import { ALL_RULES } from './ranking-rules';
import { queryTerms } from '../text/query-terms';

const chunk = (content: string, heading_path = '') => ({ content, heading_path });
const phrasesOf = (query: string) => queryTerms(query).phrases;

describe('phraseShare', () => {
  it('is 1 for the whole query and a join of its runs, a fraction for one run of several', () => {
    expect(phraseShare('tikv channel full', phrasesOf('TiKV channel full 是什么原因'))).toBe(1);
    const placement = phrasesOf('Placement Rules in SQL');
    expect(phraseShare('placement rules in sql', placement)).toBe(1);
    expect(phraseShare('sql', placement)).toBeCloseTo(3 / 17);
    const claim = phrasesOf('A deficiency of vitamin B12 increases blood levels of homocysteine');
    expect(phraseShare('homocysteine', claim)).toBeLessThan(0.3);
  });
});

describe('phraseAdjustment', () => {
  it('gives a heading that names the whole query the bonus, and one naming a word of a long claim nothing', () => {
    const faq = chunk('### TiKV channel full 是什么原因？\n\n- Raftstore 线程太忙。', '集群管理 FAQ');
    expect(phraseAdjustment(faq, phrasesOf('TiKV channel full 是什么原因'))).toBe(HEADING_BONUS);
    expect(phraseAdjustment(chunk('Error Number: 8027', '错误码 > 8027'), phrasesOf('8027'))).toBe(
      HEADING_BONUS,
    );
    const claim = phrasesOf('A deficiency of vitamin B12 increases blood levels of homocysteine');
    const titled = chunk('# Homocysteine\n\nPlasma homocysteine was measured in 200 adults.', 'Homocysteine');
    expect(phraseAdjustment(titled, claim)).toBe(0);
  });

  it('gives nothing to the phrase in the body only, to a scattered match, or to a navigation file', () => {
    const phrases = phrasesOf('TiKV channel full 是什么原因');
    expect(
      phraseAdjustment(chunk('When the TiKV channel full error shows, Raftstore is busy.'), phrases),
    ).toBe(0);
    expect(phraseAdjustment(chunk('## TiKV channel\n\nA disk may be full.'), phrases)).toBe(0);
    expect(phraseAdjustment(chunk('- [a](a.md)', 'TOC'), phrasesOf('unrelated'))).toBe(0);
  });
});

describe('rerankByPhrase', () => {
  it('lifts the section headed by the query over near neighbours, not over distant ones', () => {
    const phrases = phrasesOf('TiKV channel full 是什么原因');
    const chunks = new Map([
      ['body', chunk('When the TiKV channel full error shows, Raftstore is busy.')],
      ['faq', chunk('### TiKV channel full 是什么原因？\n\n- Raftstore 线程太忙。', '集群管理 FAQ')],
    ]);
    const rrf = (rank: number) => 1 / (60 + rank);
    const near = [
      { key: 'body', score: rrf(1) },
      { key: 'faq', score: rrf(2) },
    ];
    expect(rerankByPhrase(near, (key) => chunks.get(key), phrases).map((c) => c.key)).toEqual([
      'faq',
      'body',
    ]);
    // Without the rule the fused order stands (the rule ablation's switch).
    const off = phraseAdjuster(phrases, { ...ALL_RULES, headingBonus: false });
    expect(off(chunks.get('faq')!)).toBe(0);
    const far = [
      { key: 'body', score: rrf(1) },
      { key: 'faq', score: rrf(40) },
    ];
    expect(rerankByPhrase(far, (key) => chunks.get(key), phrases).map((c) => c.key)).toEqual(['body', 'faq']);
  });
});
