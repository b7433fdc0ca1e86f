import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReindexStatus } from '@shared/models';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../embedding/fake-embedding-server';
import { silentLogger } from '../logging/logger';
import { createCairn, type CairnInternals } from '../app/create-cairn';

let cairn: CairnInternals;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cairn-reembed-'));
  await mkdir(join(folder, 'zh'));
  for (let i = 0; i < 12; i++)
    await writeFile(
      join(folder, `guide-${i}.md`),
      `# Guide ${i}\n\n## Install\n\nInstall step ${i} uses the installer wizard.\n`,
    );
  await writeFile(join(folder, 'zh', '报销.md'), '# 差旅报销\n\n报销需要发票和审批。\n');
  cairn = await createCairn({ scheduler: false, buildSemanticIndex: true, env: {}, logger: silentLogger() });
  const added = await cairn.api.connections.add({
    platform: 'folder',
    name: 'notes',
    mode: 'rag',
    config: { path: folder },
    secrets: {},
  });
  if (!added.ok) throw new Error(added.error.message);
  await cairn.api.sync.start({ connectionId: added.value.id });
  await cairn.whenIdle();
});

afterAll(async () => {
  await cairn.dispose();
  await rm(folder, { recursive: true, force: true });
});

async function titlesFor(query: string): Promise<string[]> {
  const found = await cairn.api.search.query({ query });
  if (!found.ok) throw new Error(found.error.message);
  return found.value.hits.map((hit) => hit.title);
}

const MODEL_A = 'custom/text-embedding-v3/1024';
const MODEL_B = 'custom/text-embedding-3-small/1536';

describe('choosing and changing the semantic model', () => {
  let server: FakeEmbeddingServer;
  beforeAll(async () => {
    server = await startFakeEmbeddingServer();
  });
  afterAll(() => server.close());
  const model = (name: string, dimensions: number) => ({
    embedding: {
      provider: 'custom' as const,
      baseUrl: server.baseUrl,
      model: name,
      dimensions,
      apiKey: server.apiKey,
    },
  });

  it('starts with keyword search only, then builds a chosen model’s vectors in the background', async () => {
    const before = await cairn.api.app.status();
    expect(before.ok && before.value.reindex).toMatchObject({
      activeSpace: '',
      pendingSpace: null,
      total: 0,
    });
    const keywordOnly = await cairn.api.search.query({ query: 'installer wizard' });
    expect(keywordOnly.ok && keywordOnly.value.semantic).toBeUndefined();
    expect(await titlesFor('差旅报销')).toContain('差旅报销');
    const cost = await cairn.api.settings.reindexCost();
    expect(cost).toEqual({ ok: true, value: { documents: 13, chunks: 13 } });

    const requests = server.stats.requests;
    expect((await cairn.api.settings.update(model('text-embedding-v3', 1024))).ok).toBe(true);
    await cairn.whenIdle();
    expect(server.stats.requests).toBeGreaterThan(requests);
    const after = await cairn.api.app.status();
    expect(after.ok && after.value.reindex).toMatchObject({
      running: false,
      activeSpace: MODEL_A,
      pendingSpace: null,
      done: 13,
      total: 13,
    });
    const hits = await cairn.api.search.query({ query: 'installer wizard' });
    if (!hits.ok) throw new Error(hits.error.message);
    expect(hits.value.hits.filter((hit) => hit.ranks.vector !== undefined).length).toBeGreaterThan(0);
    expect(hits.value.semantic).toEqual({ space: MODEL_A, covered: 13, total: 13 });
  });

  it('re-embeds into another model while the first serves, then serves only the new one', async () => {
    const progress: ReindexStatus[] = [];
    const off = cairn.events.on('reindex.progress', (status) => progress.push(status));
    expect((await cairn.api.settings.update(model('text-embedding-3-small', 1536))).ok).toBe(true);
    // While the new space fills (or right after), search still answers.
    expect(await titlesFor('差旅报销')).toContain('差旅报销');
    await cairn.whenIdle();
    off();
    expect(progress.some((status) => status.pendingSpace === MODEL_B)).toBe(true);
    const after = await cairn.api.app.status();
    expect(after.ok && after.value.reindex).toMatchObject({ activeSpace: MODEL_B, pendingSpace: null });
    const hits = await cairn.api.search.query({ query: 'installer wizard' });
    expect(hits.ok && hits.value.semantic).toEqual({ space: MODEL_B, covered: 13, total: 13 });
  });

  it('a broken provider leaves the index serving; switching back discards the half-built space', async () => {
    const broken = await cairn.api.settings.update({
      embedding: {
        provider: 'custom',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'nope',
        dimensions: 256,
        apiKey: 'k-123456',
      },
    });
    // The settings are saved; the build against an unreachable endpoint waits in the background.
    expect(broken.ok).toBe(true);
    await cairn.whenIdle();
    const status = await cairn.api.app.status();
    expect(status.ok && status.value.reindex).toMatchObject({
      running: false,
      activeSpace: MODEL_B,
      pendingSpace: 'custom/nope/256',
    });
    expect(status.ok && status.value.reindex.error).toBeTruthy();
    expect(await titlesFor('差旅报销')).toContain('差旅报销');

    expect((await cairn.api.settings.update(model('text-embedding-3-small', 1536))).ok).toBe(true);
    await cairn.whenIdle();
    const settled = await cairn.api.app.status();
    expect(settled.ok && settled.value.reindex).toMatchObject({ activeSpace: MODEL_B, pendingSpace: null });
  });

  it('back to keyword search only: the vectors are dropped and search keeps finding everything', async () => {
    expect((await cairn.api.settings.update({ embedding: { provider: 'builtin', apiKey: '' } })).ok).toBe(
      true,
    );
    await cairn.whenIdle();
    const status = await cairn.api.app.status();
    expect(status.ok && status.value.reindex).toMatchObject({ activeSpace: '', pendingSpace: null });
    const tables = await cairn.db.query(
      "SELECT tablename FROM pg_tables WHERE tablename LIKE 'embeddings\\_%'",
    );
    expect(tables.rows).toEqual([]);
    expect(await titlesFor('差旅报销')).toContain('差旅报销');
    expect(await titlesFor('installer wizard')).toHaveLength(10);
  });
});
