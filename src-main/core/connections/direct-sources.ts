/**
 * Direct-mode connections as live search sources. Each keeps ONE connector while it stays in
 * direct mode: building one per query would sign in to the platform on every keystroke of a
 * type-ahead search (Feishu's tenant token, DingTalk's access token) and spend the per-platform
 * time budget on it.
 */
import type { ConnectionView } from '@shared/models';
import type { Connector } from '../connectors/connector';
import type { Logger } from '../logging/logger';
import type { DirectSearchSource } from '../search/direct-channel';

export class DirectSources {
  private sources: DirectSearchSource[] = [];
  private readonly connectors = new Map<string, Promise<Connector>>();

  constructor(
    private readonly connectorFor: (connectionId: string) => Promise<Connector>,
    private readonly logger: Logger,
  ) {}

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
    this.sources = [];
    await Promise.all([...this.connectors.keys()].map((id) => this.release(id)));
  }

  private connector(id: string): Promise<Connector> {
    const cached = this.connectors.get(id);
    if (cached) return cached;
    const building = this.connectorFor(id);
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
      this.logger.warn('disposing a direct-search connector failed', { connectionId: id, error });
    }
  }
}
