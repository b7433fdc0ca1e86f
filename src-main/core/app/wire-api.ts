/**
 * The contract: one adapter per domain over the services (`<domain>-api.ts`), with failures'
 * messages redacted. In-process callers can stop long calls with a signal; the transports use the
 * plain api.
 */
import type { CairnApi } from '@shared/contract';
import type { ChatService } from '../chat/chat-service';
import { DocumentReader } from '../index/document-reader';
import type { HybridSearch } from '../search/hybrid-search';
import { appApi } from './app-api';
import type { CreateCairnOptions } from './cairn';
import { chatApi } from './chat-api';
import { connectionsApi } from './connections-api';
import { documentsApi } from './documents-api';
import { checkoutLaunch, mcpApi } from './mcp-api';
import { modelsApi } from './models-api';
import { redactFailures } from './redact-failures';
import { searchApi } from './search-api';
import { settingsApi } from './settings-api';
import { syncApi } from './sync-api';
import { CAIRN_VERSION } from './version';
import type { Base } from './wire-base';
import type { ConnectionServicesWiring } from './wire-connection-services';
import type { ConnectionsWiring } from './wire-connections';
import type { EmbeddingWiring } from './wire-embedding';
import type { SyncWiring } from './wire-sync';

export interface ApiParts {
  connections: ConnectionsWiring;
  connectionServices: ConnectionServicesWiring;
  embedding: EmbeddingWiring;
  sync: SyncWiring;
  search: HybridSearch;
  chat: ChatService;
}

/** The contract over the services; `signal` stops the long calls of the api it builds. */
export function wireApi(
  base: Base,
  parts: ApiParts,
  options: CreateCairnOptions,
): (signal?: AbortSignal) => CairnApi {
  const { db, settings } = base;
  const { embeddings, models } = parts.embedding;
  const documents = new DocumentReader(db);
  const appDeps = {
    version: CAIRN_VERSION,
    dataDir: base.dataDir,
    secretStorage: base.secretStore.storage,
    repository: parts.connections.repository,
    settings,
    embeddings,
    sync: parts.sync.service,
    ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
  };
  const settingsDeps = {
    db,
    settings,
    localEmbedder: (id: string) => models.local.embedder(id),
    localModels: {
      catalog: models.local.catalog,
      installed: (id: string) => models.store.installed(id) !== null,
    },
  };
  const mcpDeps = { launch: options.mcpLaunch ?? checkoutLaunch(), dataDir: base.dataDir, documents };
  const ollama = options.ollama ?? {};
  return (signal) =>
    redactFailures(
      {
        app: appApi(appDeps),
        connections: connectionsApi(
          parts.connectionServices.connections,
          parts.connectionServices.signIn,
          signal,
        ),
        sync: syncApi(parts.sync.service),
        search: searchApi(parts.search, signal),
        documents: documentsApi(documents, db, () => embeddings.documentOpened()),
        mcp: mcpApi(mcpDeps),
        chat: chatApi(parts.chat),
        settings: settingsApi(settingsDeps, signal),
        models: modelsApi(models.service, ollama),
      },
      base.redact,
    );
}
