/**
 * The process the crash test kills: opens an on-disk data dir with the real composition root,
 * starts a sync of one folder connection and prints each progress event as a JSON line, so the
 * parent can SIGKILL it in the middle of the writes. Each fetch is slowed a little (the folder
 * is local and fast) so the run is reliably still going when the parent pulls the plug.
 *   node --import tsx crash-sync-child.ts <dataDir> <connectionId> <fetchDelayMs>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createCairn } from '../core/app/create-cairn';
import type { Connector, ConnectorInit } from '../core/connectors/connector';
import { createFolderConnector } from '../core/connectors/folder/folder-connector';
import { defaultConnectorFactories } from '../core/connectors/registry';
import { silentLogger } from '../core/logging/logger';

const [dataDir, connectionId, delay] = process.argv.slice(2);
if (!dataDir || !connectionId)
  throw new Error('usage: crash-sync-child.ts <dataDir> <connectionId> <fetchDelayMs>');
const fetchDelayMs = Number(delay ?? 50);

function slowFolder(init: ConnectorInit): Connector {
  const folder = createFolderConnector(init);
  return {
    platform: folder.platform,
    capabilities: folder.capabilities,
    validate: (signal) => folder.validate(signal),
    list: (signal) => folder.list(signal),
    search: (query, options) => folder.search(query, options),
    async fetch(ref, signal) {
      await sleep(fetchDelayMs, undefined, { signal });
      return folder.fetch(ref, signal);
    },
  };
}

const cairn = await createCairn({
  dataDir,
  env: {},
  scheduler: false,
  logger: silentLogger(),
  factories: { ...defaultConnectorFactories(), folder: slowFolder },
});
cairn.events.on('sync.progress', (progress) => process.stdout.write(`${JSON.stringify(progress)}\n`));
const started = await cairn.api.sync.start({ connectionId });
process.stdout.write(`${JSON.stringify({ started })}\n`);
await cairn.whenIdle();
process.stdout.write(`${JSON.stringify({ finished: true })}\n`);
await cairn.dispose();
