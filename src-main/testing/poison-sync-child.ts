/**
 * The process the quarantine test lets die: opens an on-disk data dir with the real composition
 * root and syncs one folder connection whose connector kills this process (SIGKILL, as V8 aborts
 * when a reader runs it out of memory: no handler runs) whenever it has read a file holding
 * `marker`. Prints the finished run as one JSON line when the sync ends.
 *   node --import tsx poison-sync-child.ts <dataDir> <connectionId> <marker>
 */
import { createCairn } from '../core/app/create-cairn';
import type { Connector, ConnectorInit } from '../core/connectors/connector';
import { createFolderConnector } from '../core/connectors/folder/folder-connector';
import { defaultConnectorFactories } from '../core/connectors/registry';
import { silentLogger } from '../core/logging/logger';

const [dataDir, connectionId, marker] = process.argv.slice(2);
if (!dataDir || !connectionId || !marker)
  throw new Error('usage: poison-sync-child.ts <dataDir> <connectionId> <marker>');

function poisonedFolder(init: ConnectorInit): Connector {
  const folder = createFolderConnector(init);
  return {
    platform: folder.platform,
    capabilities: folder.capabilities,
    validate: (signal) => folder.validate(signal),
    list: (signal, report) => folder.list(signal, report),
    search: (query, options) => folder.search(query, options),
    async fetch(ref, signal) {
      const fetched = await folder.fetch(ref, signal);
      if (fetched.markdown.includes(marker)) process.kill(process.pid, 'SIGKILL');
      return fetched;
    },
  };
}

const cairn = await createCairn({
  dataDir,
  env: {},
  scheduler: false,
  logger: silentLogger(),
  factories: { ...defaultConnectorFactories(), folder: poisonedFolder },
});
const started = await cairn.api.sync.start({ connectionId });
if (!started.ok) throw new Error(started.error.message);
await cairn.whenIdle();
const runs = await cairn.api.sync.runs({ connectionId, limit: 1 });
process.stdout.write(`${JSON.stringify(runs.ok ? runs.value[0] : runs)}\n`);
await cairn.dispose();
