#!/usr/bin/env node
// Builds the `cairn` command to out/cli/ (cli.js, embedding-worker.js, extract-worker.js, shared chunks): run by
// `npm run build` (so the desktop app ships it: Settings → AI tools launches `cairn mcp` from it)
// and by npm's `prepare` (so `cairn` is built right after `npm install`). Running from the build
// instead of transpiling the sources with tsx on every start is most of a command's start-up
// (docs/decisions/cli-startup.md). Dependencies stay in node_modules, as in the app's main bundle:
// PGlite loads its WebAssembly and extensions from files beside its own JavaScript.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir <dir>`: elsewhere (the built-CLI test builds its own copy); inside the checkout, so the
// bundle's imports still find node_modules.
const flag = process.argv.indexOf('--outdir');
const outdir = flag === -1 ? join(root, 'out', 'cli') : resolve(process.argv[flag + 1] ?? '');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // A production install has no build tools; bin/cairn.js then runs the sources through tsx.
  console.warn('build-cli: esbuild is not installed; `cairn` will run from source.');
  process.exit(0);
}

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
await esbuild.build({
  absWorkingDir: root,
  entryPoints: {
    cli: 'src-main/cli/run.ts',
    // WorkerHost starts embedding-worker.js from the directory of the chunk that holds it.
    'embedding-worker': 'src-main/core/workers/embedding-worker.ts',
    // ExtractorWorkers starts extract-worker.js (PDFs read under a heap limit) the same way.
    'extract-worker': 'src-main/core/connectors/folder/extract/extract-worker.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Node 20.10+ reads `with { type: 'json' }` (and requires it for a package whose main is JSON, like
  // stopwords-iso); esbuild's node20 table predates it and would strip the attribute from an external import.
  supported: { 'import-attributes': true },
  packages: 'external',
  alias: { '@shared': './src-shared' },
  chunkNames: '[name]-[hash]',
  sourcemap: 'linked',
  logLevel: 'warning',
});
await writeRankTable(esbuild, [
  outdir,
  // The app's main bundle embeds too (out/main, electron-vite): `npm run build` runs this after it.
  ...(flag === -1 && existsSync(join(root, 'out', 'main')) ? [join(root, 'out', 'main')] : []),
]);
// bin/cairn.js compares this stamp with the sources' times: a stale build is not run.
writeFileSync(join(outdir, 'built.json'), JSON.stringify({ builtAt: Date.now() }) + '\n');
console.log(`build-cli: ${outdir} in ${Math.round(performance.now() - started)} ms`);

/**
 * o200k_base.ranks beside the bundle: gpt-tokenizer's o200k_base vocabulary as the flat table
 * the built-in embedder's term prior reads in one go (src-main/core/embedding/rank-table.ts), made
 * from the installed gpt-tokenizer so both give the same tokens.
 */
async function writeRankTable(esbuild, dirs) {
  const bundled = await esbuild.build({
    entryPoints: [join(root, 'src-main/core/embedding/rank-table.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  const { RankTable } = await import(
    `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`
  );
  const { default: decoder } = await import('gpt-tokenizer/bpeRanks/o200k_base');
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules/gpt-tokenizer/package.json'), 'utf8'));
  const table = RankTable.build(decoder, version);
  for (const dir of dirs) writeFileSync(join(dir, 'o200k_base.ranks'), table);
}
