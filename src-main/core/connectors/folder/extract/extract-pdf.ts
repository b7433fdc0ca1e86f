/**
 * PDF text layer with unpdf (the serverless build of Mozilla's PDF.js, no native code, works on
 * Node 20): one part per page, so each chunk knows its page. A PDF whose pages hold (almost) no
 * text is a scan: skipped and said so (no OCR). An encrypted PDF fails alone with that reason.
 * Pages are read one at a time; a sync runs this in the extract worker (extractor-workers.ts).
 *
 * PDF.js keeps ~45 KB per page read for as long as the document is open (a 4,168-page, 17 MB PDF
 * needed more than a 192 MB heap), so a long document is closed and opened again every
 * `REOPEN_PAGES` pages: what it keeps then follows those pages, not the whole file.
 */
import { getDocumentProxy } from 'unpdf';
import { throwIfAborted } from '../../../errors';
import type { LocatedPart } from '../../connector';
import { fileFailure, TextBudget, type Extracted, type ExtractContext } from './extracted';

/** Fewer non-space characters than this per page on average: no text layer (a scan). */
const MIN_CHARS_PER_PAGE = 16;
/** Pages read before the document is opened afresh (parsing a 17 MB PDF's xref again is ~1 s). */
export const REOPEN_PAGES = 400;

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

async function openPdf(bytes: Buffer, context: ExtractContext): Promise<PdfDocument> {
  try {
    // PDF.js takes ownership of (and may detach) the buffer it gets: give it a copy.
    return await getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: false });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'PasswordException')
      throw fileFailure(
        'folder.encrypted',
        `${context.externalId} is a password-protected PDF; Cairn cannot read it.`,
        { cause: error },
      );
    throw fileFailure(
      'folder.corrupt',
      `${context.externalId} is not a readable PDF: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

export async function extractPdf(bytes: Buffer, context: ExtractContext): Promise<Extracted> {
  let pdf = await openPdf(bytes, context);
  try {
    const parts: LocatedPart[] = [];
    const budget = new TextBudget(context);
    const pageCount = pdf.numPages;
    const title = await pdfTitle(pdf);
    let characters = 0;
    for (let number = 1; number <= pageCount; number++) {
      throwIfAborted(context.signal);
      if (number % REOPEN_PAGES === 1 && number > 1) {
        // The document's loading task owns the parsed data; ending it frees what it kept.
        await pdf.loadingTask.destroy();
        pdf = await openPdf(bytes, context);
      }
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = (content.items as TextItem[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('');
      page.cleanup();
      budget.add(text.length);
      characters += text.replace(/\s+/g, '').length;
      const part: LocatedPart = {
        markdown: escapeMarkdownStarts(text),
        location: { kind: 'page', page: number },
      };
      if (context.onPart) context.onPart(part);
      else parts.push(part);
    }
    if (characters < MIN_CHARS_PER_PAGE * Math.max(1, pageCount) && characters < 200)
      throw fileFailure(
        'folder.no-text',
        `${context.externalId} has no text layer (a scanned image, ${pageCount} page${pageCount === 1 ? '' : 's'}); Cairn does not read text in images.`,
        { skipped: true },
      );
    return { parts: context.onPart ? [] : parts, title };
  } finally {
    await pdf.loadingTask.destroy();
  }
}

async function pdfTitle(pdf: PdfDocument): Promise<string | null> {
  try {
    const { info } = (await pdf.getMetadata()) as { info?: { Title?: unknown } };
    const title = typeof info?.Title === 'string' ? info.Title.trim() : '';
    // Tools often leave "Untitled" or the source file name (e.g. "Microsoft Word - x.docx").
    return title && !/^(untitled|microsoft word - )/i.test(title) ? title : null;
  } catch {
    return null;
  }
}

/** PDF text is not Markdown: a line starting with "#", ">" or "|" must not become a heading, quote or table. */
function escapeMarkdownStarts(text: string): string {
  return text.replace(/^([ \t]*)([#>|])/gm, '$1\\$2');
}
