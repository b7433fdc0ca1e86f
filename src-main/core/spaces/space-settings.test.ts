import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../embedding/fake-embedding-server';
import { silentLogger } from '../logging/logger';
import { MemorySecretStore } from '../secrets/secret-store';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { spaceSecretRef } from './space-settings';

let serverA: FakeEmbeddingServer;
let serverB: FakeEmbeddingServer;
let root: string;
const secrets = new MemorySecretStore();

beforeAll(async () => {
  serverA = await startFakeEmbeddingServer({ apiKey: 'sk-provider-a-000111' });
  serverB = await startFakeEmbeddingServer({ apiKey: 'sk-provider-b-222333' });
  root = await mkdtemp(join(tmpdir(), 'cairn-space-settings-'));
  const notes = join(root, 'notes');
  await mkdir(notes);
  for (let i = 0; i < 6; i++)
    await writeFile(
      join(notes, `guide-${i}.md`),
      `# Guide ${i}\n\nThe installer wizard sets up step ${i}.\n`,
    );
});

afterAll(async () => {
  await Promise.all([serverA.close(), serverB.close()]);
  await rm(root, { recursive: true, force: true });
});

function open(): Promise<CairnInternals> {
  return createCairn({
    dataDir: join(root, 'data'),
    secretStore: secrets,
    scheduler: false,
    buildSemanticIndex: true,
    env: {},
    logger: silentLogger(),
  });
}

async function vectorHits(cairn: CairnInternals, query: string): Promise<number> {
  const found = await cairn.api.search.query({ query });
  if (!found.ok) throw new Error(found.error.message);
  return found.value.hits.filter((hit) => hit.ranks.vector !== undefined).length;
}

async function activeSpaceId(cairn: CairnInternals): Promise<number> {
  const row = await cairn.db.query<{ value: { id: number } }>(
    "SELECT value FROM index_meta WHERE key = 'embedding.active'",
  );
  return row.rows[0]!.value.id;
}

describe('embedding settings per space', () => {
  it('after a restart in the middle of a re-embed from provider A to B, search still embeds queries with A until the flip', async () => {
    let cairn = await open();
    const toA = await cairn.api.settings.update({
      embedding: {
        provider: 'custom',
        baseUrl: serverA.baseUrl,
        model: 'text-embedding-v3',
        dimensions: 1024,
        apiKey: serverA.apiKey,
      },
    });
    expect(toA.ok).toBe(true);
    await cairn.whenIdle();
    const added = await cairn.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: join(root, 'notes') },
      secrets: {},
    });
    if (!added.ok) throw new Error(added.error.message);
    await cairn.api.sync.start({ connectionId: added.value.id });
    await cairn.whenIdle();
    const spaceA = await activeSpaceId(cairn);
    expect(await vectorHits(cairn, 'installer wizard')).toBeGreaterThan(0);

    // Switch to B while B's endpoint is down: the re-embed cannot finish, and the app stops.
    const toB = await cairn.api.settings.update({
      embedding: {
        provider: 'custom',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'bge-m3',
        dimensions: 1024,
        apiKey: serverB.apiKey,
      },
    });
    expect(toB.ok).toBe(true);
    await cairn.whenIdle();
    await cairn.dispose();

    // The key of A is kept per space in the secret store, not in the database.
    expect(await secrets.get(spaceSecretRef({ id: spaceA }))).toEqual({ apiKey: serverA.apiKey });
    cairn = await open();
    try {
      const rows = await cairn.db.query<{ value: unknown }>(
        "SELECT value FROM index_meta WHERE key LIKE 'embedding.%'",
      );
      expect(JSON.stringify(rows.rows)).not.toContain('sk-provider');
      await cairn.whenIdle();
      const status = await cairn.api.app.status();
      expect(status.ok && status.value.reindex).toMatchObject({
        activeSpace: 'custom/text-embedding-v3/1024',
        pendingSpace: 'custom/bge-m3/1024',
      });
      const requestsBefore = serverA.stats.requests;
      expect(await vectorHits(cairn, 'installer wizard')).toBeGreaterThan(0);
      expect(serverA.stats.requests).toBeGreaterThan(requestsBefore);

      // Once B's endpoint is up, the re-embed finishes, B serves, and A's settings and key are forgotten.
      await cairn.api.settings.update({ embedding: { baseUrl: serverB.baseUrl } });
      await cairn.whenIdle();
      const after = await cairn.api.app.status();
      expect(after.ok && after.value.reindex).toMatchObject({
        activeSpace: 'custom/bge-m3/1024',
        pendingSpace: null,
      });
      expect(await vectorHits(cairn, 'installer wizard')).toBeGreaterThan(0);
      expect(await secrets.get(spaceSecretRef({ id: spaceA }))).toBeNull();
      expect(
        (await cairn.db.query('SELECT key FROM index_meta WHERE key = $1', [`embedding.space.${spaceA}`]))
          .rows,
      ).toEqual([]);
    } finally {
      await cairn.dispose();
    }
  }, 240_000);
});
