/**
 * Small real files of each format a folder connection reads, made by the tests themselves: PDF
 * (text pages, a scan without text, a password-protected one), Word, PowerPoint, Excel, EPUB.
 * Each is the least a real reader accepts, written from the formats' own specifications
 * (PDF 1.7 §7; ECMA-376 for the Office files; EPUB 3.3), not a copy of any real file.
 */
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import ExcelJS from 'exceljs';

/** Escapes a PDF literal string (§7.3.4.2); text is ASCII (WinAnsi Helvetica). */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

export interface PdfOptions {
  title?: string;
  /** Pages draw only a filled box: no text layer, as a scan. */
  scanned?: boolean;
  /** Adds a Standard security handler whose user password is not empty: readers ask for a password. */
  encrypted?: boolean;
}

/** A PDF whose page i shows the lines of pages[i]. */
export function pdfBytes(pages: string[][], options: PdfOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1;
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const stream = options.scanned
      ? '0.5 g 72 72 468 648 re f'
      : `BT /F1 11 Tf 14 TL 72 740 Td ${lines.map((line) => `${pdfString(line)} Tj T*`).join(' ')} ET`;
    const contents = add(
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    );
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = add(`<< /Title ${pdfString(options.title ?? '')} /Producer (cairn tests) >>`);
  const encrypt = options.encrypted
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'7a'.repeat(32)}> /U <${'3c'.repeat(32)}> /P -44 >>`)
    : null;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  const id = `<${'0123456789abcdef'.repeat(2)}>`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R${encrypt ? ` /Encrypt ${encrypt} 0 R /ID [${id} ${id}]` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const CONTENT_TYPES_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/** A Word document of headings (level 1-3) and paragraphs, with an optional table. */
export function docxBytes(
  blocks: ({ heading: 1 | 2 | 3; text: string } | { text: string } | { table: string[][] })[],
): Buffer {
  const body = blocks
    .map((block) => {
      if ('table' in block)
        return `<w:tbl>${block.table
          .map(
            (row) =>
              `<w:tr>${row.map((cell) => `<w:tc><w:p><w:r><w:t>${xml(cell)}</w:t></w:r></w:p></w:tc>`).join('')}</w:tr>`,
          )
          .join('')}</w:tbl>`;
      const style = 'heading' in block ? `<w:pPr><w:pStyle w:val="Heading${block.heading}"/></w:pPr>` : '';
      return `<w:p>${style}<w:r><w:t xml:space="preserve">${xml(block.text)}</w:t></w:r></w:p>`;
    })
    .join('');
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        `${CONTENT_TYPES_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
      ),
      '_rels/.rels': strToU8(
        `${CONTENT_TYPES_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
      ),
      'word/document.xml': strToU8(
        `${CONTENT_TYPES_HEAD}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
      ),
    }),
  );
}

export interface SlideFixture {
  title: string;
  body: string[];
  notes?: string;
}

const P_NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

