/** The contract's `documents` domain: indexed documents read back for the preview and MCP. */
import type { CairnApi } from '@shared/contract';
import { toResult } from '../errors';
import type { Db } from '../db/database';
import type { DocumentReader } from '../index/document-reader';
import { documentTopics } from '../index/suggestions';

/**
 * `get` is a document opened (the preview, an AI tool's fetch): it is marked opened, so the
 * semantic index embeds it among the first (spaces/semantic-index.ts), and `onOpened` is told.
 */
export function documentsApi(reader: DocumentReader, db: Db, onOpened?: () => void): CairnApi['documents'] {
  return {
    get: (input) =>
      toResult(async () => {
        const view = await reader.get(input.documentId);
        await reader.markOpened(view.id);
        onOpened?.();
        return view;
      }),
    list: (input) => toResult(() => reader.list(input)),
    topics: (input) => toResult(() => documentTopics(db, input?.limit)),
  };
}
