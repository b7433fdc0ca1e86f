import { describe, expect, it } from 'vitest';
import {
  HEADING_BONUS,
  NAVIGATION_PENALTY,
  PHRASE_BONUS,
  phraseAdjuster,
  phraseAdjustment,
  phraseShare,
} from './phrase-rerank';
import { queryTerms } from '../text/query-terms';

const chunk = (content: string, heading_path = '', external_id = 'page.md') => ({
  content,
  heading_path,
  external_id,
  url: null,
});
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
  it('gives a heading that names the whole query the full bonus, and one naming a word of a long claim nothing', () => {
    const faq = chunk('### TiKV channel full 是什么原因？\n\n- Raftstore 线程太忙。', '集群管理 FAQ');
    expect(phraseAdjustment(faq, phrasesOf('TiKV channel full 是什么原因'))).toBeCloseTo(
      PHRASE_BONUS + HEADING_BONUS,
    );
    const claim = phrasesOf('A deficiency of vitamin B12 increases blood levels of homocysteine');
    const titled = chunk('# Homocysteine\n\nPlasma homocysteine was measured in 200 adults.', 'Homocysteine');
    expect(phraseAdjustment(titled, claim)).toBe(0);
  });

  it('rewards every named code present, and a verbatim identifier, when they are the whole query', () => {
    const codes = chunk('## 8027\n\nError Number: 8027, the schema version is outdated.');
    expect(phraseAdjustment(codes, phrasesOf('8027'))).toBeCloseTo(PHRASE_BONUS + HEADING_BONUS);
    const scattered = chunk('tidb mem quota query are words, not the variable.');
    expect(phraseAdjustment(scattered, phrasesOf('tidb_mem_quota_query'))).toBe(0);
    const defined = chunk('- `tidb_mem_quota_query`: the memory quota of one query.');
    expect(phraseAdjustment(defined, phrasesOf('tidb_mem_quota_query'))).toBeCloseTo(PHRASE_BONUS);
    const mixed = chunk('Error Number: 8027 and more words about schema versions.');
    expect(phraseAdjustment(mixed, phrasesOf('8027 schema lease'))).toBe(0);
  });

  it('puts navigation files and link lists below content, whatever the query', () => {
    expect(phraseAdjustment(chunk('- [a](a.md)', '', 'TOC.md'), [])).toBe(-NAVIGATION_PENALTY);
    const links = chunk(['x', 'y', 'z', 'v', 'w'].map((t) => `- [${t}](${t}.md)`).join('\n'));
    expect(phraseAdjustment(links, phrasesOf('unrelated'))).toBe(-NAVIGATION_PENALTY);
  });
});

describe('phraseAdjuster', () => {
  it('adjusts each of many chunks of one query on its own merits', () => {
    const adjust = phraseAdjuster(phrasesOf('TiKV channel full 是什么原因'));
    const faq = chunk('### TiKV channel full 是什么原因？\n\n- Raftstore 线程太忙。', '集群管理 FAQ');
    const body = chunk('When the TiKV channel full error shows, Raftstore is busy.');
    const scattered = chunk('TiKV has a channel; a disk may be full.');
    const links = chunk(['x', 'y', 'z', 'v', 'w'].map((t) => `- [${t}](${t}.md)`).join('\n'));
    expect([faq, body, scattered, links, faq].map(adjust)).toEqual([
      PHRASE_BONUS + HEADING_BONUS,
      PHRASE_BONUS,
      0,
      -NAVIGATION_PENALTY,
      PHRASE_BONUS + HEADING_BONUS,
    ]);
    const codes = phraseAdjuster(phrasesOf('8027'));
    expect(codes(chunk('Error Number: 8027, the schema version is outdated.'))).toBe(PHRASE_BONUS);
    expect(codes(chunk('Error Number: 8026.'))).toBe(0);
  });
});
