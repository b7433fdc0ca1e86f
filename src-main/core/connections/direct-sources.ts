/**
 * Direct-mode connections as live search sources. Each keeps ONE connector while it stays in
 * direct mode: building one per query would sign in to the platform on every keystroke of a
 * type-ahead search (Feishu's tenant token, DingTalk's access token) and spend the per-platform
 * time budget on it.
 */
import type { ConnectionView } from '@shared/models';
import type { Connector } from '../connectors/connector';
import type { ConnectionEventBus } from '../events/connection-events';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logging/logger';
import type { DirectSearchSource } from '../search/direct-channel';
import type { ConnectionConnectors } from './connection-connectors';

export interface DirectSourcesDeps {
  connectors: Pick<ConnectionConnectors, 'forConnection'>;
  /** Connectors built from old credentials, or of a removed connection, are let go. */
  lifecycle: ConnectionEventBus;
  /** The connection list after every change says which connections are in direct mode. */
  events: EventBus;
  logger: Logger;
}

export class DirectSources {
  private sources: DirectSearchSource[] = [];
  private readonly connectors = new Map<string, Promise<Connector>>();
  private readonly unsubscribe: (() => void)[];

  constructor(private readonly deps: DirectSourcesDeps) {
    this.unsubscribe = [
      deps.events.on('connections.changed', (views) => this.update(views)),
      deps.lifecycle.on('credentialsChanged', ({ connectionId }) => this.invalidate(connectionId)),
      deps.lifecycle.on('removed', ({ connectionId }) => this.invalidate(connectionId)),
    ];
  }

  /** The current sources (search reads them synchronously on every query). */
  list(): DirectSearchSource[] {
    return this.sources;
  }

  /** Takes the connection list after any change; connections that left direct mode let their connector go. */
  update(views: ConnectionView[]): void {
    const direct = views.filter((view) => view.mode === 'direct');
    const kept = new Set(direct.map((view) => view.id));
    for (const id of [...this.connectors.keys()]) if (!kept.has(id)) void this.release(id);
    this.sources = direct.map((view) => ({
      connectionId: view.id,
      platform: view.platform,
      knowledgeBaseFallback: view.name,
      search: async (query, options) => (await this.connector(view.id)).search(query, options),
    }));
  }

  /** The connection's settings or credentials changed: the next query builds a new connector. */
  async invalidate(connectionId: string): Promise<void> {
    if (this.connectors.has(connectionId)) await this.release(connectionId);
  }

  async dispose(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.sources = [];
    await Promise.all([...this.connectors.keys()].map((id) => this.release(id)));
  }

  private connector(id: string): Promise<Connector> {
    const cached = this.connectors.get(id);
    if (cached) return cached;
    const building = this.deps.connectors.forConnection(id);
    this.connectors.set(id, building);
    // A connector that could not be built (e.g. unreadable secrets) is not kept: the next query tries again.
    building.catch(() => {
      if (this.connectors.get(id) === building) this.connectors.delete(id);
    });
    return building;
  }

  private async release(id: string): Promise<void> {
    const connector = this.connectors.get(id);
    this.connectors.delete(id);
    try {
      await (await connector)?.dispose?.();
    } catch (error) {
      this.deps.logger.warn('disposing a direct-search connector failed', { connectionId: id, error });
    }
  }
}
