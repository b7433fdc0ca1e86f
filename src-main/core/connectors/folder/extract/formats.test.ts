import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxBytes, epubBytes, pdfBytes, pptxBytes, writeXlsx } from '../../../../testing/file-fixtures';
import { CairnError } from '../../../errors';
import type { DocumentRef, FetchedDocument } from '../../connector';
import { FolderConnector } from '../folder-connector';

let dir: string;
let connector: FolderConnector;

function ref(externalId: string): DocumentRef {
  return {
    externalId,
    title: externalId,
    knowledgeBase: 'files',
    url: null,
    remoteUpdatedAt: null,
    revision: null,
  };
}

async function fetchOf(externalId: string): Promise<FetchedDocument> {
  return connector.fetch(ref(externalId));
}

async function failureOf(externalId: string): Promise<{ code: string; details: unknown; message: string }> {
  try {
    await fetchOf(externalId);
  } catch (error) {
    if (error instanceof CairnError)
      return { code: error.code, details: error.details, message: error.message };
    throw error;
  }
  throw new Error(`${externalId} was read`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-formats-'));
  connector = new FolderConnector({ root: dir });
  await writeFile(
    join(dir, 'report.pdf'),
    pdfBytes(
      [
        ['Quarterly report', 'Intro words.'],
        ['# Budget (draft)', 'The zeppelin hangar costs 40 units.'],
        ['End.'],
      ],
      {
        title: 'Hangar Report',
      },
    ),
  );
  await writeFile(join(dir, 'scan.pdf'), pdfBytes([[], [], []], { scanned: true }));
  await writeFile(join(dir, 'locked.pdf'), pdfBytes([['secret']], { encrypted: true }));
  await writeFile(join(dir, 'broken.pdf'), Buffer.from('%PDF-1.4\nthis is not a pdf at all'));
  await writeFile(
    join(dir, 'memo.docx'),
    docxBytes([
      { heading: 1, text: 'Travel memo' },
      { text: 'Claims are due within 30 days & need receipts.' },
      { heading: 2, text: '报销' },
      { text: '员工报销需要在三十天内提交发票。' },
      {
        table: [
          ['City', 'Rate'],
          ['Berlin', '120'],
        ],
      },
    ]),
  );
  await writeFile(join(dir, 'corrupt.docx'), Buffer.from('PK\u0003\u0004 truncated zip'));
  await writeFile(
    join(dir, 'deck.pptx'),
    pptxBytes([
      { title: 'Kick-off', body: ['Goals for Q3', 'Ship the watcher'], notes: 'Mention the hangar budget.' },
      { title: 'Risks <&>', body: ['Inotify limits'] },
    ]),
  );
  const rows: (string | number)[][] = [['Item', 'Cost', 'Owner']];
  for (let i = 1; i <= 120; i++)
    rows.push([`Item number ${i} with a longer description`, i * 10, `owner-${i}`]);
  await writeXlsx(join(dir, 'costs.xlsx'), { Budget: rows, 备注: [['说明'], ['第二张表']] });
  await writeFile(
    join(dir, 'people.csv'),
    'name;city;note\nAda;London;"likes ""quotes""; and semicolons"\nLi Lei;北京;multi\nline\n',
  );
  await writeFile(
    join(dir, 'page.html'),
    '<html><head><title>Release notes</title><style>.x{}</style><script>var tracking = 1;</script></head><body><nav>Home | About</nav><main><h1>Version 2</h1><p>Adds folder watching.</p></main><footer>© footer text</footer></body></html>',
  );
  await writeFile(
    join(dir, 'book.epub'),
    epubBytes('The Hangar Book', [
      { title: 'Chapter One', paragraphs: ['Airships were common.'] },
      { title: 'Chapter Two', paragraphs: ['Zeppelins returned.'] },
    ]),
  );
});

