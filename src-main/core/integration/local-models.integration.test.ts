/**
 * Issue 12's whole path through the real composition root: pull the project-made tiny model from
 * the fake hub → switch the embedding provider to it (background re-embed, old vectors serving) →
 * load, tokenize, pool, normalise in worker threads → index → semantic search across languages →
 * a local reranker within its time budget → a query unrelated to everything finds nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProgress, SearchResponse } from '@shared/models';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { silentLogger } from '../logging/logger';
import { startFakeHub, type FakeHub } from '../../testing/fakes/fake-hub';
import { unwrap, syncToEnd } from '../../testing/integration-kit';
import {
  TINY_EMBEDDER,
  TINY_RERANKER,
  tinyHubRepo,
  writeTinyCatalog,
} from '../../testing/models/tiny-catalog';

let scratch: string;
let hub: FakeHub;
let cairn: CairnInternals;
const progress: ModelProgress[] = [];

const NOTES: Record<string, string> = {
  'car-repair.md': '# Car repair\n\nMy automobile broke down on the highway; the vehicle needs service.',
  'invoice.md': '# 报销\n\n提交报销需要附上发票。',
  'weather.md': '# Weather\n\nThe forecast says rain next week.',
  'meeting.md': '# 会议纪要\n\n下周的会议改到周三。',
};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-local-models-'));
  const notes = join(scratch, 'notes');
  mkdirSync(notes);
  for (const [name, text] of Object.entries(NOTES)) writeFileSync(join(notes, name), text);
  hub = await startFakeHub({ repos: [tinyHubRepo()] });
  const env = {
    CAIRN_MODEL_CATALOG: writeTinyCatalog(join(scratch, 'catalog.json')),
    CAIRN_MODEL_MIRROR: hub.url,
  };
  // Vectors are built in the background where the scheduler runs; this test has none, so it asks for the builder.
  cairn = await createCairn({ env, scheduler: false, buildSemanticIndex: true, logger: silentLogger() });
  cairn.events.on('models.progress', (event) => progress.push(event));
  const connection = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: notes },
      secrets: {},
    }),
  );
  await syncToEnd(cairn, connection.id);
}, 120_000);

afterAll(async () => {
  await cairn?.dispose();
  await hub?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function search(query: string): Promise<SearchResponse> {
  return unwrap(await cairn.api.search.query({ query, k: 5 }));
}

const titles = (response: SearchResponse) => response.documents.map((d) => d.best.title);

describe('a local model, end to end', () => {
  it('refuses to use a model that is not downloaded yet, then downloads it with progress from the mirror', async () => {
    const refused = await cairn.api.settings.update({
      embedding: { provider: 'local', model: TINY_EMBEDDER },
    });
    const before = unwrap(await cairn.api.models.list()).models.find((m) => m.id === TINY_EMBEDDER);
    unwrap(await cairn.api.models.pull({ id: TINY_EMBEDDER }));
    await cairn.models.service.whenIdle();
    const after = unwrap(await cairn.api.models.list());
    expect({
      refused: refused.ok ? 'saved' : refused.error.code,
      before: { installed: before?.installed, downloadable: before?.downloadable },
      installed: after.models.find((m) => m.id === TINY_EMBEDDER)?.installed?.verified,
      source: after.source,
      progressed: progress.some(
        (p) => p.id === TINY_EMBEDDER && p.phase === 'downloading' && p.doneBytes > 0,
      ),
    }).toEqual({
      refused: 'MODEL_NOT_FOUND',
      before: { installed: null, downloadable: true },
      installed: true,
      source: { kind: 'mirror', url: hub.url, fromEnv: true },
      progressed: true,
    });
  });

  it('re-embeds into the local model’s space and finds documents by meaning across languages', async () => {
    const lexical = await search('汽车坏了');
    unwrap(await cairn.api.settings.update({ embedding: { provider: 'local', model: TINY_EMBEDDER } }));
    await cairn.whenIdle();
    const status = unwrap(await cairn.api.app.status()).reindex;
    const semantic = await search('汽车坏了');
    const invoice = await search('reimbursement receipt');
    expect({
      before: titles(lexical).includes('Car repair'),
      space: status.activeSpace.replace(/@[0-9a-f]{8}\./, '@<sha>.'),
      pending: status.pendingSpace,
      first: titles(semantic)[0],
      byVectorOnly: semantic.documents[0]?.best.ranks.keyword,
      crossLanguage: titles(invoice)[0],
    }).toEqual({
      before: false,
      space: `local/${TINY_EMBEDDER}@<sha>.r1/64`,
      pending: null,
      first: 'Car repair',
      byVectorOnly: undefined,
      crossLanguage: '报销',
    });
  });

  it('finds nothing for a query unrelated to every document (the model’s similarity floor)', async () => {
    expect((await search('zebra giraffe')).hits).toEqual([]);
  });

  it('reranks the fused candidates with the local reranker within its budget, and says when it skips', async () => {
    expect((await search('car')).rerank).toBeUndefined();
    unwrap(await cairn.api.models.pull({ id: TINY_RERANKER }));
    await cairn.models.service.whenIdle();
    unwrap(await cairn.api.settings.update({ reranker: { budgetMs: 10_000 } }));
    let response = await search('vehicle meeting');
    for (let i = 0; i < 60 && response.rerank?.reason === 'loading'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      response = await search('vehicle meeting');
    }
    unwrap(await cairn.api.settings.update({ reranker: { budgetMs: 0 } }));
    const overBudget = await search('vehicle meeting');
    unwrap(await cairn.api.settings.update({ reranker: { enabled: false } }));
    const off = await search('vehicle meeting');
    expect({
      applied: {
        status: response.rerank?.status,
        model: response.rerank?.model,
        depth: response.rerank?.depth,
      },
      ranked: response.hits.filter((hit) => hit.ranks.rerank !== undefined).length,
      overBudget: { status: overBudget.rerank?.status, reason: overBudget.rerank?.reason },
      off: off.rerank,
      stillAnswers: overBudget.hits.length > 0,
    }).toEqual({
      applied: { status: 'applied', model: TINY_RERANKER, depth: response.hits.length },
      ranked: response.hits.length,
      overBudget: { status: 'skipped', reason: 'budget' },
      off: undefined,
      stillAnswers: true,
    });
  });

  it('will not remove the embedding model in use', async () => {
    const refused = await cairn.api.models.remove({ id: TINY_EMBEDDER });
    expect(refused.ok ? 'removed' : refused.error.code).toBe('INVALID_ARGUMENT');
  });
});
