/**
 * Messages between ExtractorWorkers (main thread) and extract-worker.ts. Plain data: they cross
 * by structured clone; the file's bytes go over as a transferred buffer.
 */
import type { ErrorCode } from '@shared/errors';
import type { LocatedPart } from '../../connector';

export type ExtractRequest = {
  type: 'extract';
  id: number;
  /** The file's extension (lower case): which reader of extractors.ts runs. */
  extension: string;
  bytes: Uint8Array;
  externalId: string;
  path: string;
  maxTextChars?: number;
};

export type ExtractReply =
  /** One located part (a PDF page), sent as soon as it is read: the worker keeps none of them. */
  | { type: 'part'; id: number; part: LocatedPart }
  /** The end of a file: its title, and its Markdown when the reader gives the whole file at once. */
  | { type: 'done'; id: number; title: string | null; markdown?: string; parts?: LocatedPart[] }
  | {
      type: 'failed';
      id: number;
      error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
    };
