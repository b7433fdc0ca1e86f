import { connect, type Socket } from 'node:net';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView } from '@shared/models';
import { EventBus } from '../core/events/event-bus';
import { createLogger } from '../core/logging/logger';
import { startHttpHost, type HttpHost } from './http-host';

let host: HttpHost;
const events = new EventBus();
const logLines: string[] = [];

beforeAll(async () => {
  host = await startHttpHost({
    api: {} as never,
    events,
    rendererDir: null,
    maxEventBacklogBytes: 256 * 1024,
    eventStallMs: 300,
    heartbeatMs: 60_000,
    logger: createLogger({ level: 'debug', sink: (line) => void logLines.push(line) }),
  });
});

afterAll(async () => {
  await host.close();
});

/** A raw event-stream client on a real socket; `received` grows while it reads. */
function streamClient(): {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  ready: Promise<void>;
} {
  const socket = connect(host.port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (part: string) => (text += part));
  socket.write(`GET /api/events?token=${host.token} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`);
  const ready = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed, ready };
}

/** A `connections.changed` event of about `bytes` bytes. */
function bulkyEvent(bytes: number, marker: string): ConnectionView[] {
  return [{ id: marker, name: 'x'.repeat(bytes) } as ConnectionView];
}

describe('event stream backpressure', () => {
  it(
    'drops a client that stops reading once its backlog passes the bound, while a reading client keeps every event',
    { timeout: 60_000 },
    async () => {
      const slow = streamClient();
      const reader = streamClient();
      await Promise.all([slow.ready, reader.ready]);
      slow.socket.pause();

      // Kernel socket buffers absorb a few MB first; then Node's buffer for the slow client grows.
      let sent = 0;
      while (!logLines.some((line) => line.includes('dropped')) && sent < 64 * 1024 * 1024) {
        // Bursts of 128 KiB: below the bound, so only a client that stops reading falls behind for long.
        for (let i = 0; i < 2; i++) events.emit('connections.changed', bulkyEvent(64 * 1024, `bulk-${sent}`));
        sent += 2 * 64 * 1024;
        await yieldToLoop();
        // The reading client keeps up, as a live tab does.
        while (reader.socket.readableLength > 0) await yieldToLoop();
      }
      events.emit('connections.changed', bulkyEvent(10, 'after-the-drop'));
      slow.socket.resume();
      await slow.closed;
      const deadline = Date.now() + 10_000;
      while (!reader.received().includes('after-the-drop') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect({
        dropped: logLines.filter((line) => line.includes('event stream client is not reading')).length,
        // The bound is small against what was sent: memory did not grow with the backlog.
        sentMoreThanBound: sent > 4 * 256 * 1024,
        slowGotTheLast: slow.received().includes('after-the-drop'),
        readerGotTheLast: reader.received().includes('after-the-drop'),
        readerOpen: !reader.socket.destroyed,
      }).toEqual({
        dropped: 1,
        sentMoreThanBound: true,
        slowGotTheLast: false,
        readerGotTheLast: true,
        readerOpen: true,
      });
      reader.socket.destroy();
    },
  );
});
