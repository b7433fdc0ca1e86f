import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../logging/logger';
import type { DocumentRef } from '../connector';
import { startYuqueFake, type YuqueFake } from '../../../testing/fakes/yuque-fake';
import { blocksToMarkdown } from '../../../testing/fakes/fixtures/markup';
import { YuqueConnector, type YuqueConnectorOptions } from './yuque-connector';
import { failure, listAll, retryWaitsLogger } from '../../../testing/connector-test-kit';

const FAST: YuqueConnectorOptions = {
  http: { backoffBaseMs: 5, backoffMaxMs: 20, rate: { intervalMs: 1000, intervalCap: 1000 } },
};

function connect(
  fake: YuqueFake,
  overrides: {
    token?: string;
    baseUrl?: string;
    options?: YuqueConnectorOptions;
    logger?: ReturnType<typeof silentLogger>;
  } = {},
): YuqueConnector {
  return new YuqueConnector(
    {
      config: { baseUrl: overrides.baseUrl ?? fake.baseUrl },
      secrets: { token: overrides.token ?? fake.credentials.token },
      logger: overrides.logger ?? silentLogger(),
    },
    overrides.options ?? FAST,
  );
}

describe('YuqueConnector against the fake', () => {
  let fake: YuqueFake;
  beforeAll(async () => {
    fake = await startYuqueFake({ documents: 230, knowledgeBases: 3 });
  });
  afterAll(() => fake.close());

  it('validates credentials with a precise error for each failure', async () => {
    expect(await connect(fake).validate()).toMatch(/^Connected to Yuque as Cairn 演示用户 \(cairn-demo\)/);
    const wrong = await failure(connect(fake, { token: 'not-the-token' }).validate());
    expect([wrong.code, wrong.message]).toEqual([
      'AUTH_INVALID',
      expect.stringContaining('https://www.yuque.com/settings/tokens'),
    ]);
    const unreachable = await failure(connect(fake, { baseUrl: 'http://127.0.0.1:9/api/v2' }).validate());
    expect([unreachable.code, unreachable.message]).toEqual([
      'SOURCE_UNREACHABLE',
      expect.stringContaining('check the base URL'),
    ]);
    fake.control.denyPermission(true);
    try {
      const denied = await failure(connect(fake).validate());
      expect([denied.code, denied.message]).toEqual([
        'PERMISSION_DENIED',
        expect.stringContaining('cannot read knowledge bases'),
      ]);
    } finally {
      fake.control.denyPermission(false);
    }
  });

  it('lists every document of the user and team repos across offset pages', async () => {
    const big = await startYuqueFake({ documents: 240, knowledgeBases: 2 });
    try {
      const refs = await listAll(connect(big));
      // 240 corpus docs + the Sheet and Board extras; the team repo has 120 docs (two pages).
      expect(refs).toHaveLength(242);
      expect(new Set(refs.map((r) => r.externalId)).size).toBe(242);
      const offsets = big.control.requests
        .filter((r) => r.path === '/api/v2/repos/5001/docs')
        .map((r) => r.query.offset);
      expect(offsets).toEqual(['0', '100']);
      const first = big.control.store.list()[0]!;
      expect(refs.find((r) => r.externalId === String(first.id))).toEqual({
        externalId: String(first.id),
        title: first.title,
        knowledgeBase: '产品手册',
        url: `${new URL(big.baseUrl).origin}/cairn-demo/product-handbook/${first.slug}`,
        remoteUpdatedAt: new Date(first.updatedAt).toISOString(),
        revision: new Date(first.updatedAt).toISOString(),
      });
    } finally {
      await big.close();
    }
  });

  it('fetches Markdown bodies, converts lake/HTML bodies and sheets, and refuses boards per document', async () => {
    const connector = connect(fake);
    const refs = await listAll(connector);
    const byId = (id: number) => refs.find((r) => r.externalId === String(id))!;
    const markdownDoc = fake.control.store.list().find((d) => d.id % 5 !== 2)!;
    expect((await connector.fetch(byId(markdownDoc.id))).markdown).toBe(blocksToMarkdown(markdownDoc.blocks));
    const lakeDoc = fake.control.store.list().find((d) => d.id % 5 === 2)!;
    const converted = (await connector.fetch(byId(lakeDoc.id))).markdown;
    // turndown output equals the fixture's own Markdown for headings, lists, code and tables
    // (apart from turndown's wider list-marker padding).
    expect(converted.trim().replace(/^(-|\d+\.) +/gm, '$1 ')).toBe(blocksToMarkdown(lakeDoc.blocks).trim());
    expect((await connector.fetch(byId(90_001))).markdown).toBe(
      '## Sheet1\n\n| 城市 | Region | 负责人 |\n| --- | --- | --- |\n| 杭州 | cn-hangzhou | 张三 |\n| Seattle | us-west-1 | Alice |\n',
    );
    const board = await failure(connector.fetch(byId(90_002)));
    expect([board.code, board.message]).toEqual(['UNSUPPORTED', expect.stringContaining('Board')]);
  });

  it('searches with Yuque search, strips <em>, and pages in twenties', async () => {
    const connector = connect(fake);
    const hits = await connector.search('Notes on', { limit: 30 });
    expect(hits).toHaveLength(30);
    expect(
      hits.every(
        (h) => !h.title.includes('<em>') && !h.snippet.includes('<em>') && h.title.includes('Notes on'),
      ),
    ).toBe(true);
    const doc = fake.control.store.get(Number(hits[0]!.externalId))!;
    expect(hits[0]).toMatchObject({
      title: doc.title,
      url: expect.stringMatching(
        new RegExp(`^${new URL(fake.baseUrl).origin}/cairn-(demo|team)/[a-z-]+/${doc.slug}$`),
      ),
    });
    expect(['产品手册', 'Engineering Notes', '团队周报 Weekly']).toContain(hits[0]!.knowledgeBase);
    const chinese = await connector.search('中文分词', { limit: 5 });
    expect(chinese.length).toBeGreaterThan(0);
    expect(chinese[0]!.snippet).toContain('中文分词');
  });

  it('honours a 429 reset hint, retries 500s, and names malformed JSON, vanished docs and timeouts', async () => {
    const { logger, waits } = retryWaitsLogger();
    const slowBackoff = connect(fake, {
      logger,
      options: { http: { backoffBaseMs: 10_000, rate: { intervalMs: 1000, intervalCap: 1000 } } },
    });
    fake.control.inject({ kind: 'rate-limit', resetSeconds: 0.05 }, { path: '/user' });
    await slowBackoff.validate();
    // Retry-After's 50 ms, not the 5-10 s backoff.
    expect(waits()).toEqual([50]);

    const connector = connect(fake);
    const ref = (await listAll(connector))[0]!;
    fake.control.inject({ kind: 'server-error' }, { times: 2, path: '/repos/docs/' });
    expect((await connector.fetch(ref)).markdown.length).toBeGreaterThan(50);
    expect(fake.control.requests.filter((r) => r.fault === 'server-error').map((r) => r.status)).toEqual([
      500, 500,
    ]);

    fake.control.inject({ kind: 'malformed-json' }, { path: '/repos/docs/' });
    const malformed = await failure(connector.fetch(ref));
    expect([malformed.code, malformed.message]).toEqual([
      'SOURCE_ERROR',
      'Yuque sent a malformed (non-JSON) answer to GET /repos/docs/' + ref.externalId + '.',
    ]);

    fake.control.inject({ kind: 'slow', delayMs: 1500 }, { path: '/repos/docs/' });
    const impatient = connect(fake, { options: { http: { timeoutMs: 200 } } });
    expect((await failure(impatient.fetch(ref))).code).toBe('TIMEOUT');

    const victim = fake.control.store.list()[3]!;
    fake.control.vanishAfterListing(victim.id);
    const gone = await failure(
      connector.fetch({ ...ref, externalId: String(victim.id), title: victim.title }),
    );
    expect([gone.code, gone.message]).toEqual([
      'NOT_FOUND',
      expect.stringContaining('deleted after listing'),
    ]);
  });

  it('sees changes, deletions and additions on the next listing', async () => {
    const local = await startYuqueFake({ documents: 12, specialDocuments: false });
    try {
      const connector = connect(local);
      const before = new Map((await listAll(connector)).map((r) => [r.externalId, r.revision]));
      const [changed, removed] = local.control.store.list();
      local.control.changeDocument(changed!.id, { title: '改过的标题 Renamed' });
      local.control.deleteDocument(removed!.id);
      const added = local.control.addDocument({ text: '新文档 fresh' });
      const after = await listAll(connector);
      const differences = after
        .filter((r) => before.get(r.externalId) !== r.revision)
        .map((r) => [r.externalId, r.title]);
      expect(differences).toEqual([
        [String(changed!.id), '改过的标题 Renamed'],
        [String(added), `New document ${added}`],
      ]);
      expect(after.some((r) => r.externalId === String(removed!.id))).toBe(false);
    } finally {
      await local.close();
    }
  });

  it('fails a sync on a token revoked mid-listing with AUTH_INVALID', async () => {
    const local = await startYuqueFake({ documents: 30 });
    try {
      const refs: DocumentRef[] = [];
      const listing = (async () => {
        for await (const ref of connect(local).list()) {
          refs.push(ref);
          if (refs.length === 5) local.control.expireToken();
        }
      })();
      expect((await failure(listing)).code).toBe('AUTH_INVALID');
      expect(refs.length).toBeLessThan(32);
    } finally {
      await local.close();
    }
  });

  it('never writes the token to the log, even while retrying and failing', async () => {
    const lines: string[] = [];
    const logger = createLogger({ sink: (line) => lines.push(line), level: 'debug' });
    const connector = connect(fake, { logger });
    fake.control.inject({ kind: 'rate-limit' }, { times: 2 });
    fake.control.inject({ kind: 'server-error' }, { times: 2 });
    await connector.validate();
    await listAll(connector);
    await failure(connect(fake, { logger, token: 'wrong-token-value-123' }).validate());
    expect(lines.length).toBeGreaterThan(2);
    expect(
      lines.filter((line) => line.includes(fake.credentials.token) || line.includes('wrong-token-value-123')),
    ).toEqual([]);
  });
});
