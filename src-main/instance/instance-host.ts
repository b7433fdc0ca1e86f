/**
 * The running instance's door for other processes (the CLI, `cairn mcp`): the contract over a
 * local socket, through the same dispatcher and zod schemas as Electron IPC and the HTTP host.
 * Those (zod's API schemas for every channel) load when the first client connects: a one-shot
 * command that nobody talks to never pays for them (docs/decisions/cli-startup.md).
 *
 * Who may talk: the socket file is owner-only (other users' connect() fails), and a client must
 * first show the token from the owner-only instance.json; until then nothing is answered, so a
 * filesystem that ignores modes, or a Windows pipe whose default ACL lets others open it, still
 * lets no one else in.
 *
 * Long work belongs to the client that started it: a call in flight is aborted when its client
 * sends `cancel` or goes away, and an answer it started streaming is cancelled when it goes away
 * (nobody is left to read it). A sync a client started keeps running (the index gains from it and
 * the app shows it), but `whenIdle()` waits for it, so a one-shot holder does not exit under it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, rename, unlink, writeFile, readFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { CairnApi } from '@shared/contract';
import { fail } from '@shared/errors';
import type { EventBus } from '../core/events/event-bus';
import type { Logger } from '../core/logging/logger';
import type { createApiDispatcher } from '../transport/api-dispatcher';
import type { clientFrame } from './client-frame';
import { instanceEndpoint, preparePrivateFolder } from './endpoint';
import {
  encodeFrame,
  lineReader,
  PROTOCOL_VERSION,
  type InstanceFile,
  type InstanceInfo,
  type InstanceKind,
  type ServerFrame,
} from './protocol';
import { RecentIds } from './recent-ids';

export interface InstanceHostOptions {
  dataDir: string;
  kind: InstanceKind;
  version: string;
  /** The contract whose long calls stop when `signal` aborts (Cairn.cancellable). */
  apiFor: (signal: AbortSignal) => CairnApi;
  events: EventBus;
  logger?: Logger;
  /** Another process that must own the data directory (the app, `cairn serve`) asks this one to hand it over. @default refuse */
  onYield?: () => boolean;
  /** A client this far behind on events is dropped (it reconnects). @default 4 MiB */
  maxBacklogBytes?: number;
  /** A client that has not said hello by then is dropped. @default 10000 */
  helloTimeoutMs?: number;
}

export interface InstanceHost {
  info: InstanceInfo;
  clientCount(): number;
  /** What clients still wait for (calls, answers, syncs they started), for "waiting for …" lines. */
  outstanding(): string[];
  /** Resolves once no client has a call in flight, an answer streaming or a sync it started running. */
  whenIdle(): Promise<void>;
  /** Tells every client, stops listening, removes the socket and instance.json (if still ours). */
  close(reason?: string): Promise<void>;
}

interface Client {
  socket: Socket;
  authed: boolean;
  /** Refused: whatever else it sends is ignored while the goodbye drains. */
  refused: boolean;
  calls: Map<number, { channel: string; controller: AbortController }>;
  answers: Set<string>;
  syncs: Set<string>;
}

/** What reading a client's frames and answering its calls needs. */
interface FrameHandling {
  clientFrame: typeof clientFrame;
  createApiDispatcher: typeof createApiDispatcher;
}

let frameHandlingLoad: Promise<FrameHandling> | null = null;

/** Loaded once per process, with the first client. */
function loadFrameHandling(): Promise<FrameHandling> {
  frameHandlingLoad ??= Promise.all([import('./client-frame'), import('../transport/api-dispatcher')]).then(
    ([frames, dispatcher]) => ({
      clientFrame: frames.clientFrame,
      createApiDispatcher: dispatcher.createApiDispatcher,
    }),
  );
  return frameHandlingLoad;
}

