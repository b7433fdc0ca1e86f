/**
 * The process the crash harness (scripts/crash-harness.ts) kills at a random moment. Each mode is
 * one of the moments #25 names, through the real composition root on an on-disk data directory:
 *   first-open <dataDir> <folder>    creates the data directory, adds the folder, syncs it
 *   sync       <dataDir> <connId>    syncs the connection
 *   watch      <dataDir> <connId>    watches the folder (the parent edits it) and serves searches
 *   reembed    <dataDir> <model>     switches the semantic model to `model` of the fake embedding
 *                                    server whose base URL and key are in CAIRN_HARNESS_EMBED_URL
 *                                    and CAIRN_HARNESS_EMBED_KEY (a re-embed), waits for it
 * Prints "ready" once the data directory is open, then runs until done (or killed); the parent
 * checks what the kill left.
 *   node --import tsx crash-harness-child.ts <mode> <dataDir> <arg>
 */
import { createCairn } from '../core/app/create-cairn';
import { silentLogger } from '../core/logging/logger';
import { unwrap } from './integration-kit';

const [mode, dataDir, arg] = process.argv.slice(2);
if (!mode || !dataDir || !arg)
  throw new Error('usage: crash-harness-child.ts <first-open|sync|watch|reembed> <dataDir> <arg>');

const watching = mode === 'watch';
const cairn = await createCairn({
  dataDir,
  env: {},
  scheduler: false,
  watchFolders: watching,
  logger: silentLogger(),
});
process.stdout.write('ready\n');

if (mode === 'first-open') {
  const added = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'Notes',
      mode: 'rag',
      config: { path: arg, noWatch: true },
      secrets: {},
    }),
  );
  unwrap(await cairn.api.sync.start({ connectionId: added.id }));
} else if (mode === 'sync') {
  unwrap(await cairn.api.sync.start({ connectionId: arg }));
} else if (mode === 'reembed') {
  unwrap(
    await cairn.api.settings.update({
      embedding: {
        provider: 'custom',
        baseUrl: process.env.CAIRN_HARNESS_EMBED_URL ?? '',
        apiKey: process.env.CAIRN_HARNESS_EMBED_KEY ?? '',
        model: arg,
      },
    }),
  );
} else if (watching) {
  // Serves until killed: a search at a time, as a client of `cairn serve` would ask.
  for (;;) unwrap(await cairn.api.search.query({ query: '报销 expense', k: 10 }));
} else throw new Error(`unknown mode ${mode}`);
await cairn.whenIdle();
process.stdout.write('finished\n');
await cairn.dispose();
