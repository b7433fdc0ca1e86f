/**
 * A DingTalk Stream connection that delivers events to Cairn (the export-finished event that
 * carries a document's Markdown, connectors.md §3.3). Wire format: stream-protocol.ts.
 *
 * Written for Cairn instead of using the npm `dingtalk-stream` SDK (docs/decisions/dingtalk-stream.md):
 * it opens lazily when the first listener subscribes and closes after `idleCloseMs` without one;
 * reconnects with exponential backoff and jitter, each time with a fresh single-use ticket; acks every
 * EVENT; answers SYSTEM ping; replaces the connection on SYSTEM disconnect; pings the socket itself
 * and drops it when no pong comes; and never logs the secret or the ticket URL.
 */
import type WebSocket from 'ws';
import { CairnError } from '../../errors';
import type { Logger } from '../../logging/logger';
import type { ExportEventSource, StreamEventListener } from './export-events';
import {
  eventAck,
  notHandledReply,
  openGateway,
  parseFrame,
  pingReply,
  streamUrl,
  type GatewayFailure,
  type StreamAck,
  type StreamFrame,
} from './stream-protocol';
import { dial, scrub } from './stream-socket';

export interface DingTalkStreamClientOptions {
  /** The API base URL; the gateway lives on it (https://api.dingtalk.com, a private deployment, or a fake). */
  baseUrl: string;
  /** The app key (Stream calls it clientId). */
  clientId: string;
  /** The app secret (clientSecret). */
  clientSecret: string;
  logger: Logger;
  /** Close the socket after this long without listeners. @default 30000 */
  idleCloseMs?: number;
  /** First reconnect delay; doubles per failed attempt, with jitter (half to all of it). @default 1000 */
  backoffBaseMs?: number;
  /** @default 60000 */
  backoffMaxMs?: number;
  /** After this many failed attempts in a row listeners hear the failure; reconnecting goes on. @default 3 */
  failAfterAttempts?: number;
  /** Client-side WebSocket ping interval (the Go SDK pings after 120 s idle, Python every 60 s). @default 30000 */
  keepAliveMs?: number;
  /** No pong this long after a ping: the connection is dead and is replaced. @default 10000 */
  deadAfterMs?: number;
  /** Gateway request and WebSocket handshake, each. @default 10000 */
  connectTimeoutMs?: number;
  /** @default 'cairn-dingtalk-stream/1' */
  ua?: string;
  /** @default Math.random */
  random?: () => number;
  fetchImpl?: typeof fetch;
}

interface Subscriber {
  listener: StreamEventListener;
  onFailure?: (error: CairnError) => void;
}

export class DingTalkStreamClient implements ExportEventSource {
  private readonly options: DingTalkStreamClientOptions;
  private readonly logger: Logger;
  private readonly subscribers = new Set<Subscriber>();
  private readonly readyWaiters = new Set<{ resolve: () => void; reject: (error: CairnError) => void }>();
  private socket: WebSocket | null = null;
  private open = false;
  /** True while the client wants a connection (listeners present, or within the idle grace). */
  private running = false;
  private disposed = false;
  private attempt = 0;
  /** Credentials refused: no retry until the next first listener. */
  private fatal: CairnError | null = null;
  /** Reported after `failAfterAttempts` failures; cleared by the next successful connection. */
  private failure: CairnError | null = null;
  private connecting: AbortController | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private keepAliveTimer: NodeJS.Timeout | null = null;
  private deadTimer: NodeJS.Timeout | null = null;
  /** Connections opened so far (tests and logs). */
  connections = 0;

  constructor(options: DingTalkStreamClientOptions) {
    this.options = options;
    this.logger = options.logger;
  }

  get connected(): boolean {
    return this.open;
  }

  subscribe(listener: StreamEventListener, onFailure?: (error: CairnError) => void): () => void {
    const subscriber: Subscriber = { listener, onFailure };
    if (this.disposed) {
      onFailure?.(new CairnError('CANCELLED', 'The DingTalk Stream connection was closed.'));
      return () => {};
    }
    if (this.subscribers.size === 0 && this.fatal) {
      // A new sync tries the credentials again (they may have been fixed in the console meanwhile).
      this.fatal = null;
      this.attempt = 0;
    }
    this.subscribers.add(subscriber);
    this.clearTimer('idleTimer');
    this.start();
    return () => {
      if (!this.subscribers.delete(subscriber) || this.subscribers.size > 0 || this.disposed) return;
      this.idleTimer = setTimeout(() => this.stop('idle'), this.options.idleCloseMs ?? 30_000);
      this.idleTimer.unref();
    };
  }

