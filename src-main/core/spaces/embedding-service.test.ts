import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReindexStatus } from '@shared/models';
import { startFakeEmbeddingServer } from '../embedding/fake-embedding-server';
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
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
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

describe('changing the embedding model', () => {
  it('re-embeds in the background into a new space, keeps search working, then serves only the new space', async () => {
    const before = await cairn.api.app.status();
    expect(before.ok && before.value.reindex).toMatchObject({
      running: false,
      activeSpace: 'builtin/cairn-hash-v1/1024',
      pendingSpace: null,
    });
    const cost = await cairn.api.settings.reindexCost();
    expect(cost).toEqual({ ok: true, value: { documents: 13, chunks: 13 } });

    const progress: ReindexStatus[] = [];
    const off = cairn.events.on('reindex.progress', (status) => progress.push(status));
    const updated = await cairn.api.settings.update({ embedding: { provider: 'builtin', dimensions: 512 } });
    expect(updated.ok).toBe(true);
    // While the job runs (or right after), search still answers from whichever space is active.
    expect(await titlesFor('差旅报销')).toContain('差旅报销');
    await cairn.whenIdle();
    off();

    const after = await cairn.api.app.status();
    expect(after.ok && after.value.reindex).toMatchObject({
      running: false,
      activeSpace: 'builtin/cairn-hash-v1/512',
      pendingSpace: null,
    });
    expect(
      progress.some((status) => status.running && status.pendingSpace === 'builtin/cairn-hash-v1/512'),
    ).toBe(true);
    const hits = await cairn.api.search.query({ query: 'installer wizard' });
    expect(hits.ok && hits.value.hits.filter((hit) => hit.ranks.vector !== undefined).length).toBeGreaterThan(
      0,
    );
    expect(await titlesFor('差旅报销')).toContain('差旅报销');
  });

  it('a broken provider leaves the index serving; switching back discards the half-built space', async () => {
    const broken = await cairn.api.settings.update({
      embedding: {
        provider: 'custom',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'nope',
        dimensions: 512,
        apiKey: 'k-123456',
      },
    });
    // The settings are saved; the re-embed against an unreachable endpoint fails in the background.
    expect(broken.ok).toBe(true);
    await cairn.whenIdle();
    const status = await cairn.api.app.status();
    expect(status.ok && status.value.reindex).toMatchObject({
      running: false,
      activeSpace: 'builtin/cairn-hash-v1/512',
      pendingSpace: 'custom/nope/512',
    });
    expect(await titlesFor('差旅报销')).toContain('差旅报销');

    const back = await cairn.api.settings.update({
      embedding: { provider: 'builtin', dimensions: 512, apiKey: '' },
    });
    expect(back.ok).toBe(true);
    await cairn.whenIdle();
    const settled = await cairn.api.app.status();
    expect(settled.ok && settled.value.reindex).toMatchObject({
      running: false,
      activeSpace: 'builtin/cairn-hash-v1/512',
      pendingSpace: null,
    });
  });

  it('keeps the vector channel of a remote model serving while a re-embed to another model fails', async () => {
    const remote = await startFakeEmbeddingServer();
    try {
      const toRemote = await cairn.api.settings.update({
        embedding: {
          provider: 'custom',
          baseUrl: remote.baseUrl,
          model: 'text-embedding-v3',
          dimensions: 1024,
          apiKey: remote.apiKey,
        },
      });
      expect(toRemote.ok).toBe(true);
      await cairn.whenIdle();
      const served = await cairn.api.app.status();
      expect(served.ok && served.value.reindex.activeSpace).toBe('custom/text-embedding-v3/1024');

      const broken = await cairn.api.settings.update({
        embedding: { provider: 'custom', baseUrl: remote.baseUrl, model: 'no-such-model', dimensions: 256 },
      });
      expect(broken.ok).toBe(true);
      await cairn.whenIdle();
      // The old settings are gone, but the embedder that built the active space is still at hand.
      const hits = await cairn.api.search.query({ query: 'installer wizard' });
      expect(
        hits.ok && hits.value.hits.filter((hit) => hit.ranks.vector !== undefined).length,
      ).toBeGreaterThan(0);
    } finally {
      await remote.close();
    }
  });
});
