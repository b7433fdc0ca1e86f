/**
 * One racer in the "is Cairn running? else open it" race (instance/open-instance.race.test.ts):
 * waits until the instant the parent chose, opens Cairn the way every cairn command does, prints
 * who answered as one JSON line, and holds on until its stdin closes.
 *   node --import tsx instance-race-child.ts <dataDir> <startAtEpochMs>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { openCairnFromCli } from '../cli/open-cairn';

const [dataDir, startAt] = process.argv.slice(2);
if (!dataDir || !startAt) throw new Error('usage: instance-race-child.ts <dataDir> <startAtEpochMs>');
await sleep(Math.max(0, Number(startAt) - Date.now()));
try {
  const session = await openCairnFromCli({ dataDir: { path: dataDir, source: 'flag' }, env: {} });
  const status = await session.api.app.status();
  process.stdout.write(
    `${JSON.stringify({ pid: process.pid, via: session.answeredBy.via, answeredBy: session.answeredBy.pid, status: status.ok })}\n`,
  );
  process.stdin.on('end', () => void session.dispose().then(() => process.exit(0)));
  process.stdin.resume();
} catch (error) {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, error: String(error) })}\n`);
  process.exit(0);
}
