/**
 * A client of the running instance: connects to the data directory's socket, shows the token
 * from instance.json, then calls contract methods and receives pushed events. Nothing here opens
 * the database, so a command answered by a running instance never loads PGlite.
 */
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { fail, type Result } from '@shared/errors';
import { assertOwnedByUser } from '../core/app/private-data-dir';
import { CairnError } from '../core/errors';
import { EventBus } from '../core/events/event-bus';
import { instanceEndpoint } from './endpoint';
import {
  encodeFrame,
  lineReader,
  parseInstanceFile,
  PROTOCOL_VERSION,
  type ClientFrame,
  type InstanceInfo,
  type ServerFrame,
} from './protocol';

export interface InstanceClient {
  instance: InstanceInfo;
  /** Events the instance pushes (sync progress, chat tokens), as on an in-process bus. */
  events: EventBus;
  /** One contract call; aborting `signal` asks the instance to stop it (the answer is then CANCELLED). */
  call(channel: string, input: unknown, signal?: AbortSignal): Promise<Result<unknown>>;
  /** Asks the holder to hand the data directory over (cli and mcp holders do; the app does not). */
  requestYield(): Promise<boolean>;
  isOpen(): boolean;
  /** Resolves with the reason once the connection has ended, from either side. */
  closed: Promise<string>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Named in the instance's log. */
  clientKind: string;
  /** How long the instance may take to say welcome (its event loop may be busy writing). @default 10000 */
  timeoutMs?: number;
}

/**
 * Connects to the instance that holds `dataDir`, or returns null when none listens (no
 * instance.json, or a socket nobody accepts on: a holder that crashed). Throws PERMISSION_DENIED
 * when the instance refuses us or belongs to another user.
 */
export async function connectToInstance(
  dataDir: string,
  options: ConnectOptions,
): Promise<InstanceClient | null> {
  const endpoint = instanceEndpoint(dataDir);
  // Nothing is read from, or sent to, what another user put there: the token in a planted
  // instance.json would open a planted socket, which would then receive every call (credentials too).
  assertOwnedByUser(dataDir, 'data directory', { followLinks: true });
  assertOwnedByUser(endpoint.infoFile, 'instance file');
  if (endpoint.isFile) {
    assertOwnedByUser(dirname(endpoint.address), 'instance socket folder', { followLinks: true });
    assertOwnedByUser(endpoint.address, 'instance socket');
  }
  let text: string;
  try {
    text = await readFile(endpoint.infoFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new CairnError(
      'PERMISSION_DENIED',
      `Cannot read ${endpoint.infoFile}: ${(error as Error).message}`,
    );
  }
  let file;
  try {
    file = parseInstanceFile(JSON.parse(text));
  } catch {
    return null; // half written by a holder that crashed mid-write: as if none
  }
  if (!file) return null;

  const socket = await new Promise<Socket | null>((resolve, reject) => {
    const attempt = connect(endpoint.address);
    attempt.once('connect', () => resolve(attempt));
    attempt.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EACCES' || error.code === 'EPERM')
        reject(
          new CairnError(
            'PERMISSION_DENIED',
            `Cannot connect to the Cairn instance at ${endpoint.address}: it belongs to another user.`,
          ),
        );
      else resolve(null); // ENOENT, ECONNREFUSED: nothing listens
    });
  });
  if (!socket) return null;
  return handshake(socket, file.token, options);
}

function handshake(socket: Socket, token: string, options: ConnectOptions): Promise<InstanceClient | null> {
  const events = new EventBus();
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const yieldWaiters: ((accepted: boolean) => void)[] = [];
  let nextId = 1;
  let open = true;
  let closeReason = 'The Cairn instance closed the connection.';
  let instance: InstanceInfo | null = null;
  let resolveClosed!: (reason: string) => void;
  const closed = new Promise<string>((resolve) => (resolveClosed = resolve));
  const write = (frame: ClientFrame) => {
    if (open && !socket.destroyed) socket.write(encodeFrame(frame));
  };

  return new Promise<InstanceClient | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null); // alive but not answering: the caller decides how long to keep trying
    }, options.timeoutMs ?? 10_000);

    const client: InstanceClient = {
      get instance() {
        return instance!;
      },
      events,
      call(channel, input, signal) {
        if (!open) return Promise.resolve(gone());
        const id = nextId++;
        return new Promise<Result<unknown>>((resolveCall) => {
          const onAbort = () => write({ t: 'cancel', id });
          pending.set(id, (result) => {
            signal?.removeEventListener('abort', onAbort);
            resolveCall(result);
          });
          write({ t: 'call', id, channel, ...(input === undefined ? {} : { input }) });
          // Sent even when already aborted: `sync.cancel` after Ctrl-C travels on the same signal.
          if (signal?.aborted) onAbort();
          else signal?.addEventListener('abort', onAbort, { once: true });
        });
      },
      requestYield() {
        if (!open) return Promise.resolve(false);
        return new Promise<boolean>((resolveYield) => {
          yieldWaiters.push(resolveYield);
          write({ t: 'yield' });
        });
      },
      isOpen: () => open,
      closed,
      async close() {
        if (!open) return;
        socket.end();
        await closed;
      },
    };

    function gone(): Result<unknown> {
      const who = instance
        ? `The Cairn instance (${instance.kind}, pid ${instance.pid})`
        : 'The Cairn instance';
      return fail('SOURCE_UNREACHABLE', `${who} went away before answering: ${closeReason}`);
    }

    function onFrame(value: unknown) {
      const frame = value as ServerFrame;
      if (frame.t === 'welcome') {
        clearTimeout(timer);
        if (frame.v !== PROTOCOL_VERSION) {
          socket.destroy();
          return reject(
            new CairnError(
              'UNSUPPORTED',
              `The running Cairn (pid ${frame.instance.pid}, version ${frame.instance.version}) speaks another protocol: close it, or run the same version.`,
            ),
          );
        }
        instance = frame.instance;
        return resolve(client);
      }
      if (frame.t === 'refused') {
        clearTimeout(timer);
        socket.destroy();
        return reject(new CairnError(frame.error.code, frame.error.message));
      }
      if (frame.t === 'result') {
        const settle = pending.get(frame.id);
        pending.delete(frame.id);
        settle?.(frame.result);
      } else if (frame.t === 'event') events.emit(frame.name, frame.payload);
      else if (frame.t === 'yielding') yieldWaiters.shift()?.(frame.accepted);
      else if (frame.t === 'closing') closeReason = frame.reason;
    }

    socket.on(
      'data',
      lineReader(onFrame, (reason) => {
        closeReason = `it sent ${reason}`;
        socket.destroy();
      }),
    );
    socket.on('error', (error) => (closeReason = error.message));
    socket.on('close', () => {
      clearTimeout(timer);
      open = false;
      for (const settle of pending.values()) settle(gone());
      pending.clear();
      for (const wake of yieldWaiters.splice(0)) wake(false);
      resolveClosed(closeReason);
      if (!instance) resolve(null);
    });
    write({
      t: 'hello',
      v: PROTOCOL_VERSION,
      token,
      client: { kind: options.clientKind, pid: process.pid },
    });
  });
}
