/**
 * Where a worker thread's code is. Built (the app's bundles, the built CLI), the worker entry is
 * a JavaScript file emitted beside the bundle that holds this module; run from TypeScript source
 * (tests, `tsx`), it is the .ts entry, loaded through tsx inside the worker with the project's
 * tsconfig (for the `@shared/*` alias). One place decides, for every worker Cairn starts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's ESM API (its `import` export: the CommonJS one cannot be imported from an ES module worker). */
function tsxApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, unknown> })
    .exports;
  const entry = (exports['./esm/api'] as { import: { default: string } }).import.default;
  return pathToFileURL(join(dirname(manifest), entry)).href;
}

function findUp(start: string, name: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Starts the worker whose entry is `name` (without extension) beside the calling module (`from`,
 * its import.meta.url): `<name>.js` when built, else `<name>.ts` through tsx.
 */
export function startWorker(name: string, from: string, options: WorkerOptions = {}): Worker {
  const built = new URL(`./${name}.js`, from);
  if (existsSync(fileURLToPath(built))) return new Worker(built, options);
  const source = new URL(`./${name}.ts`, from);
  if (!existsSync(fileURLToPath(source)))
    throw new Error(`No worker entry ${name}.js or ${name}.ts beside ${fileURLToPath(from)}.`);
  const tsx = tsxApi(from);
  const tsconfig = findUp(dirname(fileURLToPath(from)), 'tsconfig.json');
  // tsx's hooks registered inside the worker thread apply to what that thread imports.
  const boot = `
    const api = await import(${JSON.stringify(tsx)});
    api.register(${JSON.stringify(tsconfig ? { tsconfig } : {})});
    await import(${JSON.stringify(source.href)});`;
  return new Worker(boot, { ...options, eval: true });
}
