import { describe, expect, it } from 'vitest';
import { MAX_HEADING_TITLE, scanMarkdownBlocks } from './markdown-blocks';

function describeBlocks(source: string) {
  return scanMarkdownBlocks(source).map((block) => ({
    kind: block.kind,
    text: source.slice(block.start, block.end),
    ...(block.kind === 'heading' ? { level: block.headingLevel, title: block.headingTitle } : {}),
  }));
}

describe('scanMarkdownBlocks', () => {
  it('finds front matter, ATX and setext headings, fences, tables, list items and paragraphs', () => {
    const source = [
      '---',
      'title: Notes',
      '---',
      '',
      '# Guide #',
      'Para line one',
      'line two',
      '',
      'Setext One',
      '==========',
      '',
      'Setext Two',
      '---',
      '',
      '```md',
      '# not a heading',
      '',
      '| not | a table |',
      '```',
      '',
      '| a | b |',
      '|---|:-:|',
      '| 1 | 2 |',
      '',
      '- item one',
      '  continued',
      '- item two',
      '',
      '#hashtag is text',
      '####### seven hashes is text',
      '',
      '---',
      '###### Six ## not closing',
      '~~~',
      '# unclosed fence runs to the end',
    ].join('\n');

    expect(describeBlocks(source)).toEqual([
      { kind: 'front-matter', text: '---\ntitle: Notes\n---' },
      { kind: 'heading', text: '# Guide #', level: 1, title: 'Guide' },
      { kind: 'paragraph', text: 'Para line one\nline two' },
      { kind: 'heading', text: 'Setext One\n==========', level: 1, title: 'Setext One' },
      { kind: 'heading', text: 'Setext Two\n---', level: 2, title: 'Setext Two' },
      { kind: 'code', text: '```md\n# not a heading\n\n| not | a table |\n```' },
      { kind: 'table', text: '| a | b |\n|---|:-:|\n| 1 | 2 |' },
      { kind: 'list-item', text: '- item one\n  continued' },
      { kind: 'list-item', text: '- item two' },
      { kind: 'paragraph', text: '#hashtag is text\n####### seven hashes is text' },
      { kind: 'paragraph', text: '---' },
      { kind: 'heading', text: '###### Six ## not closing', level: 6, title: 'Six ## not closing' },
      { kind: 'code', text: '~~~\n# unclosed fence runs to the end' },
    ]);
  });

  it('closes a fence only with the same character at least as long, and keeps HTML in titles verbatim', () => {
    const source = '````\n```\n~~~~\n# inside\n````\n# <script>alert(1)</script> & <b>T</b>\n';
    expect(describeBlocks(source)).toEqual([
      { kind: 'code', text: '````\n```\n~~~~\n# inside\n````' },
      {
        kind: 'heading',
        text: '# <script>alert(1)</script> & <b>T</b>',
        level: 1,
        title: '<script>alert(1)</script> & <b>T</b>',
      },
    ]);
  });

  it('handles CRLF line ends, empty headings and "C#" titles', () => {
    expect(describeBlocks('# C#\r\n\r\n#\r\nbody\r\n')).toEqual([
      { kind: 'heading', text: '# C#', level: 1, title: 'C#' },
      { kind: 'heading', text: '#', level: 1, title: '' },
      { kind: 'paragraph', text: 'body' },
    ]);
  });

  it('shortens a huge heading title for the heading path, without splitting an emoji', () => {
    const [block] = scanMarkdownBlocks(`# ${'a'.repeat(MAX_HEADING_TITLE - 2)}😀${'b'.repeat(200_000)}`);
    expect(block!.headingTitle).toBe(`${'a'.repeat(MAX_HEADING_TITLE - 2)}…`);
    expect(block!.end).toBe(2 + MAX_HEADING_TITLE + 200_000);
  });

  it('returns no blocks for empty or blank input', () => {
    expect(scanMarkdownBlocks('')).toEqual([]);
    expect(scanMarkdownBlocks(' \n\t\n  ')).toEqual([]);
  });

  it('does not take an unclosed "---" at the top for front matter', () => {
    expect(describeBlocks('---\nnot front matter\n')).toEqual([
      { kind: 'paragraph', text: '---' },
      { kind: 'paragraph', text: 'not front matter' },
    ]);
  });
});
