#!/usr/bin/env node
// The `cairn` command runs the TypeScript CLI straight from source through tsx, so `npx cairn`
// works right after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src-main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
