/**
 * Serves an in-memory Cairn on a real instance socket (in a temp folder), so CLI tests can run
 * every command through the socket exactly as a second process would reach `cairn serve`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cairn } from '../core/app/cairn';
import { CAIRN_VERSION } from '../core/app/version';
import { connectToInstance } from '../instance/instance-client';
import { startInstanceHost, type InstanceHost } from '../instance/instance-host';
import { remoteSession, type CairnSession } from '../instance/session';

export interface SocketServed {
  host: InstanceHost;
  dataDir: string;
  /** A fresh client session, as `cairn <command>` opens one. */
  open(): Promise<CairnSession>;
  close(): Promise<void>;
}

export async function serveOverSocket(cairn: Cairn): Promise<SocketServed> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-sock-'));
  const host = await startInstanceHost({
    dataDir,
    kind: 'serve',
    version: CAIRN_VERSION,
    apiFor: (signal) => cairn.cancellable(signal),
    events: cairn.events,
  });
  return {
    host,
    dataDir,
    async open() {
      const client = await connectToInstance(dataDir, { clientKind: 'test' });
      if (!client) throw new Error('the test instance did not answer');
      return remoteSession(client);
    },
    async close() {
      await host.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
