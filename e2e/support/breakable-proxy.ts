/**
 * A pass-through HTTP proxy in front of the headless host that a test can cut, as a network drop
 * would: both sockets of every open /api/events stream are destroyed (no end of stream), and until
 * `restore()` every new request is refused the same way. The page's EventSource keeps retrying on
 * its own (the host's `retry:`) and comes back once the proxy is restored.
 * (Chromium's offline emulation leaves an open stream to 127.0.0.1 untouched, so it cannot do this.)
 *
 * The host accepts only its own Host and Origin (request-guard.ts), so the proxy rewrites them.
 */
import {
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BreakableProxy {
  /** The host's page address (token included), through the proxy. */
  url: string;
  /** Event streams open now. */
  openEventStreams(): number;
  /** Event streams ever opened (a reconnect opens one more). */
  eventStreamsOpened(): number;
  /** Destroys every open event stream's sockets and refuses every request until `restore()`; returns how many streams were cut. */
  cut(): number;
  restore(): void;
  close(): Promise<void>;
}

export async function startBreakableProxy(hostUrl: string): Promise<BreakableProxy> {
  const target = new URL(hostUrl);
  const streams = new Set<{ response: ServerResponse; upstream: ClientRequest }>();
  let opened = 0;
  let down = false;

  function forward(request: IncomingMessage, response: ServerResponse): void {
    if (down) return void request.socket.destroy();
    const headers = {
      ...request.headers,
      host: target.host,
      ...(request.headers.origin ? { origin: target.origin } : {}),
    };
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
    if (!request.url?.startsWith('/api/events')) return;
    const stream = { response, upstream };
    streams.add(stream);
    opened += 1;
    response.on('close', () => {
      streams.delete(stream);
      upstream.destroy();
    });
  }

  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}${target.search}`,
    openEventStreams: () => streams.size,
    eventStreamsOpened: () => opened,
    cut() {
      down = true;
      const count = streams.size;
      for (const { response, upstream } of streams) {
        response.socket?.destroy();
        upstream.destroy();
      }
      streams.clear();
      return count;
    },
    restore: () => void (down = false),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
