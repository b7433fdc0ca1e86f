/**
 * One server-sent-events client. Events are written as they happen; a client that stops reading
 * (a frozen tab, a stalled proxy) would make Node buffer every later event in memory, so a client
 * is dropped once its backlog has stayed over a bound for a while (a burst that a reading client
 * takes in a moment is no reason), or at once past four times the bound. EventSource reconnects on its own (after the
 * `retry:` delay) and the renderer then fetches a fresh status snapshot before applying events
 * again (STYLE.md §8), so nothing it shows stays stale.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventBus } from '../core/events/event-bus';
import type { Logger } from '../core/logging/logger';

export interface EventStreamOptions {
  events: EventBus;
  heartbeatMs: number;
  /** Bytes written but not yet taken by the client (Node's buffer and the socket's) that it may keep. */
  maxBacklogBytes: number;
  /** How long the client may stay over the bound without draining. */
  stallMs: number;
  logger?: Logger;
  /** Called once when the stream ends, whoever ended it. */
  onClose: () => void;
}

export function serveEventStream(
  request: IncomingMessage,
  response: ServerResponse,
  headers: Record<string, string>,
  options: EventStreamOptions,
): void {
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
  });
  let open = true;
  /** Since when write() has said "buffer full" without a 'drain' since; null while keeping up. */
  let behindSince: number | null = null;
  response.on('drain', () => (behindSince = null));
  const send = (text: string) => {
    if (!open) return;
    if (!response.write(text)) behindSince ??= Date.now();
    // writableLength counts what Node holds for this response, its socket's buffer included.
    const backlog = response.writableLength;
    const stalled = behindSince !== null && Date.now() - behindSince >= options.stallMs;
    if (backlog > options.maxBacklogBytes && (stalled || backlog > 4 * options.maxBacklogBytes)) {
      options.logger?.warn(
        'event stream client is not reading: dropped (it reconnects and refetches status)',
        { backlogBytes: response.writableLength },
      );
      cleanup();
      response.destroy();
    }
  };
  const unsubscribe = options.events.onAny((name, payload) =>
    send(`data: ${JSON.stringify({ name, payload })}\n\n`),
  );
  // Comments keep proxies and idle timers from closing a quiet stream.
  const heartbeat = setInterval(() => send(': ping\n\n'), options.heartbeatMs);
  function cleanup() {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    unsubscribe();
    options.onClose();
  }
  request.on('close', cleanup);
  response.on('close', cleanup);
  send('retry: 2000\n\n');
}
