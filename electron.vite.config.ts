import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The CSP meta tag forbids inline scripts, which the dev server's React refresh preamble needs.
 * Built bundles (Electron and the headless host) keep the strict policy; only `electron-vite dev` drops it.
 */
function relaxCspForDevServer(): Plugin {
  return {
    name: 'cairn:relax-csp-for-dev-server',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, ''),
  };
}

/** One `@shared/*` alias for the typed contract, as tsconfig.base.json declares it for tsc, tsx and vitest. */
const sharedAlias = { '@shared': resolve(__dirname, 'src-shared') };

// electron-vite only auto-discovers src/main, src/preload and src/renderer, so every entry is explicit.
export default defineConfig({
  main: {
    resolve: { alias: sharedAlias },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          // Embedding in a worker thread (local models, a large sync): WorkerHost finds this file
          // beside the bundle that holds it (worker-host.ts defaultWorkerEntry).
          'embedding-worker': resolve(__dirname, 'src-main/core/workers/embedding-worker.ts'),
          // Heavy file readers (PDF.js) under a heap limit: ExtractorWorkers finds extract-worker.js
          // the same way (extractor-workers.ts defaultExtractWorkerEntry).
          'extract-worker': resolve(__dirname, 'src-main/core/connectors/folder/extract/extract-worker.ts'),
        },
        // Shared chunks beside the entries (not in chunks/): WorkerHost looks for
        // embedding-worker.js next to import.meta.url, whichever chunk its code ends up in.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    resolve: { alias: sharedAlias },
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-preload/index.ts') },
        // Sandboxed preloads cannot be ES modules: https://www.electronjs.org/docs/latest/tutorial/esm#preload-scripts
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    // Relative asset URLs: the same bundle loads from file:// in Electron and from the headless host.
    base: './',
    resolve: { alias: sharedAlias },
    plugins: [react(), relaxCspForDevServer()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
});
