/**
 * The Stream-mode half of the DingTalk fake (stream-protocol.ts has the sources): the gateway
 * POST /v1.0/gateway/connections/open (checks clientId/clientSecret, issues single-use tickets valid
 * 90 s) and a real WebSocket endpoint on the same 127.0.0.1 port that pushes EVENT frames, sends
 * SYSTEM ping and disconnect frames, and redelivers events that were not acked SUCCESS.
 *
 * Not imitated: the gateway's exact error codes for refused credentials ([U]: the fake answers 400
 * `invalidClientSecret`), CALLBACK topics, event subscriptions chosen per event type (a fake app
 * either subscribed to the export event or not: `subscribed`), the real redelivery schedule (DingTalk
 * retries for a while; the fake after `redeliverAfterMs`, up to 20 times), and the server-side idle timeout.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { readJson, sendJson } from './dingtalk-ima-faults';

export interface StreamAckRecord {
  messageId: string;
  code: number;
  status: string | null;
}

export interface DingTalkStreamFakeControl {
  /** False: the app did not subscribe to the export event, so export events are never pushed. @default true */
  subscribed: boolean;
  /** Pause before an event that was not acked SUCCESS is pushed again. @default 300 */
  redeliverAfterMs: number;
  /** Pushes any event (its data serialised as the frame's JSON string), as DingTalk would. */
  push(eventType: string, data: unknown): void;
  /** The next `times` gateway calls refuse the credentials (as a wrong secret would). */
  refuseGateway(times?: number): void;
  /** Closes every Stream socket abruptly (a network drop): no close frame. */
  dropSockets(): void;
  /** Sends SYSTEM disconnect on every socket and closes them `afterMs` later, as the server does. */
  sendDisconnect(afterMs?: number): void;
  /** Sends SYSTEM ping frames; resolves with the number of replies that echoed the opaque. */
  ping(timeoutMs?: number): Promise<number>;
  /** Stops answering WebSocket pings (a half-dead connection). */
  freeze(frozen: boolean): void;
  /** Acks received for EVENT frames, oldest first. */
  readonly acks: StreamAckRecord[];
  /** Every ticket issued, oldest first (tests grep logs for them). */
  issuedTickets(): string[];
  /** Sockets accepted so far, and those open now. */
  connectionsAccepted(): number;
  openSockets(): number;
  /** Events waiting for a socket or for an ack. */
  undelivered(): number;
}

interface PendingEvent {
  messageId: string;
  eventType: string;
  data: string;
  deliveries: number;
  timer: NodeJS.Timeout | null;
}

export interface StreamFake {
  control: DingTalkStreamFakeControl;
  /** Serves the gateway route (called by the fake's HTTP handler). */
  openConnection(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void>;
  /** Pushes an event to one open socket (queued until one is open), redelivering until acked. */
  publish(eventType: string, data: string): void;
  /** Serves the WebSocket endpoint on the fake's HTTP server. */
  attach(server: Server): void;
  close(): void;
}

const TICKET_LIFETIME_MS = 90_000;
const MAX_DELIVERIES = 20;

export function createStreamFake(credentials: { appKey: string; appSecret: string }): StreamFake {
  const wss = new WebSocketServer({ noServer: true, autoPong: false });
  const tickets = new Map<string, number>();
  const issued: string[] = [];
  const sockets = new Set<WebSocket>();
  const pending = new Map<string, PendingEvent>();
  const acks: StreamAckRecord[] = [];
  const pingWaiters = new Map<string, () => void>();
  const timers = new Set<NodeJS.Timeout>();
  let refusals = 0;
  let accepted = 0;
  let frozen = false;

  function later(ms: number, work: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, ms);
    timers.add(timer);
    return timer;
  }

  function frame(type: string, headers: Record<string, string>, data: string): string {
    return JSON.stringify({
      specVersion: '1.0',
      type,
      headers: { contentType: 'application/json', time: String(Date.now()), ...headers },
      data,
    });
  }

  /** DingTalk picks one of the app's open connections at random for each push. */
  function deliver(event: PendingEvent): void {
    event.timer = null;
    const open = [...sockets].filter((socket) => socket.readyState === socket.OPEN);
    if (open.length === 0) return; // waits for the next connection
    const socket = open[Math.floor(Math.random() * open.length)]!;
    event.deliveries += 1;
    socket.send(
      frame(
        'EVENT',
        {
          appId: 'fake-app',
          connectionId: 'fake',
          messageId: event.messageId,
          topic: '*',
          eventType: event.eventType,
          eventId: randomUUID(),
          eventBornTime: String(Date.now()),
        },
        event.data,
      ),
    );
    event.timer = later(control.redeliverAfterMs, () => {
      if (!pending.has(event.messageId)) return;
      if (event.deliveries >= MAX_DELIVERIES) return void pending.delete(event.messageId);
      deliver(event);
    });
  }

