import { describe, expect, it } from 'vitest';
import { highlightTerms, splitByTerms } from './highlight';
import { linkCitations } from '../chat/citations';

describe('highlightTerms', () => {
  it('segments Chinese into words and keeps Latin words, longest first', () => {
    expect(highlightTerms('报销流程 VPN, a')).toEqual(['VPN', '报销', '流程']);
    expect(splitByTerms('差旅报销 vpn 指南', ['报销', 'VPN'])).toEqual([
      { text: '差旅', match: false },
      { text: '报销', match: true },
      { text: ' ', match: false },
      { text: 'vpn', match: true },
      { text: ' 指南', match: false },
    ]);
  });

  it('keeps a name the segmenter splits into single characters (赵敏), drops question words', () => {
    expect(highlightTerms('赵敏')).toEqual(['赵敏']);
    expect(highlightTerms('赵敏负责什么')).toContain('赵敏');
    expect(highlightTerms('赵敏负责什么')).not.toContain('什么');
    expect(highlightTerms('如何报销')).toEqual(['报销']);
    expect(highlightTerms('报')).toEqual(['报']);
    const pieces = splitByTerms('审批后由赵敏复核。', highlightTerms('赵敏 复核'));
    expect(pieces.filter((piece) => piece.match).map((piece) => piece.text)).toEqual(['赵敏', '复核']);
  });

  it('lights Latin words at word starts: "do" never inside "Document", no English function words', () => {
    const terms = highlightTerms('How do we handle rate limiting?');
    expect(terms).toEqual(['limiting', 'handle', 'rate']);
    const lit = (text: string, t: string[]) =>
      splitByTerms(text, t)
        .filter((piece) => piece.match)
        .map((piece) => piece.text);
    expect(lit('Document 12: undo the do-list; it does', ['do'])).toEqual(['do', 'do']);
    expect(lit('Two APIs and an API; rapid', ['API'])).toEqual(['API', 'API']);
    expect(lit('limits and limiting, unlimited', ['limit'])).toEqual(['limit', 'limit']);
    expect(lit('使用VPN连接，vpn.example', ['VPN'])).toEqual(['VPN', 'vpn']);
  });

  it('lights whole query words: never 的 or another particle, never 默认 of 默认值 nor Raft of Raftstore', () => {
    expect(highlightTerms('TiKV 的 默认值')).toEqual(['TiKV', '默认值']);
    expect(highlightTerms('region-split-size 的默认值是多少')).toEqual(['region-split-size', '默认值']);
    expect(highlightTerms('修改默认值')).toEqual(['默认值', '修改']);
    expect(highlightTerms('的')).toEqual([]);
    const lit = (text: string, query: string) =>
      splitByTerms(text, highlightTerms(query))
        .filter((piece) => piece.match)
        .map((piece) => piece.text);
    expect(lit('Raftstore 的默认值是 96MiB，默认配置见 raft 一节', 'Raft 的 默认值')).toEqual([
      '默认值',
      'raft',
    ]);
    expect(lit('RaftStore, raft-store and Raft.', 'Raft')).toEqual(['raft', 'Raft']);
  });

  it('ignores queries of punctuation and emoji only', () => {
    expect(highlightTerms('？！… 🎉')).toEqual([]);
  });
});

describe('linkCitations', () => {
  it('links valid markers outside code only', () => {
    expect(linkCitations('See [1] and [3]; `x[1]`\n```\n[1]\n```', new Set([1]))).toBe(
      'See [\\[1\\]](#cite-1) and [3]; `x[1]`\n```\n[1]\n```',
    );
  });
});
