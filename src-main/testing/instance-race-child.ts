/**
 * One racer in the "is Cairn running? else open it" race (instance/instance-processes.test.ts):
 * once loaded, says `{"ready":true}` and waits for a `go` line on stdin, so every racer starts at
 * the same instant however long its start-up took; then opens Cairn the way every cairn command
 * does, prints who answered as one JSON line, and holds on until its stdin closes.
 *   node --import tsx instance-race-child.ts <dataDir>
 */
import { createInterface } from 'node:readline';
import { openCairnFromCli } from '../cli/open-cairn';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: instance-race-child.ts <dataDir>');
const lines = createInterface({ input: process.stdin });
const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
await go;
try {
  const session = await openCairnFromCli({ dataDir: { path: dataDir, source: 'flag' }, env: {} });
  const status = await session.api.app.status();
  process.stdout.write(
    `${JSON.stringify({ pid: process.pid, via: session.answeredBy.via, answeredBy: session.answeredBy.pid, status: status.ok })}\n`,
  );
  lines.once('close', () => void session.dispose().then(() => process.exit(0)));
} catch (error) {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, error: String(error) })}\n`);
  process.exit(0);
}
