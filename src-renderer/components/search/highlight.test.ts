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
