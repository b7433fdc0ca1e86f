/**
 * The rows every search reads before its channels: which connections exist (id, name, platform,
 * mode) and which embedding space is active. They change when a user adds, removes or switches a
 * connection or a re-embed finishes, not per search, so they are read once and kept until the
 * database says they changed: migration 009's triggers NOTIFY `cairn_search_catalog` at the commit
 * of any statement that writes them, whatever code path wrote (a rolled-back transaction sends
 * nothing; migration 010 adds renames). Two statements less per search (issue #15,
 * docs/decisions/search-during-sync.md).
 */
import type { ConnectionMode, Platform } from '@shared/models';
import type { Db } from '../db/database';
import { readSpaces, type SpaceRecord } from '../index/embedding-spaces';

/** The channel migration 009's triggers notify. */
export const SEARCH_CATALOG_CHANNEL = 'cairn_search_catalog';

/** A connection as search reads it. */
export interface SearchConnection {
  id: string;
  name: string;
  platform: Platform;
  mode: ConnectionMode;
}

/**
 * Where search reads the connections: passed in (the app passes its connection repository), so
 * search does not depend on the connections layer above it (docs/DESIGN.md, core's folders).
 */
export interface SearchConnections {
  /** Every connection, in the order they were added. */
  modes(): Promise<readonly SearchConnection[]>;
}

/** The same rows read straight from the table, for a search built without the repository (tests, the bench). */
export function tableConnections(db: Db): SearchConnections {
  return {
    modes: async () =>
      (
        await db.query<SearchConnection>(
          'SELECT id, name, platform, mode FROM connections ORDER BY created_at, id',
        )
      ).rows,
  };
}

export interface SearchCatalogSnapshot {
  /** In the order the connections were added (the order people see them listed). */
  connections: readonly SearchConnection[];
  /** The connections' platforms by id (the rows a search returns carry their connection's). */
  platforms: ReadonlyMap<string, Platform>;
  /** The connections' names by id (a search's response names the connections it mentions). */
  names: ReadonlyMap<string, string>;
  active: SpaceRecord | null;
}

export class SearchCatalog {
  private cached: Promise<SearchCatalogSnapshot> | null = null;
  private listening: Promise<unknown> | null = null;

  constructor(
    private readonly db: Db,
    private readonly connections: SearchConnections = tableConnections(db),
  ) {}

  /** The current rows: kept ones, or read now when a change was notified since they were read. */
  async read(): Promise<SearchCatalogSnapshot> {
    // Listen before the first read, so no change can fall between the read and the listening.
    this.listening ??= this.db.listen(SEARCH_CATALOG_CHANNEL, () => {
      this.cached = null;
    });
    await this.listening;
    if (this.cached) return this.cached;
    // A change notified while this read runs clears `cached` again: the searches already waiting
    // get what the read saw (they started before the change), the next one reads anew.
    const loading = this.load();
    this.cached = loading;
    loading.catch(() => {
      if (this.cached === loading) this.cached = null;
    });
    return loading;
  }

  private async load(): Promise<SearchCatalogSnapshot> {
    const connections = await this.connections.modes();
    const { active } = await readSpaces(this.db);
    return {
      connections,
      platforms: new Map(connections.map((c) => [c.id, c.platform])),
      names: new Map(connections.map((c) => [c.id, c.name])),
      active,
    };
  }
}
