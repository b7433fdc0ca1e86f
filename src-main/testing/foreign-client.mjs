// A client run as ANOTHER user (instance-permissions.test.ts starts it through setpriv): plain
// JavaScript, so it needs nothing but node. Prints one JSON line saying what happened.
//   node foreign-client.mjs <socketPath> <infoFile>
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';

const [address, infoFile] = process.argv.slice(2);
const outcome = { uid: process.getuid(), readInfo: null, connect: null, received: '' };
try {
  await readFile(infoFile, 'utf8');
  outcome.readInfo = 'ok';
} catch (error) {
  outcome.readInfo = error.code;
}
await new Promise((resolve) => {
  const socket = connect(address);
  socket.on('connect', () => {
    outcome.connect = 'ok';
    // Without instance.json it can only guess the token.
    socket.write(
      `${JSON.stringify({ t: 'hello', v: 1, token: 'guessed-token-guessed-token', client: { kind: 'x', pid: process.pid } })}\n`,
    );
    socket.write(`${JSON.stringify({ t: 'call', id: 1, channel: 'app.status' })}\n`);
  });
  socket.on('data', (part) => (outcome.received += part.toString()));
  socket.on('error', (error) => (outcome.connect ??= error.code));
  socket.on('close', resolve);
  setTimeout(() => {
    socket.destroy();
    resolve();
  }, 5000);
});
process.stdout.write(`${JSON.stringify(outcome)}\n`);
