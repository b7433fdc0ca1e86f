/**
 * PDF text layer with unpdf (the serverless build of Mozilla's PDF.js, no native code, works on
 * Node 20): one part per page, so each chunk knows its page. A PDF whose pages hold (almost) no
 * text is a scan: skipped and said so (no OCR). An encrypted PDF fails alone with that reason.
 * Pages are read one at a time and released, so memory follows one page, not the whole text layer.
 */
import { getDocumentProxy } from 'unpdf';
import { throwIfAborted } from '../../../errors';
import type { LocatedPart } from '../../connector';
import { fileFailure, TextBudget, type Extracted, type ExtractContext } from './extracted';

/** Fewer non-space characters than this per page on average: no text layer (a scan). */
const MIN_CHARS_PER_PAGE = 16;

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

export async function extractPdf(bytes: Buffer, context: ExtractContext): Promise<Extracted> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js takes ownership of (and may detach) the buffer it gets: give it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: false });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'PasswordException')
      throw fileFailure(
        'folder.encrypted',
        `${context.externalId} is a password-protected PDF; Cairn cannot read it.`,
        {
          cause: error,
        },
      );
    throw fileFailure(
      'folder.corrupt',
      `${context.externalId} is not a readable PDF: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  try {
    const parts: LocatedPart[] = [];
    const budget = new TextBudget(context);
    let characters = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      throwIfAborted(context.signal);
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
    if (characters < MIN_CHARS_PER_PAGE * Math.max(1, pdf.numPages) && characters < 200)
      throw fileFailure(
        'folder.no-text',
        `${context.externalId} has no text layer (a scanned image, ${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'}); Cairn does not read text in images.`,
        { skipped: true },
      );
    return { parts: context.onPart ? [] : parts, title: await pdfTitle(pdf) };
  } finally {
    // The document's loading task owns the parsed data; ending it frees the whole file.
    await pdf.loadingTask.destroy();
  }
}

async function pdfTitle(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<string | null> {
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
