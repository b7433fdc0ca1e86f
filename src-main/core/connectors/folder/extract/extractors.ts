/** Which reader handles which file extension: the one list of what a folder connection indexes. */
import type { FileKind } from '@shared/models';
import { extractText } from './extract-text';
import type { Extracted, ExtractContext, Extractor } from './extracted';

/**
 * A reader whose module (and its dependencies: exceljs, mammoth, pdf.js, turndown, …) loads on the
 * first file of its kind. Loading them all up front cost ~1 s of every `cairn` command that opens
 * the data directory, most of which never read a PDF or a spreadsheet (docs/decisions/cli-startup.md).
 */
function onFirstUse(load: () => Promise<Extractor>): Extractor {
  let loaded: Promise<Extractor> | null = null;
  return async (bytes: Buffer, context: ExtractContext): Promise<Extracted> => {
    loaded ??= load().catch((error: unknown) => {
      loaded = null; // a failed import is retried on the next file rather than remembered forever
      throw error;
    });
    return (await loaded)(bytes, context);
  };
}

const extractPdf = onFirstUse(async () => (await import('./extract-pdf')).extractPdf);
const extractDocx = onFirstUse(async () => (await import('./extract-docx')).extractDocx);
const extractPptx = onFirstUse(async () => (await import('./extract-pptx')).extractPptx);
const extractXlsx = onFirstUse(async () => (await import('./extract-xlsx')).extractXlsx);
const extractCsv = onFirstUse(async () => (await import('./extract-csv')).extractCsv);
const extractHtml = onFirstUse(async () => (await import('./extract-html')).extractHtml);
const extractEpub = onFirstUse(async () => (await import('./extract-epub')).extractEpub);

/** Extension (lower case, no dot) → reader and the kind shown in counts ("12 PDF"). */
export const EXTRACTORS: Readonly<Record<string, { kind: FileKind; extract: Extractor }>> = {
  md: { kind: 'markdown', extract: extractText },
  markdown: { kind: 'markdown', extract: extractText },
  mdx: { kind: 'markdown', extract: extractText },
  txt: { kind: 'text', extract: extractText },
  pdf: { kind: 'pdf', extract: extractPdf },
  docx: { kind: 'word', extract: extractDocx },
  pptx: { kind: 'powerpoint', extract: extractPptx },
  xlsx: { kind: 'spreadsheet', extract: extractXlsx },
  csv: { kind: 'spreadsheet', extract: extractCsv },
  tsv: { kind: 'spreadsheet', extract: extractCsv },
  html: { kind: 'html', extract: extractHtml },
  htm: { kind: 'html', extract: extractHtml },
  epub: { kind: 'epub', extract: extractEpub },
};

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function extractorFor(name: string): { kind: FileKind; extract: Extractor } | null {
  return EXTRACTORS[extensionOf(name)] ?? null;
}

/** The file name without a known extension (the title of last resort). */
export function stripKnownExtension(name: string): string {
  return extractorFor(name) ? name.slice(0, name.lastIndexOf('.')) : name;
}
