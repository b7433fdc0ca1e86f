/**
 * `npm run fake:hub`: a local model hub (Hugging Face resolve layout, redirects, ETag, Range, 404)
 * serving the tiny test model the project builds (scripts/models/build_models.py). Prints its
 * mirror URL, the test model ids, and a `cairn models pull … --mirror …` line that works.
 * The tiny model is not in the built-in catalogue: the printed CAIRN_MODEL_CATALOG file adds it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFakeHub, type FakeHub } from './fake-hub';
import { REPO_ROOT } from '../models/test-models';
import {
  TINY_COMMIT,
  TINY_EMBEDDER,
  TINY_REPO,
  TINY_RERANKER,
  tinyHubRepo,
  writeTinyCatalog,
} from '../models/tiny-catalog';

export async function main(out: NodeJS.WritableStream = process.stdout): Promise<FakeHub> {
  const hub = await startFakeHub({ repos: [tinyHubRepo()] });
  const dir = join(REPO_ROOT, '.cache', 'fake-hub');
  mkdirSync(dir, { recursive: true });
  const catalog = writeTinyCatalog(join(dir, 'catalog.json'));
  out.write(
    [
      `Fake model hub (Hugging Face layout) listening at ${hub.url}`,
      `  mirror URL: ${hub.url}`,
      `  repository: ${TINY_REPO} @ ${TINY_COMMIT}`,
      `  test models: ${TINY_EMBEDDER} (embedder), ${TINY_RERANKER} (reranker)`,
      `  catalogue entries for them: ${catalog}`,
      '',
      'Download the test model from it:',
      `  CAIRN_MODEL_CATALOG=${catalog} npx cairn models pull ${TINY_EMBEDDER} --mirror ${hub.url}`,
      'Then use it:',
      `  CAIRN_MODEL_CATALOG=${catalog} CAIRN_EMBED_PROVIDER=local CAIRN_EMBED_MODEL=${TINY_EMBEDDER} npx cairn search "汽车坏了"`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  return hub;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main().then((hub) => {
    const stop = () => void hub.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