afterAll(async () => {
  await connector.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('folder file formats', () => {
  it('lists every format Cairn reads', async () => {
    const preview = await connector.preview();
    expect(preview.counts).toEqual({ pdf: 4, word: 2, powerpoint: 1, spreadsheet: 2, html: 1, epub: 1 });
  });

  it('reads a PDF page by page, with the title from its metadata and Markdown-looking lines escaped', async () => {
    const doc = await fetchOf('report.pdf');
    expect(doc.title).toBe('Hangar Report');
    expect(doc.parts).toEqual([
      { markdown: 'Quarterly report\nIntro words.', location: { kind: 'page', page: 1 } },
      {
        markdown: '\\# Budget (draft)\nThe zeppelin hangar costs 40 units.',
        location: { kind: 'page', page: 2 },
      },
      { markdown: 'End.', location: { kind: 'page', page: 3 } },
    ]);
  });

  it('skips a scanned PDF with its reason, and fails an encrypted or broken one alone', async () => {
    expect(await failureOf('scan.pdf')).toMatchObject({
      code: 'DOCUMENT_FAILED',
      details: { reason: 'folder.no-text', skipped: true, permanent: true },
    });
    expect(await failureOf('locked.pdf')).toMatchObject({
      details: { reason: 'folder.encrypted', permanent: true },
    });
    expect(await failureOf('broken.pdf')).toMatchObject({ details: { reason: 'folder.corrupt' } });
    expect(await failureOf('corrupt.docx')).toMatchObject({ details: { reason: 'folder.corrupt' } });
  });

  it('reads Word headings, paragraphs and tables as Markdown', async () => {
    const doc = await fetchOf('memo.docx');
    expect(doc.markdown).toBe(
      '# Travel memo\n\nClaims are due within 30 days & need receipts.\n\n## 报销\n\n员工报销需要在三十天内提交发票。\n\n| City | Rate |\n| --- | --- |\n| Berlin | 120 |\n',
    );
    expect(doc.title).toBe('memo');
  });

  it('reads slides in presentation order with titles as headings and speaker notes', async () => {
    const doc = await fetchOf('deck.pptx');
    expect(doc.parts).toEqual([
      {
        markdown:
          '## Kick-off\n\nGoals for Q3\n\nShip the watcher\n\n### Speaker notes\n\nMention the hangar budget.',
        location: { kind: 'slide', slide: 1 },
      },
      { markdown: '## Risks <&>\n\nInotify limits', location: { kind: 'slide', slide: 2 } },
    ]);
  });

  it('reads sheets as tables of a few rows, each with the header repeated and its rows located', async () => {
    const doc = await fetchOf('costs.xlsx');
    const parts = doc.parts!;
    const budget = parts.filter((p) => p.location?.kind === 'rows' && p.location.sheet === 'Budget');
    expect(budget.length).toBeGreaterThan(3);
    for (const part of budget) {
      expect(part.markdown).toContain('| Item | Cost | Owner |\n| --- | --- | --- |');
      expect(part.markdown.length).toBeLessThan(1500);
    }
    for (const part of budget) expect(part.markdown.startsWith('## Budget\n\n')).toBe(true);
    expect(budget.map((p) => p.location)).toContainEqual(expect.objectContaining({ firstRow: 2 }));
    expect(budget.at(-1)!.location).toMatchObject({ lastRow: 121 });
    expect(budget.at(-1)!.markdown).toContain(
      '| Item number 120 with a longer description | 1200 | owner-120 |',
    );
    expect(parts.at(-1)).toEqual({
      markdown: '## 备注\n\n| 说明 |\n| --- |\n| 第二张表 |',
      location: { kind: 'rows', sheet: '备注', firstRow: 2, lastRow: 2 },
    });
  });

  it('reads CSV with quoted cells and sniffs the semicolon', async () => {
    const doc = await fetchOf('people.csv');
    expect(doc.parts).toEqual([
      {
        markdown:
          '| name | city | note |\n| --- | --- | --- |\n| Ada | London | likes "quotes"; and semicolons |\n| Li Lei | 北京 | multi |\n| line |  |  |',
        location: { kind: 'rows', sheet: 'people.csv', firstRow: 2, lastRow: 4 },
      },
    ]);
  });

  it('reads the main text of a web page, without scripts, styles, navigation or footer', async () => {
    const doc = await fetchOf('page.html');
    expect(doc).toEqual({ markdown: '# Version 2\n\nAdds folder watching.\n', title: 'Release notes' });
  });

  it('reads an EPUB in spine order with its title', async () => {
    const doc = await fetchOf('book.epub');
    expect(doc.title).toBe('The Hangar Book');
    expect(doc.markdown).toBe(
      '# Chapter One\n\nAirships were common.\n\n\n# Chapter Two\n\nZeppelins returned.\n',
    );
  });

  it('skips a file whose text passes the text limit, naming it, however small the file (xlsx, CSV, PDF, Word)', async () => {
    // The fixtures above hold a few thousand characters each; a 500-character limit stops the
    // streaming readers part-way and catches the others after extraction.
    await writeFile(
      join(dir, 'long.csv'),
      ['a,b', ...Array.from({ length: 100 }, (_v, i) => `row ${i},value ${i}`)].join('\n'),
    );
    const cases = [
      ['costs.xlsx', 500],
      ['long.csv', 500],
      ['report.pdf', 20],
      ['memo.docx', 20],
    ] as const;
    for (const [id, limit] of cases) {
      const limited = new FolderConnector({ root: dir, maxTextChars: limit });
      const error = await limited.fetch(ref(id)).then(
        () => null,
        (caught: unknown) => caught as CairnError,
      );
      expect(error, id).toBeInstanceOf(CairnError);
      expect(error!.details).toMatchObject({ reason: 'folder.too-large', skipped: true, permanent: true });
      expect(error!.message).toContain(`more than ${limit} characters of text`);
    }
    // Under the default limit the same files are read.
    expect((await fetchOf('costs.xlsx')).parts?.length).toBeGreaterThan(1);
  });
});
