import { sql as core } from './001-core';
import { sql as search } from './002-search';
import { sql as chat } from './003-chat';
import { sql as userAuth } from './004-user-auth';
import { sql as syncErrorCode } from './005-sync-error-code';
import { sql as documentMetadata } from './006-document-metadata';
import { sql as chunkLocation } from './007-chunk-location';
import { sql as syncNotes } from './008-sync-notes';
import { sql as searchCatalog } from './009-search-catalog';
import { sql as searchCatalogNames } from './010-search-catalog-names';
import { sql as listedUpdatedAt } from './011-listed-updated-at';
import { sql as searchedFor } from './012-searched-for';
import { sql as semanticIndex } from './013-semantic-index';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Applied in order, each once, each in its own transaction. Append only. */
export const MIGRATIONS: Migration[] = [
  { version: 1, name: 'core', sql: core },
  { version: 2, name: 'search', sql: search },
  { version: 3, name: 'chat', sql: chat },
  { version: 4, name: 'user-auth', sql: userAuth },
  { version: 5, name: 'sync-error-code', sql: syncErrorCode },
  { version: 6, name: 'document-metadata', sql: documentMetadata },
  { version: 7, name: 'chunk-location', sql: chunkLocation },
  { version: 8, name: 'sync-notes', sql: syncNotes },
  { version: 9, name: 'search-catalog', sql: searchCatalog },
  { version: 10, name: 'search-catalog-names', sql: searchCatalogNames },
  { version: 11, name: 'listed-updated-at', sql: listedUpdatedAt },
  { version: 12, name: 'searched-for', sql: searchedFor },
  { version: 13, name: 'semantic-index', sql: semanticIndex },
];
