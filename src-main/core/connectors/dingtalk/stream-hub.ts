/**
 * One Stream connection per DingTalk app, shared by every connector of that app. DingTalk pushes
 * each event to ONE of an app's open Stream connections, chosen at random (protocol FAQ,
 * https://open-dingtalk.github.io/developerpedia/docs/learn/stream/protocol): a second socket of our
 * own (a "Test connection" during a sync, two connections with the same app) would swallow half of
 * the export events the other is waiting for. Connectors lease the shared client; the last release
 * closes it, so a finished sync leaves no socket behind.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../../logging/logger';
import type { ExportEventSource } from './export-events';
import { DingTalkStreamClient, type DingTalkStreamClientOptions } from './stream-client';

export interface StreamApp {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface StreamLease {
  source: ExportEventSource;
  release(): void;
}

export type StreamTuning = Omit<DingTalkStreamClientOptions, keyof StreamApp | 'logger'>;

export class DingTalkStreamHub {
  private readonly clients = new Map<string, { client: DingTalkStreamClient; leases: number }>();

  constructor(private readonly tuning: StreamTuning = {}) {}

  lease(app: StreamApp, logger: Logger): StreamLease {
    // The secret is part of the key (a corrected secret must not reuse a refused client), hashed so the map holds no copy.
    const key = [app.baseUrl, app.clientId, createHash('sha256').update(app.clientSecret).digest('hex')].join(
      '\n',
    );
    let entry = this.clients.get(key);
    if (!entry) {
      entry = {
        client: new DingTalkStreamClient({ ...this.tuning, ...app, logger: logger.child('stream') }),
        leases: 0,
      };
      this.clients.set(key, entry);
    }
    entry.leases += 1;
    const held = entry;
    let released = false;
    return {
      source: held.client,
      release: () => {
        if (released) return;
        released = true;
        held.leases -= 1;
        if (held.leases > 0) return;
        held.client.dispose();
        if (this.clients.get(key) === held) this.clients.delete(key);
      },
    };
  }

  /** Open clients (tests). */
  get size(): number {
    return this.clients.size;
  }
}
