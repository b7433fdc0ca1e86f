/**
 * One racer in the data-directory lock race (app/data-dir-lock.test.ts). It sleeps until the
 * instant the parent chose, so every racer asks for the lock within the same millisecond or two,
 * prints its outcome as one JSON line, and, if it won, holds the lock until its stdin closes.
 *   node --import tsx lock-race-child.ts <dataDir> <startAtEpochMs>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireDataDirLock } from '../core/app/data-dir';
import { CairnError } from '../core/errors';

const [dataDir, startAt] = process.argv.slice(2);
if (!dataDir || !startAt) throw new Error('usage: lock-race-child.ts <dataDir> <startAtEpochMs>');
const lateByMs = Date.now() - Number(startAt);
await sleep(Math.max(0, Number(startAt) - Date.now()));
try {
  const lock = await acquireDataDirLock(dataDir);
  process.stdout.write(`${JSON.stringify({ pid: process.pid, won: true, lateByMs })}\n`);
  process.stdin.on('end', () => void lock.release().then(() => process.exit(0)));
  process.stdin.resume();
} catch (error) {
  process.stdout.write(
    `${JSON.stringify({ pid: process.pid, won: false, lateByMs, code: error instanceof CairnError ? error.code : String(error) })}\n`,
  );
  process.exit(0);
}
