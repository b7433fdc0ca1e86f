/**
 * The `cairn` process: runs the command line and sets the exit code. Entry of the built CLI
 * (out/cli/cli.js, scripts/build-cli.mjs) and, from source, of bin/cairn.js through tsx.
 */
import { main } from './main';

process.exitCode = await main(process.argv.slice(2));