  ready(signal?: AbortSignal): Promise<void> {
    if (this.open) return Promise.resolve();
    const known = this.disposed
      ? new CairnError('CANCELLED', 'The DingTalk Stream connection was closed.')
      : (this.fatal ?? this.failure);
    if (known) return Promise.reject(known);
    if (signal?.aborted) return Promise.reject(new CairnError('CANCELLED', 'Cancelled.'));
    this.start();
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => settle(resolve),
        reject: (error: CairnError) => settle(() => reject(error)),
      };
      const onAbort = () => waiter.reject(new CairnError('CANCELLED', 'Cancelled.'));
      const settle = (done: () => void) => {
        this.readyWaiters.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
        done();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.readyWaiters.add(waiter);
    });
  }

  /** Closes the socket, stops reconnecting and fails every waiter. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stop('disposed');
    const error = new CairnError('CANCELLED', 'The DingTalk Stream connection was closed.');
    for (const subscriber of [...this.subscribers]) subscriber.onFailure?.(error);
    this.subscribers.clear();
  }

  private start(): void {
    if (this.running || this.disposed || this.fatal) return;
    this.running = true;
    void this.connect();
  }

  private stop(reason: 'idle' | 'disposed'): void {
    if (reason === 'idle' && this.subscribers.size > 0) return;
    this.running = false;
    this.connecting?.abort();
    this.connecting = null;
    for (const name of ['reconnectTimer', 'idleTimer'] as const) this.clearTimer(name);
    this.closeSocket(1000, reason === 'idle' ? 'idle' : 'closing');
    const error = new CairnError('CANCELLED', 'The DingTalk Stream connection was closed.');
    for (const waiter of [...this.readyWaiters]) waiter.reject(error);
    if (reason === 'idle') this.logger.debug('DingTalk Stream closed after being idle');
  }

  private async connect(): Promise<void> {
    this.reconnectTimer = null;
    const controller = new AbortController();
    this.connecting = controller;
    const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
    try {
      const ticket = await openGateway({
        ...this.options,
        ua: this.options.ua ?? 'cairn-dingtalk-stream/1',
        signal: controller.signal,
        timeoutMs,
        fetchImpl: this.options.fetchImpl,
      });
      const socket = await dial(streamUrl(ticket), timeoutMs, controller.signal);
      if (controller.signal.aborted || !this.running) {
        socket.close(1000, 'closing');
        return;
      }
      this.adopt(socket, new URL(ticket.endpoint).host);
    } catch (error) {
      if (controller.signal.aborted || !this.running) return;
      this.onConnectFailed(error);
    } finally {
      if (this.connecting === controller) this.connecting = null;
    }
  }

  private adopt(socket: WebSocket, host: string): void {
    this.socket = socket;
    this.open = true;
    this.connections += 1;
    this.attempt = 0;
    this.failure = null;
    this.logger.info('DingTalk Stream connected', { host, connection: this.connections });
    for (const waiter of [...this.readyWaiters]) waiter.resolve();
    socket.on('message', (data) => this.onMessage(socket, data.toString()));
    socket.on('pong', () => this.clearTimer('deadTimer'));
    socket.on('error', (error) =>
      this.logger.warn('DingTalk Stream socket error', { reason: scrub(error.message) }),
    );
    socket.on('close', (code) => this.onClosed(socket, code));
    this.keepAliveTimer = setInterval(() => this.keepAlive(socket), this.options.keepAliveMs ?? 30_000);
  }

  private keepAlive(socket: WebSocket): void {
    if (this.deadTimer || socket !== this.socket) return;
    socket.ping();
    this.deadTimer = setTimeout(() => {
      this.deadTimer = null;
      this.logger.warn('DingTalk Stream did not answer a ping; reconnecting');
      socket.terminate();
    }, this.options.deadAfterMs ?? 10_000);
  }

  private onClosed(socket: WebSocket, code: number): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.open = false;
    this.clearTimer('keepAliveTimer');
    this.clearTimer('deadTimer');
    if (!this.running) return;
    // Events pushed meanwhile are not lost: DingTalk redelivers what was not acked.
    this.logger.info('DingTalk Stream connection closed; reconnecting', { code });
    this.scheduleReconnect(this.backoff());
  }

  private onMessage(socket: WebSocket, raw: string): void {
    this.clearTimer('deadTimer'); // any frame proves the connection alive
    const frame = parseFrame(raw);
    if (!frame)
      return void this.logger.warn('DingTalk Stream sent a frame that is not JSON; ignored', {
        length: raw.length,
      });
    if (frame.type === 'SYSTEM') return this.onSystem(socket, frame);
    if (frame.type === 'EVENT') return this.onEvent(socket, frame);
    this.send(socket, notHandledReply(frame));
  }

  private onSystem(socket: WebSocket, frame: StreamFrame): void {
    if (frame.headers.topic === 'ping') return this.send(socket, pingReply(frame));
    if (frame.headers.topic === 'disconnect') {
      // The server closes this connection after ~10 s of silence: move to a new one now (new ticket).
      this.logger.info('DingTalk Stream asked to reconnect', { reason: safeReason(frame.data) });
      this.closeSocket(1000, 'reconnecting');
      if (this.running) this.scheduleReconnect(0);
    }
  }

  private onEvent(socket: WebSocket, frame: StreamFrame): void {
    const event = { eventType: frame.headers.eventType ?? frame.headers.topic ?? '', data: frame.data };
    let taken = false;
    for (const { listener } of [...this.subscribers]) {
      try {
        if (listener(event) === true) taken = true;
      } catch (error) {
        this.logger.error('a DingTalk Stream listener failed', { eventType: event.eventType, error });
      }
    }
    this.send(socket, eventAck(frame, taken ? 'SUCCESS' : 'LATER', taken ? 'consumed' : 'not used by Cairn'));
  }

  private send(socket: WebSocket, reply: StreamAck): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(reply));
  }

  private onConnectFailed(error: unknown): void {
    const known = error instanceof CairnError ? (error as GatewayFailure) : null;
    const reason = scrub(known?.message ?? (error instanceof Error ? error.message : String(error)));
    if (known && known.retry === false) {
      this.fatal = new CairnError(known.code, reason);
      this.running = false;
      this.logger.warn('DingTalk Stream refused; not retrying', { reason });
      this.report(this.fatal);
      return;
    }
    this.attempt += 1;
    const delay = this.backoff();
    this.logger.warn('DingTalk Stream connection failed; retrying', {
      attempt: this.attempt,
      inMs: Math.round(delay),
      reason,
    });
    if (this.attempt >= (this.options.failAfterAttempts ?? 3)) {
      const code = known?.code ?? 'SOURCE_UNREACHABLE';
      // Exports still waiting will not get their events: say whether the connection was lost or never opened.
      const what =
        this.connections > 0
          ? 'The DingTalk Stream connection closed before the export events arrived and could not be reopened'
          : 'Could not open the DingTalk Stream connection';
      this.failure = new CairnError(code, `${what} (${this.attempt} attempts; last: ${reason}).`);
      this.report(this.failure);
    }
    this.scheduleReconnect(delay);
  }

  private report(error: CairnError): void {
    for (const waiter of [...this.readyWaiters]) waiter.reject(error);
    for (const subscriber of [...this.subscribers]) subscriber.onFailure?.(error);
  }

  /**
   * Base after a dropped connection or a first failure, doubling with each further failure, capped;
   * jittered (half to all of it) so many clients do not reconnect in step.
   */
  private backoff(): number {
    const base = this.options.backoffBaseMs ?? 1000;
    const ceiling = Math.min(this.options.backoffMaxMs ?? 60_000, base * 2 ** Math.max(0, this.attempt - 1));
    return ceiling * (0.5 + 0.5 * (this.options.random ?? Math.random)());
  }

  private scheduleReconnect(delayMs: number): void {
    this.clearTimer('reconnectTimer');
    this.reconnectTimer = setTimeout(() => void this.connect(), delayMs);
  }

  private closeSocket(code: number, reason: string): void {
    const socket = this.socket;
    this.socket = null;
    this.open = false;
    this.clearTimer('keepAliveTimer');
    this.clearTimer('deadTimer');
    if (socket && socket.readyState !== socket.CLOSED) socket.close(code, reason);
  }

  private clearTimer(name: 'reconnectTimer' | 'idleTimer' | 'keepAliveTimer' | 'deadTimer'): void {
    const timer = this[name];
    if (timer) clearTimeout(timer);
    this[name] = null;
  }
}

/** The `reason` of a disconnect frame, bounded (it is shown in a log line). */
function safeReason(data: string): string {
  try {
    const reason = (JSON.parse(data) as { reason?: unknown }).reason;
    return typeof reason === 'string' ? reason.slice(0, 200) : '';
  } catch {
    return '';
  }
}
