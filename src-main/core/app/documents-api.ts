/** The contract's `documents` domain: indexed documents read back for the preview and MCP. */
import type { CairnApi } from '@shared/contract';
import { toResult } from '../errors';
import type { Db } from '../db/database';
import type { DocumentReader } from '../index/document-reader';
import { documentTopics } from '../index/suggestions';

export function documentsApi(reader: DocumentReader, db: Db): CairnApi['documents'] {
  return {
    get: (input) => toResult(() => reader.get(input.documentId)),
    list: (input) => toResult(() => reader.list(input)),
    topics: (input) => toResult(() => documentTopics(db, input?.limit)),
  };
}
