/**
 * "Is Cairn running?" and "open the data directory" as one step without a race. The data
 * directory's lock decides who holds it; whoever holds it also listens on the socket. So:
 *   1. connect to the socket: someone answers → use it;
 *   2. else take the lock and open the data directory here (then listen in turn);
 *   3. the lock is taken by someone who does not answer yet (it is still opening the database,
 *      or it started between 1 and 2) → go back to 1 until it answers, within `patienceMs`.
 * A stale socket or instance.json left by a crash is harmless: nobody accepts on it, and the lock
 * (which knows dead holders) is taken over as before.
 *
 * The app and `cairn serve` must hold the data directory themselves (`openPrimary`): finding a
 * `cairn mcp` or a one-shot command there, they ask it to hand over and wait for the lock.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cairn } from '../core/app/cairn';
import { CairnError } from '../core/errors';
import type { Logger } from '../core/logging/logger';
import { connectToInstance } from './instance-client';
import type { InstanceHost } from './instance-host';
import type { InstanceKind } from './protocol';
import { describeInstance, localSession, remoteSession, type CairnSession } from './session';

export interface OpenInstanceOptions {
  dataDir: string;
  kind: InstanceKind;
  version: string;
  /** Opens the data directory in this process (createCairn); called only when no instance answers. */
  openHere: () => Promise<Cairn & { logger?: Logger }>;
  logger?: Logger;
  /**
   * How long to keep trying while the holder does not answer yet (a fresh data directory takes
   * PGlite many seconds to create on a busy machine). @default 120000
   */
  patienceMs?: number;
  /** Told once when this has to wait (another process is starting, or must hand over first). */
  onWait?: (message: string) => void;
  /** While this process holds the data directory: a primary asks for it. @default refuse */
  onYield?: () => boolean;
}

export async function openInstance(options: OpenInstanceOptions): Promise<CairnSession> {
  const deadline = Date.now() + (options.patienceMs ?? 120_000);
  let told = false;
  for (;;) {
    const client = await connectToInstance(options.dataDir, { clientKind: options.kind });
    if (client) return remoteSession(client);
    try {
      const cairn = await options.openHere();
      return localSession(cairn, await listen(cairn, options), options.onWait);
    } catch (error) {
      if (!(error instanceof CairnError) || error.code !== 'DATA_DIR_LOCKED' || Date.now() > deadline)
        throw error;
      const pid = error.details?.['pid'];
      if (!told)
        options.onWait?.(
          `Another Cairn process${typeof pid === 'number' ? ` (pid ${pid})` : ''} holds the data directory but does not answer yet: waiting for it…`,
        );
      told = true;
      await sleep(150 + Math.random() * 150);
    }
  }
}

export async function openPrimary(options: OpenInstanceOptions): Promise<CairnSession> {
  const deadline = Date.now() + (options.patienceMs ?? 120_000);
  let asked = false;
  for (;;) {
    try {
      const cairn = await options.openHere();
      return localSession(cairn, await listen(cairn, options), options.onWait);
    } catch (error) {
      if (!(error instanceof CairnError) || error.code !== 'DATA_DIR_LOCKED') throw error;
      const holder = await connectToInstance(options.dataDir, { clientKind: options.kind }).catch(() => null);
      if (holder) {
        const { kind } = holder.instance;
        if (kind === 'desktop' || kind === 'serve') {
          await holder.close();
          throw new CairnError(
            'DATA_DIR_LOCKED',
            `Cairn is already running on ${options.dataDir}: ${describeInstance(holder.instance)}. Use it, or stop it first.`,
            { details: { pid: holder.instance.pid, kind } },
          );
        }
        if (!asked) {
          asked = true;
          await holder.requestYield();
          options.onWait?.(
            `Waiting for ${describeInstance(holder.instance)} to hand over the data directory ${options.dataDir}…`,
          );
        }
        await holder.close();
      }
      if (Date.now() > deadline) throw error;
      await sleep(150 + Math.random() * 150);
    }
  }
}

async function listen(
  cairn: Cairn & { logger?: Logger },
  options: OpenInstanceOptions,
): Promise<InstanceHost> {
  try {
    // Only a process that holds the data directory serves it: a client never loads the host
    // (and with it the API schemas).
    const { startInstanceHost } = await import('./instance-host');
    return await startInstanceHost({
      dataDir: options.dataDir,
      kind: options.kind,
      version: options.version,
      apiFor: (signal) => cairn.cancellable(signal),
      events: cairn.events,
      ...(options.logger || cairn.logger ? { logger: (options.logger ?? cairn.logger)! } : {}),
      ...(options.onYield ? { onYield: options.onYield } : {}),
    });
  } catch (error) {
    await cairn.dispose();
    throw error;
  }
}