export async function startInstanceHost(options: InstanceHostOptions): Promise<InstanceHost> {
  const endpoint = instanceEndpoint(options.dataDir);
  const token = randomBytes(24).toString('base64url');
  const info: InstanceInfo = {
    kind: options.kind,
    pid: process.pid,
    version: options.version,
    dataDir: options.dataDir,
    startedAt: new Date().toISOString(),
    address: endpoint.address,
  };
  const clients = new Set<Client>();
  /** Syncs started by clients that have since gone: they run on, and whenIdle still waits for them. */
  const leftSyncs = new Set<string>();
  const finishedRuns = new RecentIds<number>();
  const finishedAnswers = new RecentIds<string>();
  let idleWaiters: (() => void)[] = [];
  const maxBacklog = options.maxBacklogBytes ?? 4 * 1024 * 1024;

  const outstanding = () =>
    [...clients]
      .flatMap((client) => [
        ...[...client.calls.values()].map((call) => call.channel),
        ...[...client.answers].map(() => 'chat answer'),
        ...[...client.syncs].map((id) => `sync of ${id}`),
      ])
      .concat([...leftSyncs].map((id) => `sync of ${id}`));
  const checkIdle = () => {
    if (outstanding().length > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  };

  const send = (client: Client, frame: ServerFrame) => {
    if (client.socket.destroyed || !client.socket.writable) return;
    client.socket.write(encodeFrame(frame));
    if (client.socket.writableLength > maxBacklog) {
      options.logger?.warn('instance client is not reading: dropped', {
        backlogBytes: client.socket.writableLength,
      });
      client.socket.destroy();
    }
  };

  const stopEvents = options.events.onAny((name, payload) => {
    if (name === 'sync.finished') {
      const run = payload as { id: number; connectionId: string };
      finishedRuns.add(run.id);
      leftSyncs.delete(run.connectionId);
      for (const client of clients) client.syncs.delete(run.connectionId);
    }
    if (name === 'chat.done') {
      const { messageId } = payload as { messageId: string };
      finishedAnswers.add(messageId);
      for (const client of clients) client.answers.delete(messageId);
    }
    for (const client of clients) if (client.authed) send(client, { t: 'event', name, payload });
    if (name === 'sync.finished' || name === 'chat.done') checkIdle();
  });

  async function call(client: Client, handling: FrameHandling, id: number, channel: string, input: unknown) {
    const controller = new AbortController();
    client.calls.set(id, { channel, controller });
    try {
      const result = await handling.createApiDispatcher(options.apiFor(controller.signal), options.logger)(
        channel,
        input,
      );
      if (result.ok && channel === 'chat.ask') {
        const { messageId } = result.value as { messageId: string };
        if (!finishedAnswers.has(messageId)) client.answers.add(messageId);
        // It left while the question was being stored: nobody will read this answer.
        if (client.socket.destroyed) void abandon(client);
      }
      if (result.ok && channel === 'sync.start') {
        const { runId } = result.value as { runId: number };
        const connectionId = (input as { connectionId: string }).connectionId;
        if (!finishedRuns.has(runId)) (clients.has(client) ? client.syncs : leftSyncs).add(connectionId);
      }
      send(client, { t: 'result', id, result });
    } finally {
      client.calls.delete(id);
      checkIdle();
    }
  }

  async function abandon(client: Client) {
    for (const { controller } of client.calls.values()) controller.abort();
    const api = options.apiFor(new AbortController().signal);
    for (const messageId of client.answers) await api.chat.cancel({ messageId }).catch(() => undefined);
  }

  function handleFrame(client: Client, handling: FrameHandling, value: unknown) {
    if (client.refused) return;
    const parsed = handling.clientFrame.safeParse(value);
    if (!parsed.success) {
      if (!client.authed) return client.socket.destroy();
      const id = (value as { id?: unknown } | null)?.id;
      if (typeof id === 'number')
        send(client, { t: 'result', id, result: fail('INVALID_ARGUMENT', 'Malformed request frame.') });
      return;
    }
    const frame = parsed.data;
    if (!client.authed) {
      if (frame.t !== 'hello' || !sameToken(frame.token, token)) {
        client.refused = true;
        send(client, {
          t: 'refused',
          error: { code: 'PERMISSION_DENIED', message: 'Not a client of this Cairn instance.' },
        });
        client.socket.end();
        return;
      }
      client.authed = true;
      send(client, { t: 'welcome', v: PROTOCOL_VERSION, instance: info });
      return;
    }
    if (frame.t === 'call') {
      if (client.calls.has(frame.id))
        return send(client, {
          t: 'result',
          id: frame.id,
          result: fail('INVALID_ARGUMENT', `Request id ${frame.id} is already in use.`),
        });
      void call(client, handling, frame.id, frame.channel, frame.input);
    } else if (frame.t === 'cancel') client.calls.get(frame.id)?.controller.abort();
    else if (frame.t === 'yield') send(client, { t: 'yielding', accepted: options.onYield?.() ?? false });
  }

  const server: Server = createServer((socket) => {
    const client: Client = {
      socket,
      authed: false,
      refused: false,
      calls: new Map(),
      answers: new Set(),
      syncs: new Set(),
    };
    clients.add(client);
    const helloTimer = setTimeout(() => {
      if (!client.authed) socket.destroy();
    }, options.helloTimeoutMs ?? 10_000);
    // Frames wait for the first load, then are handled one after another in the order they came.
    let handled: Promise<FrameHandling | null> = loadFrameHandling().catch((error: unknown) => {
      options.logger?.error('instance could not load its request handling', { error });
      socket.destroy();
      return null;
    });
    socket.on(
      'data',
      lineReader(
        (value) => {
          handled = handled.then((handling) => {
            if (handling) handleFrame(client, handling, value);
            return handling;
          });
        },
        (reason) => {
          options.logger?.warn('instance client sent a bad frame: dropped', { reason });
          socket.destroy();
        },
      ),
    );
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(helloTimer);
      clients.delete(client);
      for (const id of client.syncs) leftSyncs.add(id);
      void abandon(client).finally(() => {
        client.answers.clear();
        checkIdle();
      });
    });
  });

  if (endpoint.isFile) {
    if (dirname(endpoint.address) !== options.dataDir) preparePrivateFolder(dirname(endpoint.address));
    // Only the data directory's lock holder listens here, so a file left at this path is a dead holder's.
    await unlink(endpoint.address).catch(() => undefined);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint.address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (endpoint.isFile) await chmod(endpoint.address, 0o600);
  const file: InstanceFile = { ...info, token };
  const temp = `${endpoint.infoFile}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(file), { mode: 0o600 });
  await rename(temp, endpoint.infoFile);
  options.logger?.info('instance listening', { address: endpoint.address, kind: options.kind });

  let closed = false;
  return {
    info,
    clientCount: () => [...clients].filter((client) => client.authed).length,
    outstanding,
    whenIdle: () =>
      outstanding().length === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => idleWaiters.push(resolve)),
    async close(reason = 'The Cairn instance is stopping.') {
      if (closed) return;
      closed = true;
      stopEvents();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const client of clients) {
        send(client, { t: 'closing', reason });
        client.socket.end();
        for (const { controller } of client.calls.values()) controller.abort();
      }
      // Sockets that do not finish their goodbye promptly are cut.
      const cut = setTimeout(() => {
        for (const client of clients) client.socket.destroy();
      }, 1_000);
      await stopped;
      clearTimeout(cut);
      await removeIfOurs(endpoint.infoFile, token);
      if (endpoint.isFile) await unlink(endpoint.address).catch(() => undefined);
    },
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A newer holder may already have written its own file: only ours is removed. */
async function removeIfOurs(file: string, token: string): Promise<void> {
  try {
    const text = await readFile(file, 'utf8');
    if ((JSON.parse(text) as { token?: string }).token === token) await unlink(file);
  } catch {
    // Gone already, or unreadable: nothing of ours to remove.
  }
}
