// Layer rules (STYLE.md §2): a file's folder says which APIs it may touch.
import tseslint from 'typescript-eslint';
import { coreLayersRule } from './scripts/eslint-core-layers.js';

const noElectronInCore = {
  name: 'electron',
  message: 'src-main/core runs in plain Node: reach Electron through an interface passed in.',
};
const noElectronShell = { group: ['**/electron/**'], message: 'Core must not import the Electron shell.' };
const noTestScaffolding = {
  group: ['**/testing/**'],
  message: 'Fakes and test kits (src-main/testing/) are for tests and `npm run fake:*` only.',
};
const nodeBuiltins = { group: ['node:*'], message: 'This layer must not touch Node APIs.' };

/**
 * The order of src-main/core's folders (docs/DESIGN.md draws it): each folder and the core folders
 * its files may import, besides its own and core's root files (errors.ts, validation.ts). A folder
 * not listed fails lint; a folder may import only folders listed before it, so the order has no
 * cycle (scripts/core-layers.test.ts checks both). '*': the composition root and the integration
 * tests, which may import any folder. Tests (*.test.ts) are not held to their folder's line: a test
 * may observe an effect through a folder above (a sync test searches what it wrote), and nothing
 * imports a test, so it adds no dependency to the order.
 */
const coreLayers = {
  text: [],
  db: [],
  logging: [],
  events: [],
  openai: [],
  auth: [],
  chunking: [],
  inference: [],
  secrets: ['logging'],
  connectors: ['logging', 'text'],
  embedding: ['openai', 'text'],
  index: ['chunking', 'connectors', 'db', 'embedding', 'logging', 'text'],
  workers: ['embedding', 'inference', 'text'],
  search: ['connectors', 'db', 'embedding', 'index', 'logging', 'text'],
  settings: ['db', 'events', 'index', 'secrets'],
  spaces: ['db', 'embedding', 'events', 'index', 'logging', 'secrets'],
  models: ['embedding', 'events', 'inference', 'logging', 'search', 'workers'],
  chat: ['db', 'events', 'logging', 'openai', 'search', 'text'],
  connections: ['auth', 'connectors', 'db', 'events', 'logging', 'search', 'secrets'],
  sync: [
    'chunking',
    'connections',
    'connectors',
    'db',
    'embedding',
    'events',
    'index',
    'logging',
    'spaces',
    'text',
    'workers',
  ],
  app: '*',
  integration: '*',
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src-main/core/**/*.ts'],
    ignores: ['src-main/core/**/*.test.ts', 'src-main/core/**/*.bench.ts'],
    plugins: { cairn: { rules: { 'core-layers': coreLayersRule } } },
    rules: { 'cairn/core-layers': ['error', { layers: coreLayers }] },
  },
  {
    // The composition root reads as a list of wiring steps (create-cairn.ts, wire-*.ts): a function
    // that grows past a screen is a step that wants splitting (docs/DESIGN.md).
    files: ['src-main/core/app/**/*.ts'],
    ignores: ['src-main/core/app/**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
  },
  {
    // The sync engine runs phases that live in their own modules (listing, the document pipeline,
    // the run-outcome classifier): it stays short enough to read as the order of those phases.
    files: ['src-main/core/sync/sync-engine.ts'],
    rules: { 'max-lines': ['error', { max: 200, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: [
      'src-main/core/**/*.ts',
      'src-main/cli/**/*.ts',
      'src-main/host/**/*.ts',
      'src-main/transport/**/*.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectronInCore], patterns: [noElectronShell] }] },
  },
  {
    // Production code never reaches test scaffolding (STYLE.md §16): fakes and kits stay out of the app bundle.
    files: ['src-main/**/*.ts'],
    ignores: [
      'src-main/testing/**',
      'src-main/**/*.test.ts',
      'src-main/**/*.bench.ts',
      'src-main/electron/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noElectronInCore], patterns: [noElectronShell, noTestScaffolding] },
      ],
    },
  },
  {
    files: ['src-main/electron/**/*.ts'],
    ignores: ['src-main/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noTestScaffolding] }] },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'src-shared holds types and pure constants only.' },
            { name: 'react', message: 'src-shared holds types and pure constants only.' },
          ],
          patterns: [
            nodeBuiltins,
            {
              group: ['**/src-main/**', '**/src-renderer/**', '**/src-preload/**'],
              message: 'src-shared depends on nothing.',
            },
          ],
        },
      ],
    },
  },
  { files: ['src-renderer/**/*.{ts,tsx}'], rules: rendererImports() },
  {
    // Translation is pure (a language and a key): the store and components both use it.
    files: ['src-renderer/i18n/**/*.ts'],
    rules: rendererImports(
      [{ name: 'react', message: 'i18n is pure: the React hooks are in hooks/use-t.ts.' }],
      [
        {
          group: ['**/store/**', '**/hooks/**', '**/components/**'],
          message: 'i18n depends on no other renderer folder.',
        },
      ],
    ),
  },
  {
    // The store is the model under the views: components and hooks read it, never the other way.
    files: ['src-renderer/store/**/*.{ts,tsx}'],
    ignores: ['src-renderer/**/*.test.{ts,tsx}'],
    rules: rendererImports(
      [],
      [
        {
          group: ['**/components/**', '**/hooks/**'],
          message: 'The store does not import views or their hooks.',
        },
      ],
    ),
  },
);

/** The renderer's import bans (sandboxed, no Node, no main), plus a folder's own. */
function rendererImports(paths = [], patterns = []) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          { name: 'electron', message: 'The renderer is sandboxed: use the api from the preload.' },
          ...paths,
        ],
        patterns: [
          nodeBuiltins,
          {
            group: ['**/src-main/**', '**/src-preload/**'],
            message: 'The renderer reaches main only through the typed api.',
          },
          ...patterns,
        ],
      },
    ],
  };
}
