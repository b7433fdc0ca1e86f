import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { chunkCeiling, chunkMarkdown, type Chunk } from './chunker';
import { hanSentence, latinSentence, seededRandom } from '../../testing/markdown-fixtures';

function paths(chunks: Chunk[]) {
  return chunks.map((chunk) => ({ headingPath: chunk.headingPath, text: chunk.text }));
}

function sentences(
  make: (random: () => number) => string,
  seed: number,
  minLength: number,
  separator: string,
): string {
  const random = seededRandom(seed);
  let text = '';
  while (text.length < minLength) text += (text ? separator : '') + make(random);
  return text;
}

/** Characters shared by each chunk and the one before it (0 when they do not touch). */
function overlaps(chunks: Chunk[]): number[] {
  return chunks.slice(1).map((chunk, index) => Math.max(0, chunks[index]!.charEnd - chunk.charStart));
}

describe('chunkMarkdown: headings', () => {
  it('carries the heading path of nested ATX and setext headings, outermost first', () => {
    const sections = [
      'Preamble line before any heading, in the document.',
      '# Guide\n\nGuide intro paragraph, long enough.',
      '## Install\n\n### Linux\n\nInstall with apt on Debian and Ubuntu.',
      '### macOS\n\nInstall with Homebrew on a Mac laptop.',
      '#### Apple Silicon\n\nUse the arm64 build on M1 and later.',
      '## Usage\n\nRun the command with a folder path.',
      'Setext Title\n============\n\nUnder a setext heading, level one.',
      'Second Level\n------------\n\nUnder a setext heading, level two.',
    ];
    const chunks = chunkMarkdown(sections.join('\n\n'), { chunkSize: 80 });
    expect(paths(chunks)).toEqual([
      { headingPath: '', text: sections[0] },
      { headingPath: 'Guide', text: sections[1] },
      // "## Install" has no body of its own, so it travels with "### Linux".
      { headingPath: 'Guide > Install > Linux', text: sections[2] },
      { headingPath: 'Guide > Install > macOS', text: sections[3] },
      { headingPath: 'Guide > Install > macOS > Apple Silicon', text: sections[4] },
      { headingPath: 'Guide > Usage', text: sections[5] },
      { headingPath: 'Setext Title', text: sections[6] },
      { headingPath: 'Setext Title > Second Level', text: sections[7] },
    ]);
    expect(chunks.map((chunk) => chunk.ord)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('merges small neighbouring sections under the heading path they all share', () => {
    const install = '# Guide\n\n## Install\n\n### Linux\n\napt.\n\n### macOS\n\nbrew.';
    const withUsage = `${install}\n\n## Usage\n\nrun.`;
    const twoTopLevel = '# A\n\na.\n\n# B\n\nb.';
    expect([install, withUsage, twoTopLevel].map((source) => paths(chunkMarkdown(source)))).toEqual([
      [{ headingPath: 'Guide > Install', text: install }],
      [{ headingPath: 'Guide', text: withUsage }],
      [{ headingPath: '', text: twoTopLevel }],
    ]);
  });

  it('merges only while the merged chunk fits', () => {
    const sections = [
      '## One\n\nfirst body',
      '## Two\n\nsecond body',
      '## Three\n\nthird body',
      '## Four\n\nfourth body',
    ];
    const source = sections.join('\n\n');
    expect(paths(chunkMarkdown(source, { chunkSize: 45 }))).toEqual([
      { headingPath: '', text: `${sections[0]}\n\n${sections[1]}` },
      { headingPath: '', text: `${sections[2]}\n\n${sections[3]}` },
    ]);
  });

  it('ignores headings inside code fences and front matter, and keeps HTML in titles as text', () => {
    const fenced = '# Real\n\n```\n# fake\n```\n\ntext';
    const note = '---\ntitle: x\n---\n\n# Note\n\nBody.';
    const html = '# <script>alert("x")</script> & <b>Title</b>\n\n<img src=x onerror=alert(1)> body';
    expect([fenced, note, html].map((source) => paths(chunkMarkdown(source)))).toEqual([
      [{ headingPath: 'Real', text: fenced }],
      [{ headingPath: 'Note', text: note }],
      [{ headingPath: '<script>alert("x")</script> & <b>Title</b>', text: html }],
    ]);
  });
});

describe('chunkMarkdown: long sections', () => {
  it('cuts English prose after sentences, with ~100 characters of overlap starting on a word', () => {
    const body = sentences(latinSentence, 7, 6000, ' ');
    const source = `# Long\n\n${body}`;
    const chunks = chunkMarkdown(source);
    const problems = chunks.flatMap((chunk, index) => {
      const found: string[] = [];
      if (chunk.text.length > 1500 || chunk.text.length < 600)
        found.push(`${index}: length ${chunk.text.length}`);
      if (!/[.!?]$/.test(chunk.text)) found.push(`${index}: ends mid-sentence`);
      if (index > 0 && source[chunk.charStart - 1] !== ' ') found.push(`${index}: overlap starts mid-word`);
      return found;
    });
    expect(problems).toEqual([]);
    expect(new Set(chunks.map((chunk) => chunk.headingPath))).toEqual(new Set(['Long']));
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    expect(overlaps(chunks).filter((overlap) => overlap < 75 || overlap > 125)).toEqual([]);
  });

  it('cuts Chinese text with no spaces or newlines at 。！？； and starts each overlap on a sentence', () => {
    const source = sentences(hanSentence, 11, 6000, '');
    const chunks = chunkMarkdown(source);
    const enders = new Set(['。', '！', '？', '；']);
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    expect(chunks.filter((chunk) => !enders.has(chunk.text.at(-1)!) || chunk.text.length > 1500)).toEqual([]);
    expect(chunks.slice(1).filter((chunk) => !enders.has(source[chunk.charStart - 1]!))).toEqual([]);
    expect(overlaps(chunks).filter((overlap) => overlap < 75 || overlap > 125)).toEqual([]);
  });

  it('does not overlap when overlap is 0', () => {
    const chunks = chunkMarkdown(sentences(latinSentence, 3, 5000, ' '), { overlap: 0 });
    expect(chunks.length).toBeGreaterThan(3);
    expect(overlaps(chunks).filter((overlap) => overlap > 0)).toEqual([]);
  });

  it('keeps a 200 KB line with no break points in full-size pieces, with no overlap starting mid-word', () => {
    const random = seededRandom(5);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/';
    const source = Array.from(
      { length: 200_000 },
      () => alphabet[Math.floor(random() * alphabet.length)],
    ).join('');
    const chunks = chunkMarkdown(source);
    const lengths = chunks.map((chunk) => chunk.text.length);
    expect(lengths.slice(0, -2).every((length) => length === 1500)).toBe(true);
    expect(lengths.slice(-2).every((length) => length >= 700 && length <= 1500)).toBe(true);
    // No word edge anywhere: an overlap could only start mid-token, so there is none.
    expect(new Set(overlaps(chunks))).toEqual(new Set([0]));
    expect(chunks.at(-1)!.charEnd).toBe(source.length);
  });
});

describe('chunkMarkdown: code and tables', () => {
  const prose = (seed: number, length = 1000) => sentences(latinSentence, seed, length, ' ');

  it('never cuts a fenced code block that fits, even where the window would', () => {
    const code = [
      '```python',
      ...Array.from({ length: 50 }, (_, i) =>
        i % 5 === 0 ? `# comment ${i}` : i % 7 === 0 ? '' : `value_${i} = compute(${i})`,
      ),
      '```',
    ].join('\n');
    // The fence starts before the back half of the first window and ends after it.
    const source = `# Doc\n\n${prose(1, 600)}\n\n${code}\n\n${prose(2)}`;
    const fenceStart = source.indexOf(code);
    const fenceEnd = fenceStart + code.length;
    const chunks = chunkMarkdown(source);
    const touching = chunks.filter((chunk) => chunk.charStart < fenceEnd && chunk.charEnd > fenceStart);
    expect(touching.length).toBeGreaterThan(0);
    expect(touching.filter((chunk) => !chunk.text.includes(code))).toEqual([]);
    expect(new Set(chunks.map((chunk) => chunk.headingPath))).toEqual(new Set(['Doc']));
  });

  it('splits a code block larger than a chunk only at line ends, keeping the lines whole', () => {
    const lines = Array.from(
      { length: 250 },
      (_, i) => `  const line${i} = ${i} * 2; // ${'#'.repeat(i % 4)}`,
    );
    const source = ['```js', ...lines, '```'].join('\n');
    const chunks = chunkMarkdown(source);
    expect(chunks.length).toBeGreaterThan(3);
    // Chunks are trimmed, so a line edge may sit behind indentation or trailing spaces.
    const lineStart = (pos: number) => source.lastIndexOf('\n', pos - 1) + 1;
    const lineEnd = (pos: number) => (source.indexOf('\n', pos) + 1 || source.length + 1) - 1;
    const badEdges = chunks.filter(
      (chunk) =>
        source.slice(lineStart(chunk.charStart), chunk.charStart).trim() !== '' ||
        source.slice(chunk.charEnd, lineEnd(chunk.charEnd)).trim() !== '',
    );
    expect(badEdges).toEqual([]);
    expect(new Set(chunks.map((chunk) => chunk.headingPath))).toEqual(new Set(['']));
  });

  it('returns a small code-only document as one chunk', () => {
    const source = '```sql\n-- # not a heading\nselect 1;\n```\n';
    expect(chunkMarkdown(source)).toEqual([
      { ord: 0, headingPath: '', text: source.trimEnd(), charStart: 0, charEnd: source.length - 1 },
    ]);
  });

  it('keeps a table that fits in one chunk, and splits a long table only between rows', () => {
    const row = (i: number) => `| row ${i} | ${'cell '.repeat(1 + (i % 6))}|`;
    const smallTable = ['| id | text |', '|---|---|', ...Array.from({ length: 35 }, (_, i) => row(i))].join(
      '\n',
    );
    const withSmall = `${prose(4, 600)}\n\n${smallTable}\n\n${prose(5)}`;
    expect(
      chunkMarkdown(withSmall).filter(
        (chunk) => chunk.text.includes('| row 0 |') !== chunk.text.includes('| row 34 |'),
      ),
    ).toEqual([]);

    const longTable = ['| id | text |', '|---|---|', ...Array.from({ length: 200 }, (_, i) => row(i))].join(
      '\n',
    );
    const chunks = chunkMarkdown(longTable);
    expect(chunks.length).toBeGreaterThan(3);
    const brokenRows = chunks.flatMap((chunk) =>
      chunk.text.split('\n').filter((line) => !/^\|.*\|$/.test(line)),
    );
    expect(brokenRows).toEqual([]);
    // Every piece reads as a table: the header and delimiter rows come first, once.
    expect(chunks.filter((chunk) => !chunk.text.startsWith('| id | text |\n|---|---|'))).toEqual([]);
    expect(chunks.slice(1).every((chunk) => chunk.tableHeader === '| id | text |\n|---|---|')).toBe(true);
    expect(chunks[0]!.tableHeader).toBeUndefined();
  });

  it('keeps every chunk under the ceiling for a table thousands of columns wide (its header is not repeated)', () => {
    // A 20,000-column table made 170 KB chunks: each piece carried the ~200 KB header row again.
    const columns = 3000;
    const row = (r: number) => `| ${Array.from({ length: columns }, (_, c) => `r${r}c${c}`).join(' | ')} |`;
    const source = [
      row(0),
      `|${' --- |'.repeat(columns)}`,
      ...Array.from({ length: 6 }, (_, r) => row(r + 1)),
    ].join('\n');
    const chunks = chunkMarkdown(source);
    expect(
      chunks.filter((chunk) => chunk.text.length > chunkCeiling(1500)).map((c) => c.text.length),
    ).toEqual([]);
    expect(chunks.filter((chunk) => chunk.tableHeader !== undefined)).toEqual([]);
    // What the chunks hold together stays near the source's size (pieces plus their overlap).
    const total = chunks.reduce((sum, chunk) => sum + chunk.text.length, 0);
    expect(total).toBeLessThan(source.length * 1.2);
  });

  it('never cuts a list item, and starts every overlap on a word (not inside a URL)', () => {
    const item = (i: number) =>
      `- item ${i}: see https://example.com/docs/very/long/path/segment-${i}/index.html for ${'details '.repeat(12)}(end ${i})`;
    const list = Array.from({ length: 60 }, (_, i) => item(i)).join('\n');
    const source = `# List\n\n${list}`;
    const chunks = chunkMarkdown(source);
    expect(chunks.length).toBeGreaterThan(3);
    const cutItems = chunks
      .slice(1)
      .filter((chunk) => !/^- item \d+:/.test(chunk.text) || !/\(end \d+\)$/.test(chunk.text));
    expect(cutItems.map((chunk) => chunk.text.slice(0, 40))).toEqual([]);
    const midWord = chunks.slice(1).filter((chunk) => /[\w/.:-]/.test(source[chunk.charStart - 1]!));
    expect(midWord).toEqual([]);
  });
});

describe('chunkMarkdown: edge input', () => {
  it('returns no chunks for empty or whitespace-only input', () => {
    expect(['', ' ', '\n\n\t\n', '\r\n'].map((source) => chunkMarkdown(source))).toEqual([[], [], [], []]);
  });

  it('chunks a 5 MB document into sane, exact chunks', () => {
    const random = seededRandom(42);
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; length < 5_000_000; i++) {
      const body =
        i % 3 === 0
          ? sentences(hanSentence, i, 300 + Math.floor(random() * 4000), '')
          : sentences(latinSentence, i, 300 + Math.floor(random() * 4000), ' ');
      const part = `## Section ${i}\n\n${body}\n\n\`\`\`\ncode ${i}\n\`\`\``;
      parts.push(part);
      length += part.length + 2;
    }
    const source = `# Big\n\n${parts.join('\n\n')}`;
    const chunks = chunkMarkdown(source);
    const bad = chunks.filter(
      (chunk, index) =>
        chunk.ord !== index ||
        chunk.text.length > 1500 ||
        source.slice(chunk.charStart, chunk.charEnd) !== chunk.text ||
        !chunk.headingPath.startsWith('Big'),
    );
    expect(bad).toEqual([]);
    expect(chunks.length).toBeGreaterThan(3300);
    expect(chunks.length).toBeLessThan(6000);
  });

  it('rejects options that cannot work with a clear error', () => {
    const attempts = [
      { chunkSize: 0 },
      { chunkSize: 1.5 },
      { overlap: -1 },
      { chunkSize: 100, overlap: 100 },
    ];
    const errors = attempts.map((options) => {
      try {
        chunkMarkdown('text', options);
        return 'accepted';
      } catch (error) {
        return error instanceof CairnError ? error.code : 'other';
      }
    });
    expect(errors).toEqual(['INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
  });
});
