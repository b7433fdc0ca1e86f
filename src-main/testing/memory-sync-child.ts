/**
 * A process that syncs one folder through the real composition root and reports its peak memory,
 * for the tests that bound what one hostile file may cost (#25 items 0 and 5). Peak RSS is the
 * kernel's high-water mark for this process (getrusage ru_maxrss: the extract worker threads are
 * in it), so a test reads a measurement, never a timing.
 *   node --import tsx memory-sync-child.ts <dataDir> <folder>
 * Prints one JSON line: { run, maxRssMb, documents }.
 */
import { createCairn } from '../core/app/create-cairn';
import { silentLogger } from '../core/logging/logger';

const [dataDir, folder] = process.argv.slice(2);
if (!dataDir || !folder) throw new Error('usage: memory-sync-child.ts <dataDir> <folder>');

const cairn = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
const added = await cairn.api.connections.add({
  platform: 'folder',
  name: 'Hostile',
  mode: 'rag',
  config: { path: folder, noWatch: true },
  secrets: {},
});
if (!added.ok) throw new Error(added.error.message);
const started = await cairn.api.sync.start({ connectionId: added.value.id });
if (!started.ok) throw new Error(started.error.message);
await cairn.whenIdle();
const runs = await cairn.api.sync.runs({ connectionId: added.value.id, limit: 1 });
const connections = await cairn.api.connections.list();
await cairn.dispose();
process.stdout.write(
  `${JSON.stringify({
    run: runs.ok ? runs.value[0] : null,
    documents: connections.ok ? connections.value[0]?.documentCount : null,
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  })}\n`,
);
