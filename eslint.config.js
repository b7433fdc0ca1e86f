// Layer rules (STYLE.md §2): a file's folder says which APIs it may touch.
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*'], message: 'This layer must not touch Node APIs.' };

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
    files: [
      'src-main/core/**/*.ts',
      'src-main/cli/**/*.ts',
      'src-main/host/**/*.ts',
      'src-main/transport/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'src-main/core runs in plain Node: reach Electron through an interface passed in.',
            },
          ],
          patterns: [{ group: ['**/electron/**'], message: 'Core must not import the Electron shell.' }],
        },
      ],
    },
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
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer is sandboxed: use the api from the preload.' }],
          patterns: [
            nodeBuiltins,
            {
              group: ['**/src-main/**', '**/src-preload/**'],
              message: 'The renderer reaches main only through the typed api.',
            },
          ],
        },
      ],
    },
  },
);
