// Worker entry when Cairn runs from source (the `cairn` CLI from source, tests, `npm run bench`): a
// worker thread does not inherit the parent's tsx loader, so it registers its own before loading
// the TypeScript worker. The builds bundle the worker instead (out/main/extract-worker.js,
// out/cli/extract-worker.js), as they do the embedding worker.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../../../../tsconfig.json', import.meta.url)) });
await import('./extract-worker.ts');
