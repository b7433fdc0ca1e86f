/**
 * Yuque through the real composition root:
 * - a sync against answers generated from the official OpenAPI spec alone (every endpoint the
 *   connector calls, every declared field, the spec's inline examples) completes; answers with no
 *   fields at all (the spec marks none required) end the run with an error naming the field,
 *   never a JavaScript exception;
 * - a first sync larger than a token's hourly request quota completes across runs: each run
 *   indexes what the hour allows, defers the rest, and every document is fetched and indexed
 *   exactly once. 1,200 documents against 500 requests an hour take three runs, like 6,000
 *   against 2,500 (the same ratio at a fifth of the indexing: this test took a quarter of the
 *   unit suite's time at 6,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { defaultConnectorFactories } from '../connectors/registry';
import { YuqueConnector } from '../connectors/yuque/yuque-connector';
import { silentLogger } from '../logging/logger';
import { startYuqueFake } from '../../testing/fakes/yuque-fake';
import { startYuqueSpecServer } from '../../testing/fakes/yuque-spec-server';
import { syncToEnd, unwrap } from '../../testing/integration-kit';
import { findSharedReference } from '../../testing/shared-reference';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const UNTHROTTLED = { intervalMs: 1000, intervalCap: 1000 };
const DOCUMENTS = 1200;

let scratch: string;
let cairn: CairnInternals;

function specPath(): string {
  const found = findSharedReference(repoRoot, 'yuque-openapi.json');
  if (!found) throw new Error(`yuque-openapi.json not found in shared/ beside ${repoRoot} or above it.`);
  return found;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-yuque-it-'));
  cairn = await createCairn({
    dataDir: join(scratch, 'data'),
    env: {},
    scheduler: false,
    logger: silentLogger(),
    factories: {
      ...defaultConnectorFactories(),
      yuque: (init) =>
        new YuqueConnector(init, { http: { rate: UNTHROTTLED, backoffBaseMs: 5, backoffMaxMs: 20 } }),
    },
  });
});

afterAll(async () => {
  await cairn?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

async function addYuque(name: string, baseUrl: string, token: string): Promise<string> {
  const view = unwrap(
    await cairn.api.connections.add({
      platform: 'yuque',
      name,
      mode: 'rag',
      config: { baseUrl },
      secrets: { token },
    }),
  );
  return view.id;
}

describe('Yuque against the official spec and the hourly quota', () => {
  it('syncs against answers generated from the official spec; answers with no fields fail the run naming the field', async () => {
    const full = await startYuqueSpecServer({
      specPath: specPath(),
      shape: 'full',
      token: 'spec-token-full-0001',
    });
    const minimal = await startYuqueSpecServer({
      specPath: specPath(),
      shape: 'minimal',
      token: 'spec-token-minimal-0002',
    });
    try {
      const fullId = await addYuque('Spec (full)', full.baseUrl, 'spec-token-full-0001');
      const run = await syncToEnd(cairn, fullId);
      expect(run.status === 'succeeded' || run.status === 'partial').toBe(true);
      expect(run.counters.added).toBeGreaterThan(0);
      // No document failed with a JavaScript error (that would be INTERNAL).
      expect(run.errors.filter((e) => e.code === 'INTERNAL')).toEqual([]);
      const direct = new YuqueConnector({
        config: { baseUrl: full.baseUrl },
        secrets: { token: 'spec-token-full-0001' },
        logger: silentLogger(),
      });
      expect((await direct.search('body', { limit: 5 })).length).toBeGreaterThan(0);
      expect(full.templatesServed()).toEqual([
        '/api/v2/groups/{login}/repos',
        '/api/v2/repos/docs/{id}',
        '/api/v2/repos/{book_id}/docs',
        '/api/v2/repos/{book_id}/toc',
        '/api/v2/search',
        '/api/v2/user',
        '/api/v2/users/{id}/groups',
        '/api/v2/users/{login}/repos',
      ]);

      const minimalId = await addYuque('Spec (minimal)', minimal.baseUrl, 'spec-token-minimal-0002');
      const bare = await syncToEnd(cairn, minimalId);
      expect(bare).toMatchObject({
        status: 'failed',
        error: {
          code: 'UNEXPECTED_RESPONSE',
          message: expect.stringContaining(
            'GET /api/v2/user in a shape Cairn does not know: field "data.login"',
          ),
        },
      });
    } finally {
      await Promise.all([full.close(), minimal.close()]);
    }
  });

  it('completes a first sync larger than the hourly quota across runs, each document indexed exactly once', async () => {
    const fake = await startYuqueFake({
      documents: DOCUMENTS,
      knowledgeBases: 3,
      specialDocuments: false,
      hourlyQuota: 500,
      token: 'yuque-quota-token',
    });
    try {
      const id = await addYuque('Big Yuque', fake.baseUrl, 'yuque-quota-token');
      const runs = [];
      for (let hour = 0; hour < 5; hour++) {
        const run = await syncToEnd(cairn, id);
        runs.push(run);
        if (run.status === 'succeeded') break;
        fake.control.newHour();
      }
      const summary = runs.map((r) => [r.status, r.counters.added, r.counters.deferred, r.counters.failed]);
      expect(summary.at(-1)![0]).toBe('succeeded');
      expect(runs.length).toBeGreaterThanOrEqual(3);
      expect(runs.every((r) => r.counters.failed === 0)).toBe(true);
      expect(runs.slice(0, -1).every((r) => r.status === 'partial' && r.error?.code === 'RATE_LIMITED')).toBe(
        true,
      );
      expect(runs.reduce((sum, r) => sum + r.counters.added, 0)).toBe(DOCUMENTS);
      const view = unwrap(await cairn.api.connections.list()).find((c) => c.id === id)!;
      expect(view.documentCount).toBe(DOCUMENTS);
      const fetchedOk = fake.control.requests.filter(
        (r) => r.path.startsWith('/api/v2/repos/docs/') && r.status === 200,
      );
      expect(fetchedOk.length).toBe(DOCUMENTS);
      expect(new Set(fetchedOk.map((r) => r.path)).size).toBe(DOCUMENTS);
    } finally {
      await fake.close();
    }
  }, 900_000);
});
