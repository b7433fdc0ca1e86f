#!/usr/bin/env node
// The `cairn` command runs the TypeScript CLI straight from source through tsx, so `npx cairn`
// works right after `npm install` with no build step.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The tsconfig by path, not the caller's cwd: its `@shared/*` alias must resolve wherever `cairn` runs.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src-main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
