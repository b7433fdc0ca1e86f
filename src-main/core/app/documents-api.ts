/** The contract's `documents` domain: indexed documents read back for the preview and MCP. */
import type { CairnApi } from '@shared/contract';
import { toResult } from '../errors';
import type { DocumentReader } from '../index/document-reader';

export function documentsApi(reader: DocumentReader): CairnApi['documents'] {
  return {
    get: (input) => toResult(() => reader.get(input.documentId)),
    list: (input) => toResult(() => reader.list(input)),
  };
}
