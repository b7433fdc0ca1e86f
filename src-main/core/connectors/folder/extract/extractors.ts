/** Which reader handles which file extension: the one list of what a folder connection indexes. */
import type { FileKind } from '@shared/models';
import { extractCsv } from './extract-csv';
import { extractDocx } from './extract-docx';
import { extractEpub } from './extract-epub';
import { extractHtml } from './extract-html';
import { extractPdf } from './extract-pdf';
import { extractPptx } from './extract-pptx';
import { extractText } from './extract-text';
import { extractXlsx } from './extract-xlsx';
import type { Extractor } from './extracted';

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
