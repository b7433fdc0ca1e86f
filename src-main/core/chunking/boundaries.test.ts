import { describe, expect, it } from 'vitest';
import { Boundary, BoundaryScorer, splitsCharacter } from './boundaries';
import { scanMarkdownBlocks } from './markdown-blocks';

const NAMES = Object.fromEntries(Object.entries(Boundary).map(([name, level]) => [level, name]));

/** The level at the position just before each marker "|" (markers are removed from the text). */
function levelsAtMarkers(marked: string, protectUpTo = 1000): string[] {
  const positions: number[] = [];
  let source = '';
  for (const char of marked) {
    if (char === '|') positions.push(source.length);
    else source += char;
  }
  const scorer = new BoundaryScorer(source, scanMarkdownBlocks(source), protectUpTo);
  return positions.map((pos) => NAMES[scorer.levelAt(pos)]!);
}

describe('BoundaryScorer', () => {
  it('ranks block, sentence (Latin and CJK), line, clause, word and character edges in prose', () => {
    expect(
      levelsAtMarkers(
        'Intro line.\n\n|Next para. |Then a line\n|more, |and wo|rds 你好。|世界；|再见，|吗|啊',
      ),
    ).toEqual(['block', 'sentence', 'line', 'clause', 'char', 'sentence', 'sentence', 'clause', 'word']);
  });

  it('forbids cuts inside a code block that fits, and allows only line-ish cuts in one that does not', () => {
    const code = 'Text.\n\n```\nlet a = 1. |Done\n|b|\n```';
    expect(levelsAtMarkers(code)).toEqual(['forbidden', 'forbidden', 'forbidden']);
    expect(levelsAtMarkers(code, 5)).toEqual(['word', 'line', 'char']);
  });
});

describe('splitsCharacter', () => {
  it('protects surrogate pairs, combining marks, ZWJ sequences, skin tones and flags', () => {
    const cases: [string, number][] = [
      ['a😀', 2],
      ['e\u0301', 1],
      ['👨‍👩', 2],
      ['👨‍👩', 3],
      ['👍🏽', 2],
      ['🇨🇳', 2],
      ['❤\uFE0F', 1],
      ['ab', 1],
      ['a😀', 1],
      ['汉字', 1],
    ];
    expect(cases.map(([text, pos]) => splitsCharacter(text, pos))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
