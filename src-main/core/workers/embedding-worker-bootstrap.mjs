// Worker entry when Cairn runs from source (the `cairn` CLI, tests, `npm run bench`): a worker
// thread does not inherit the parent's tsx loader, so it registers its own before loading the
// TypeScript worker. The Electron build bundles the worker instead (out/main/embedding-worker.js).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)) });
await import('./embedding-worker.ts');
