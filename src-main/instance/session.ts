/**
 * A `Cairn` as a command sees it, whoever answers: the running instance over its socket, or this
 * process after opening the data directory itself (and then serving the socket in turn, so any
 * other cairn command finds it). Commands cannot tell the two apart, except through `answeredBy`.
 */
import { buildApiProxy } from '@shared/bridge';
import type { Cairn } from '../core/app/cairn';
import type { InstanceClient } from './instance-client';
import type { InstanceHost } from './instance-host';
import type { AnsweredBy } from './protocol';

export interface CairnSession extends Cairn {
  answeredBy: AnsweredBy;
  /** False once the instance went away (socket) or this session was disposed. */
  alive(): boolean;
  /** When this process holds the data directory: how many other processes it serves now. */
  clientCount(): number;
}

export function remoteSession(client: InstanceClient): CairnSession {
  return {
    api: buildApiProxy((channel, input) => client.call(channel, input)),
    cancellable: (signal) => buildApiProxy((channel, input) => client.call(channel, input, signal)),
    events: client.events,
    dataDir: client.instance.dataDir,
    answeredBy: { ...client.instance, via: 'socket' },
    alive: () => client.isOpen(),
    clientCount: () => 0,
    dispose: () => client.close(),
  };
}

/**
 * This process holds the data directory. Disposing first lets clients finish what they started
 * here (a `cairn sync` from another terminal), then closes the socket, then the database.
 */
export function localSession(
  cairn: Cairn,
  host: InstanceHost,
  onWait?: (message: string) => void,
): CairnSession {
  let disposing: Promise<void> | null = null;
  return {
    api: cairn.api,
    cancellable: (signal) => cairn.cancellable(signal),
    events: cairn.events,
    dataDir: cairn.dataDir,
    answeredBy: { ...host.info, via: 'in-process' },
    alive: () => disposing === null,
    clientCount: () => host.clientCount(),
    dispose: () =>
      (disposing ??= (async () => {
        const waiting = host.outstanding();
        if (waiting.length > 0) {
          onWait?.(
            `Waiting for ${waiting.length === 1 ? 'another cairn command' : `${waiting.length} other cairn commands`} using this process (${[...new Set(waiting)].join(', ')}) to finish…`,
          );
          await host.whenIdle();
        }
        await host.close();
        await cairn.dispose();
      })()),
  };
}

/** "the desktop app (pid 4242)", "cairn serve (pid 77)". */
export function describeInstance(info: { kind: string; pid: number }): string {
  const name =
    info.kind === 'desktop'
      ? 'the Cairn desktop app'
      : info.kind === 'serve'
        ? 'cairn serve'
        : info.kind === 'mcp'
          ? 'cairn mcp'
          : 'another cairn command';
  return `${name} (pid ${info.pid})`;
}