function textShape(placeholder: string | null, paragraphs: string[]): string {
  const ph = placeholder ? `<p:nvPr><p:ph type="${placeholder}"/></p:nvPr>` : '<p:nvPr/>';
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/>${ph}</p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs
    .map((text) => `<a:p><a:r><a:t>${xml(text)}</a:t></a:r></a:p>`)
    .join('')}</p:txBody></p:sp>`;
}

/**
 * A presentation whose slides are listed in presentation.xml in the given order (their part
 * names are numbered backwards, so a reader that sorts part names gets the order wrong).
 */
export function pptxBytes(slides: SlideFixture[]): Buffer {
  const files: Record<string, Uint8Array> = {};
  const rels: string[] = [];
  const ids: string[] = [];
  slides.forEach((slide, index) => {
    const part = slides.length - index;
    rels.push(
      `<Relationship Id="rId${index + 10}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${part}.xml"/>`,
    );
    ids.push(`<p:sldId id="${256 + index}" r:id="rId${index + 10}"/>`);
    files[`ppt/slides/slide${part}.xml`] = strToU8(
      `${CONTENT_TYPES_HEAD}<p:sld ${P_NS}><p:cSld><p:spTree>${textShape('title', [slide.title])}${textShape(null, slide.body)}</p:spTree></p:cSld></p:sld>`,
    );
    if (slide.notes !== undefined) {
      files[`ppt/slides/_rels/slide${part}.xml.rels`] = strToU8(
        `${CONTENT_TYPES_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="../notesSlides/notesSlide${part}.xml"/></Relationships>`,
      );
      files[`ppt/notesSlides/notesSlide${part}.xml`] = strToU8(
        `${CONTENT_TYPES_HEAD}<p:notes ${P_NS}><p:cSld><p:spTree>${textShape('sldImg', [])}${textShape('body', [slide.notes])}</p:spTree></p:cSld></p:notes>`,
      );
    }
  });
  files['ppt/presentation.xml'] = strToU8(
    `${CONTENT_TYPES_HEAD}<p:presentation ${P_NS}><p:sldIdLst>${ids.join('')}</p:sldIdLst></p:presentation>`,
  );
  files['ppt/_rels/presentation.xml.rels'] = strToU8(
    `${CONTENT_TYPES_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
  );
  files['[Content_Types].xml'] = strToU8(
    `${CONTENT_TYPES_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
  );
  return Buffer.from(zipSync(files));
}

/** Writes an .xlsx with one worksheet per entry (rows of cell values). */
export async function writeXlsx(
  path: string,
  sheets: Record<string, (string | number | null)[][]>,
): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = workbook.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  await workbook.xlsx.writeFile(path);
}

/** An EPUB 3 book with the given chapters (title + paragraphs). */
export function epubBytes(title: string, chapters: { title: string; paragraphs: string[] }[]): Buffer {
  const files: Record<string, Uint8Array> = {
    mimetype: strToU8('application/epub+zip'),
    'META-INF/container.xml': strToU8(
      `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    ),
  };
  const items = chapters.map(
    (_, i) => `<item id="c${i}" href="text/ch${i}.xhtml" media-type="application/xhtml+xml"/>`,
  );
  const spine = chapters.map((_, i) => `<itemref idref="c${i}"/>`);
  chapters.forEach((chapter, i) => {
    files[`OEBPS/text/ch${i}.xhtml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${xml(chapter.title)}</title></head><body><h1>${xml(chapter.title)}</h1>${chapter.paragraphs.map((p) => `<p>${xml(p)}</p>`).join('')}</body></html>`,
    );
  });
  files['OEBPS/content.opf'] = strToU8(
    `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${xml(title)}</dc:title></metadata><manifest>${items.join('')}</manifest><spine>${spine.join('')}</spine></package>`,
  );
  return Buffer.from(zipSync(files));
}

export interface ZipBombOptions {
  /** What word/document.xml unpacks to, in MiB. */
  inflatedMiB: number;
  /** The size the package's directory declares for it. @default the real size */
  declaredBytes?: number;
}

/**
 * A Word file whose document.xml unpacks to `inflatedMiB` MiB of paragraphs (a "zip bomb": 300 MiB
 * fits in about 1 MB). Built without ever holding the unpacked text: one MiB of paragraphs is
 * compressed once with a full flush (a byte-aligned, self-contained run of deflate blocks, RFC
 * 1951 §3.2.3) and repeated, so the stream is as real as zlib makes it. The zip around it is
 * written by hand (APPNOTE.TXT §4.3): local header, data, central directory, end record.
 */
export function docxBomb(options: ZipBombOptions): Buffer {
  const head = Buffer.from(
    `${CONTENT_TYPES_HEAD}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`,
  );
  const tail = Buffer.from('</w:body></w:document>');
  const paragraph = `<w:p><w:r><w:t>${'lorem ipsum dolor sit amet '.repeat(40)}</w:t></w:r></w:p>`;
  const block = Buffer.from(paragraph.repeat(Math.ceil((1024 * 1024) / paragraph.length))).subarray(
    0,
    Math.floor((1024 * 1024) / paragraph.length) * paragraph.length,
  );
  const repeats = Math.ceil((options.inflatedMiB * 1024 * 1024) / block.length);
  const flush = { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH };
  const headDeflated = deflateRawSync(head, flush);
  const blockDeflated = deflateRawSync(block, flush);
  const tailDeflated = deflateRawSync(tail, { level: 9 });
  let crc = crc32(head);
  for (let i = 0; i < repeats; i++) crc = crc32(block, crc);
  crc = crc32(tail, crc);
  const size = head.length + block.length * repeats + tail.length;
  const document = Buffer.concat([headDeflated, ...Array<Buffer>(repeats).fill(blockDeflated), tailDeflated]);
  const small = (name: string, text: string) => {
    const data = Buffer.from(text);
    return { name, data: deflateRawSync(data), crc: crc32(data), size: data.length };
  };
  return zipOfDeflated([
    small(
      '[Content_Types].xml',
      `${CONTENT_TYPES_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    small(
      '_rels/.rels',
      `${CONTENT_TYPES_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    { name: 'word/document.xml', data: document, crc, size: options.declaredBytes ?? size },
  ]);
}

/** A zip of already deflated entries (method 8), sizes as given (a test may make them lie). */
function zipOfDeflated(entries: { name: string; data: Buffer; crc: number; size: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