  function onReply(raw: string): void {
    let reply: { code?: number; headers?: { messageId?: string }; data?: string };
    try {
      reply = JSON.parse(raw) as typeof reply;
    } catch {
      return;
    }
    const messageId = reply.headers?.messageId ?? '';
    const waiter = pingWaiters.get(messageId);
    if (waiter) {
      if (typeof reply.data === 'string' && reply.data.includes(messageId)) waiter();
      return;
    }
    const event = pending.get(messageId);
    if (!event) return;
    let status: string | null = null;
    try {
      status = (JSON.parse(reply.data ?? '') as { status?: string }).status ?? null;
    } catch {
      status = null;
    }
    acks.push({ messageId, code: reply.code ?? 0, status });
    if (reply.code === 200 && status === 'SUCCESS') {
      if (event.timer) clearTimeout(event.timer);
      pending.delete(messageId);
    }
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const ticket = url.searchParams.get('ticket') ?? '';
    const expires = tickets.get(ticket);
    if (url.pathname !== '/connect' || expires === undefined || expires < Date.now()) {
      socket.end(
        'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"code":"invalidTicket","message":"ticket is invalid or expired"}',
      );
      return;
    }
    tickets.delete(ticket); // single-use
    wss.handleUpgrade(req, socket, head, (ws) => {
      accepted += 1;
      sockets.add(ws);
      ws.on('ping', (data) => {
        if (!frozen) ws.pong(data);
      });
      ws.on('message', (data) => onReply(data.toString()));
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', () => sockets.delete(ws));
      for (const event of pending.values()) if (!event.timer) deliver(event);
    });
  }

  function publish(eventType: string, data: string): void {
    if (!control.subscribed) return;
    const event: PendingEvent = {
      messageId: `${randomBytes(4).toString('hex')}_${Date.now().toString(16)}`,
      eventType,
      data,
      deliveries: 0,
      timer: null,
    };
    pending.set(event.messageId, event);
    deliver(event);
  }

  const control: DingTalkStreamFakeControl = {
    subscribed: true,
    redeliverAfterMs: 300,
    push: (eventType, data) => publish(eventType, typeof data === 'string' ? data : JSON.stringify(data)),
    refuseGateway: (times = 1) => void (refusals += times),
    dropSockets() {
      for (const socket of sockets) socket.terminate();
    },
    sendDisconnect(afterMs = 200) {
      for (const socket of [...sockets]) {
        socket.send(
          frame(
            'SYSTEM',
            { messageId: randomUUID(), topic: 'disconnect' },
            JSON.stringify({ reason: 'persistent connection is timeout' }),
          ),
        );
        later(afterMs, () => socket.close(1000, 'disconnect'));
      }
    },
    ping(timeoutMs = 1000) {
      const replies = [...sockets].map(
        (socket) =>
          new Promise<number>((resolve) => {
            const messageId = randomUUID();
            const timer = later(timeoutMs, () => {
              pingWaiters.delete(messageId);
              resolve(0);
            });
            pingWaiters.set(messageId, () => {
              clearTimeout(timer);
              pingWaiters.delete(messageId);
              resolve(1);
            });
            socket.send(frame('SYSTEM', { messageId, topic: 'ping' }, JSON.stringify({ opaque: messageId })));
          }),
      );
      return Promise.all(replies).then((counts) => counts.reduce((a, b) => a + b, 0));
    },
    freeze: (value) => void (frozen = value),
    acks,
    issuedTickets: () => [...issued],
    connectionsAccepted: () => accepted,
    openSockets: () => [...sockets].filter((socket) => socket.readyState === socket.OPEN).length,
    undelivered: () => pending.size,
  };

  return {
    control,
    async openConnection(req, res, origin) {
      const body = (await readJson(req)) as
        { clientId?: string; clientSecret?: string; subscriptions?: unknown } | undefined;
      if (
        refusals > 0 ||
        body?.clientId !== credentials.appKey ||
        body.clientSecret !== credentials.appSecret
      ) {
        refusals = Math.max(0, refusals - 1);
        return sendJson(res, 400, {
          code: 'invalidClientSecret',
          message: 'clientId or clientSecret is invalid.',
          requestid: randomUUID(),
        });
      }
      if (!Array.isArray(body.subscriptions) || body.subscriptions.length === 0)
        return sendJson(res, 400, {
          code: 'invalidParameter.subscriptions',
          message: 'subscriptions is mandatory.',
        });
      // Without Accept: application/json the gateway answers XML (a comment in the official Node SDK).
      if (!String(req.headers.accept ?? '').includes('application/json'))
        return void res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end('<OpenConnectionResponse/>');
      const ticket = randomUUID();
      tickets.set(ticket, Date.now() + TICKET_LIFETIME_MS);
      issued.push(ticket);
      sendJson(res, 200, { endpoint: `${origin.replace(/^http/, 'ws')}/connect`, ticket });
    },
    publish,
    attach(server) {
      server.on('upgrade', onUpgrade);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const event of pending.values()) if (event.timer) clearTimeout(event.timer);
      pending.clear();
      for (const socket of sockets) socket.terminate();
      wss.close();
    },
  };
}
