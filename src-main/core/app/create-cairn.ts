/**
 * The one composition root (STYLE.md §3): builds every service over one database and wires their
 * dependencies, one step per concern, each in its own `wire-*.ts`. The Electron entry, the
 * headless host, the CLI and the tests all call it. Services that react to another's change
 * subscribe to its events (connection lifecycle, `settings.changed`) inside their step; nothing is
 * filled in later.
 */
import type { CairnInternals, CreateCairnOptions } from './cairn';
import { Disposers } from './disposers';
import { wireApi } from './wire-api';
import { wireBase, type Base } from './wire-base';
import { wireChat } from './wire-chat';
import { wireConnectionServices } from './wire-connection-services';
import { wireConnections } from './wire-connections';
import { wireEmbedding, type EmbeddingWiring } from './wire-embedding';
import { wireSearch } from './wire-search';
import { wireSync, type SyncWiring } from './wire-sync';

export { CAIRN_VERSION } from './version';
export type { CairnInternals, CreateCairnOptions } from './cairn';

export async function createCairn(options: CreateCairnOptions = {}): Promise<CairnInternals> {
  const disposers = new Disposers();
  try {
    const base = await wireBase(options, disposers);
    const connections = wireConnections(base, options);
    const embedding = await wireEmbedding(base, options);
    const sync = await wireSync(base, connections, embedding, options);
    const connectionServices = wireConnectionServices(base, connections, sync);
    const search = await wireSearch(base, connections, embedding, options);
    const chat = wireChat(base, search);
    const buildApi = wireApi(
      base,
      { connections, connectionServices, embedding, sync, search, chat },
      options,
    );
    await sync.start();
    return instance(base, embedding, sync, buildApi);
  } catch (error) {
    await disposers.run();
    throw error;
  }
}

function instance(
  base: Base,
  embedding: EmbeddingWiring,
  sync: SyncWiring,
  buildApi: ReturnType<typeof wireApi>,
): CairnInternals {
  let disposed = false;
  return {
    api: buildApi(),
    cancellable: (signal) => buildApi(signal),
    events: base.events,
    dataDir: base.dataDir,
    logger: base.logger,
    secrets: base.secretStore,
    db: base.db,
    models: embedding.models,
    maintenance: sync.maintenance,
    whenIdle: async () => {
      await sync.service.whenIdle();
      await embedding.models.service.whenIdle();
      await embedding.embeddings.whenIdle();
      await base.privacy?.whenIdle();
    },
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await base.disposers.run();
    },
  };
}
