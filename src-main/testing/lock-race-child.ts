/**
 * One racer in the data-directory lock race (app/data-dir-lock.test.ts). It prints "ready" once it
 * is loaded, waits for the parent's "go" line on stdin (sent to every racer once all are ready, so
 * they ask for the lock together whatever the machine's load), prints its outcome as one JSON line,
 * and, if it won, holds the lock until its stdin closes.
 *   node --import tsx lock-race-child.ts <dataDir>
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { acquireDataDirLock } from '../core/app/data-dir';
import { CairnError } from '../core/errors';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: lock-race-child.ts <dataDir>');
const input = createInterface({ input: process.stdin });
const go = once(input, 'line');
process.stdout.write('ready\n');
await go;
try {
  const lock = await acquireDataDirLock(dataDir);
  process.stdout.write(`${JSON.stringify({ pid: process.pid, won: true })}\n`);
  input.once('close', () => void lock.release().then(() => process.exit(0)));
} catch (error) {
  process.stdout.write(
    `${JSON.stringify({ pid: process.pid, won: false, code: error instanceof CairnError ? error.code : String(error) })}\n`,
  );
  process.exit(0);
}
