/**
 * What a format reader returns, and the one way it says a file cannot be indexed. Failures of a
 * file's content are `permanent` (the sync does not retry them until the file changes) and carry a
 * stable `reason` the card groups and translates; `skipped` ones are not counted as failures.
 */
import type { LocatedPart } from '../../connector';
import { CairnError } from '../../../errors';

export interface Extracted {
  /** Markdown of the whole file (when there are no located parts). */
  markdown?: string;
  /** The text by page, slide or row group. */
  parts?: LocatedPart[];
  /** A title the file itself declares (document properties, <title>, front matter). */
  title?: string | null;
}

export interface ExtractContext {
  /** Path relative to the folder (POSIX), for messages. */
  externalId: string;
  /** The absolute path (readers that stream from disk use it). */
  path: string;
  signal?: AbortSignal;
  /**
   * Most characters of text the file may yield: a zipped format's file size says little about its
   * text (a 20 MB workbook holds ~50 M characters of tables), and what a document costs to index
   * follows its text. @default no limit
   */
  maxTextChars?: number;
  /**
   * When given, a reader that yields located parts as it goes (PDF) hands each one over here and
   * returns none: the extract worker streams them to the host instead of holding them all.
   */
  onPart?: (part: LocatedPart) => void;
  /** The title a `[[link]]` to another note of the folder shows (Markdown notes; note-titles.ts). */
  linkTitle?: (target: string) => string | null;
}

export type Extractor = (bytes: Buffer, context: ExtractContext) => Promise<Extracted>;

/** Stable reasons the card groups by (src-renderer i18n `reason.*`). */
export type FileReason =
  | 'folder.no-text'
  | 'folder.encrypted'
  | 'folder.corrupt'
  | 'folder.binary'
  | 'folder.too-large'
  /** The reader met its worker's memory limit (extractor-workers.ts). */
  | 'folder.extract-limit'
  | 'folder.empty';

export function fileFailure(
  reason: FileReason,
  message: string,
  options: { skipped?: boolean; cause?: unknown } = {},
): CairnError {
  return new CairnError('DOCUMENT_FAILED', message, {
    cause: options.cause,
    details: { reason, permanent: true, ...(options.skipped ? { skipped: true } : {}) },
  });
}

/** The skip for a file whose text passes the limit, naming the limit. */
export function tooMuchText(context: ExtractContext, limit: number): CairnError {
  return fileFailure(
    'folder.too-large',
    `${context.externalId} holds more than ${limit >= 2 ** 20 ? `${(limit / 2 ** 20).toFixed(1)} M` : limit.toLocaleString('en')} characters of text; files with more text than that are not indexed.`,
    { skipped: true },
  );
}

/** Counts a file's text as a streaming reader yields it, and stops the reader once it passes the limit. */
export class TextBudget {
  private used = 0;

  constructor(private readonly context: ExtractContext) {}

  add(chars: number): void {
    this.used += chars;
    const limit = this.context.maxTextChars;
    if (limit !== undefined && this.used > limit) throw tooMuchText(this.context, limit);
  }
}

/** The XML entities OOXML and EPUB files use in text. */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return safeCodePoint(parseInt(lower.slice(2), 16), whole);
    if (lower.startsWith('#')) return safeCodePoint(parseInt(lower.slice(1), 10), whole);
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[lower] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}
