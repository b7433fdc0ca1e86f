import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionRepository } from '../connections/connection-repository';
import { openDatabase, type Db } from '../db/database';
import { ensureActiveSpace } from '../index/embedding-spaces';
import { CountingEmbedder, insertConnection, writeMarkdownDocument } from '../../testing/index-fixtures';
import { HybridSearch } from './hybrid-search';
import { SearchCatalog } from './search-catalog';

let db: Db;
let search: HybridSearch;
const embedder = new CountingEmbedder();

async function addNote(connectionId: string, externalId: string, markdown: string): Promise<void> {
  await writeMarkdownDocument(db, embedder, { connectionId, externalId, title: externalId, markdown });
}

async function connectionsFound(query: string): Promise<string[]> {
  const { hits } = await search.search({ query });
  return [...new Set(hits.map((hit) => `${hit.connectionId}:${hit.platform}`))].sort();
}

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
  await insertConnection(db, 'notes');
  await addNote('notes', 'kiln-notes', 'The kiln reaches 1200 degrees for stoneware glaze firing.');
  search = new HybridSearch({
    db,
    queryEmbedder: (space) => (space.model === embedder.space.model ? embedder : null),
  });
});
afterAll(async () => {
  await db.close();
});

describe('the search catalog (connections and active space kept between searches)', () => {
  it('a search after a connection is added, switched, renamed or removed sees the change', async () => {
    expect(await connectionsFound('kiln glaze')).toEqual(['notes:folder']);

    // Added after the catalog was first read: its hits carry its platform.
    await insertConnection(db, 'wiki', { platform: 'feishu' });
    await addNote('wiki', 'kiln-wiki', 'Kiln safety: wear gloves when the glaze firing ends.');
    expect(await connectionsFound('kiln glaze')).toEqual(['notes:folder', 'wiki:feishu']);

    const repository = new ConnectionRepository(db);
    await repository.setMode('wiki', 'direct');
    expect(await connectionsFound('kiln glaze')).toEqual(['notes:folder']);
    await repository.setMode('wiki', 'rag');
    await repository.rename('wiki', 'Team wiki');
    expect(await connectionsFound('kiln glaze')).toEqual(['notes:folder', 'wiki:feishu']);
    // A rename alone is seen too: a search names its connections and resolves typed names.
    await repository.rename('wiki', 'Kiln wiki');
    const renamed = await search.search({ query: 'kiln glaze', filters: { connectionNames: ['kiln WIKI'] } });
    expect([renamed.connectionNamesById, renamed.hits.length > 0]).toEqual([{ wiki: 'Kiln wiki' }, true]);

    await repository.remove('notes');
    expect(await connectionsFound('kiln glaze')).toEqual(['wiki:feishu']);
  });

  it('is read again only after a change to connections or index_meta was committed', async () => {
    const catalog = new SearchCatalog(db);
    const first = await catalog.read();
    expect(await catalog.read()).toBe(first);

    // A sync's status updates do not touch what search reads.
    await db.query("UPDATE connections SET sync_status = 'syncing'");
    expect(await catalog.read()).toBe(first);

    // A rolled-back change sends nothing; a committed one does.
    await expect(
      db.transaction(async (tx) => {
        await tx.query("UPDATE connections SET mode = 'direct'");
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await catalog.read()).toBe(first);
    await db.query("UPDATE connections SET mode = 'direct'");
    const switched = await catalog.read();
    expect(switched).not.toBe(first);
    expect(switched.connections.every((c) => c.mode === 'direct')).toBe(true);

    await db.query(`INSERT INTO index_meta (key, value) VALUES ('search-catalog.test', '1')`);
    const spaced = await catalog.read();
    expect(spaced).not.toBe(switched);
    await db.query("UPDATE connections SET name = name || ' (renamed)'");
    expect((await catalog.read()).names).not.toEqual(spaced.names);
    await db.query("UPDATE connections SET mode = 'rag'");
  });
});
