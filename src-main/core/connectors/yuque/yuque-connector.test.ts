import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../logging/logger';
import type { DocumentRef } from '../connector';
import { startYuqueFake, type YuqueFake } from '../../../testing/fakes/yuque-fake';
import { blocksToMarkdown } from '../../../testing/fakes/fixtures/markup';
import { CairnError } from '../../errors';
import { yuqueApiBase } from './yuque-api';
import { YuqueConnector, yuquePacing, type YuqueConnectorOptions } from './yuque-connector';
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
    // The names as Yuque returned them, the rest as a code and params the UI says in its language.
    expect(await connect(fake).validate()).toEqual({
      message:
        'Connected to Yuque as Cairn 演示用户 (cairn-demo); 2 personal knowledge bases visible, team knowledge bases are listed on sync.',
      code: 'connection.yuqueOk',
      params: { login: 'cairn-demo', name: 'Cairn 演示用户', account: 'named', repos: 2, visible: 'some' },
    });
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
        expect.stringContaining('not allowed to read the account or its knowledge bases'),
      ]);
    } finally {
      fake.control.denyPermission(false);
    }
  });

  it('takes a site or space root and appends /api/v2, and still takes the full API URL (#28 item 7)', async () => {
    expect(
      [
        '',
        'https://acme.yuque.com',
        'https://acme.yuque.com/',
        'https://acme.yuque.com/api/v2/',
        'https://yuque.example.cn/custom/api',
      ].map((typed) => yuqueApiBase(typed, 'https://www.yuque.com/api/v2')),
    ).toEqual([
      'https://www.yuque.com/api/v2',
      'https://acme.yuque.com/api/v2',
      'https://acme.yuque.com/api/v2',
      'https://acme.yuque.com/api/v2',
      'https://yuque.example.cn/custom/api',
    ]);
    const start = fake.control.requests.length;
    for (const typed of [fake.siteUrl, `${fake.siteUrl}/`, fake.baseUrl])
      expect(await connect(fake, { baseUrl: typed }).validate()).toMatchObject({
        code: 'connection.yuqueOk',
      });
    const paths = fake.control.requests.slice(start).map((request) => request.path);
    expect(paths.length).toBeGreaterThan(2);
    expect(paths.every((path) => path.startsWith('/api/v2/'))).toBe(true);
  });

  it('lists every document of the user and team repos across offset pages', async () => {
    const big = await startYuqueFake({ documents: 240, knowledgeBases: 2 });
    try {
      const refs = await listAll(connect(big));
      // 240 corpus docs + the Sheet and Table extras (the Board is skipped); the team repo has 120 docs (two pages).
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
        // updated_at plus a digest of the document's place in the TOC (a move is a change).
        revision: expect.stringMatching(
          new RegExp(`^${new Date(first.updatedAt).toISOString()}#[0-9a-f]{12}$`),
        ),
      });
      expect(big.control.requests.filter((r) => r.path.endsWith('/toc')).map((r) => r.path)).toEqual([
        '/api/v2/repos/5000/toc',
        '/api/v2/repos/5001/toc',
      ]);
    } finally {
      await big.close();
    }
  });

  it("fetches Markdown and lake bodies, sheets and paged data tables, with each document's TOC breadcrumb; skips boards at listing", async () => {
    const connector = connect(fake);
    const skipped: { externalId: string; kind?: string }[] = [];
    const refs: DocumentRef[] = [];
    for await (const ref of connector.list(undefined, {
      skipped: (item) => skipped.push({ externalId: item.externalId, kind: item.kind }),
      incomplete: (gap) => {
        throw gap.error;
      },
    }))
      refs.push(ref);
    expect(skipped).toEqual([{ externalId: '90002', kind: 'board' }]);
    const byId = (id: number) => refs.find((r) => r.externalId === String(id))!;
    const markdownDoc = fake.control.store.list().find((d) => d.id % 5 !== 2)!;
    expect(await connector.fetch(byId(markdownDoc.id))).toEqual({
      markdown: blocksToMarkdown(markdownDoc.blocks),
      title: markdownDoc.title,
      breadcrumb: fake.control.breadcrumbOf(markdownDoc.id),
    });
    const nested = fake.control.store.list().find((d) => fake.control.breadcrumbOf(d.id).length === 2)!;
    expect((await connector.fetch(byId(nested.id))).breadcrumb).toEqual([
      expect.stringMatching(/^第 \d+ 部分 Part \d+$/),
      expect.any(String),
    ]);
    // A lake document's body carries Markdown (Tencent/WeKnora, from the live API): taken as it is.
    const lakeDoc = fake.control.store.list().find((d) => d.id % 5 === 2)!;
    expect((await connector.fetch(byId(lakeDoc.id))).markdown).toBe(blocksToMarkdown(lakeDoc.blocks));
    expect((await connector.fetch(byId(90_001))).markdown).toBe(
      '## Sheet1\n\n| 城市 | Region | 负责人 |\n| --- | --- | --- |\n| 杭州 | cn-hangzhou | 张三 |\n| Seattle | us-west-1 | Alice |\n',
    );
    const table = (await connector.fetch(byId(90_003))).markdown.trim().split('\n');
    expect(table.length).toBe(2 + 250);
    expect(table.slice(0, 3)).toEqual([
      '| Column 1 | Column 2 | Column 3 |',
      '| --- | --- | --- |',
      '| A-001 | 服务器 1 | retired |',
    ]);
    expect(table.at(-1)).toBe('| A-250 | Laptop 250 | retired |');
    const tablePages = fake.control.requests.filter((r) => r.path === '/api/v2/repos/docs/90003');
    expect(tablePages.map((r) => [r.query.page, r.query.page_size])).toEqual([
      [undefined, undefined],
      ['2', '100'],
      ['3', '100'],
    ]);
  });

  it('converts body_html, then body_lake, when a lake body holds no text; never indexes a lake document empty', async () => {
    const local = await startYuqueFake({ documents: 10, lakeBody: 'empty', specialDocuments: false });
    try {
      const connector = connect(local);
      const refs = await listAll(connector);
      const lakeDoc = local.control.store.list().find((d) => d.id % 5 === 2)!;
      const converted = (await connector.fetch(refs.find((r) => r.externalId === String(lakeDoc.id))!))
        .markdown;
      // turndown output equals the fixture's own Markdown for headings, lists, code and tables
      // (apart from turndown's wider list-marker padding).
      expect(converted.trim().replace(/^(-|\d+\.) +/gm, '$1 ')).toBe(blocksToMarkdown(lakeDoc.blocks).trim());
    } finally {
      await local.close();
    }
  });

  it('reads teams given as a list or as the single object the spec declares; a failing team listing is a reported gap', async () => {
    const single = await startYuqueFake({ documents: 20, knowledgeBases: 2, groupsShape: 'object' });
    try {
      const refs = await listAll(connect(single));
      expect(new Set(refs.map((r) => r.knowledgeBase))).toEqual(new Set(['产品手册', 'Engineering Notes']));
      single.control.inject({ kind: 'server-error' }, { path: '/groups', times: 10 });
      const gaps: string[] = [];
      const partial: DocumentRef[] = [];
      for await (const ref of connect(single).list(undefined, {
        skipped: () => {},
        incomplete: (gap) => gaps.push(`${gap.message}: ${(gap.error as CairnError).code}`),
      }))
        partial.push(ref);
      expect(gaps).toEqual(['The teams of Yuque user cairn-demo could not be listed: SOURCE_ERROR']);
      expect(new Set(partial.map((r) => r.knowledgeBase))).toEqual(new Set(['产品手册']));
    } finally {
      await single.close();
    }
  });

  it('stops at the hourly quota with RATE_LIMITED (the sync defers the rest), and paces 80 a minute by default', async () => {
    const limited = await startYuqueFake({ documents: 20, hourlyQuota: 12 });
    try {
      const connector = connect(limited);
      const refs = await listAll(connector);
      const outcomes: string[] = [];
      for (const ref of refs)
        outcomes.push(
          await connector.fetch(ref).then(
            () => 'ok',
            (error: CairnError) => error.code,
          ),
        );
      expect(outcomes.filter((o) => o === 'ok').length).toBe(
        12 - limited.control.requests.filter((r) => !r.path.startsWith('/api/v2/repos/docs/')).length,
      );
      expect(outcomes.at(-1)).toBe('RATE_LIMITED');
      const error = await failure(connector.fetch(refs[0]!));
      // What Yuque answered, and no quota number the spec does not document.
      expect(error.message).toMatch(
        /^Yuque answered that its request limit was reached \(.*HTTP 429 \(Too Many Requests\), no Retry-After\); Cairn carries on at the next sync\.$/,
      );
      expect(error.message).not.toMatch(/5,000|an hour/);
      limited.control.newHour();
      expect((await connector.fetch(refs[0]!)).markdown.length).toBeGreaterThan(10);
    } finally {
      await limited.close();
    }
    expect(yuquePacing(5)).toEqual([
      { intervalMs: 60_000, intervalCap: 80 },
      { intervalMs: 1000, intervalCap: 5 },
    ]);
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
      'UNEXPECTED_RESPONSE',
      'Yuque answered GET /api/v2/repos/docs/{id} with something that is not JSON.',
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
    fake.control.inject({ kind: 'rate-limit', resetSeconds: 0.01 }, { times: 2 });
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
