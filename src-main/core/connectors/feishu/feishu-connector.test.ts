import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, silentLogger, type Logger } from '../../logging/logger';
import type { DocumentRef } from '../connector';
import { FeishuConnector, type FeishuConnectorOptions } from './feishu-connector';
import { startFeishuFake, type FeishuFake } from '../../../testing/fakes/feishu-fake';
import { DRIVE_KB, MY_LIBRARY_KB } from '../../../testing/fakes/fixtures/feishu-shapes';
import { blocksToMarkdown, blocksToPlainText } from '../../../testing/fakes/fixtures/markup';
import { failure, listAll, retryWaitsLogger } from '../../../testing/connector-test-kit';

const FAST: FeishuConnectorOptions = {
  http: { backoffBaseMs: 5, backoffMaxMs: 20 },
  rates: { api: { intervalMs: 1000, intervalCap: 1000 } },
};

interface Setup {
  platform?: 'feishu' | 'lark';
  appId?: string;
  appSecret?: string;
  refreshToken?: string | null;
  baseUrl?: string;
  drive?: boolean;
  options?: FeishuConnectorOptions;
  logger?: Logger;
  saved?: Record<string, string>[];
}

function connect(fake: FeishuFake, setup: Setup = {}): FeishuConnector {
  const secrets: Record<string, string> = { appSecret: setup.appSecret ?? fake.credentials.appSecret };
  if (setup.refreshToken !== null)
    secrets.userRefreshToken = setup.refreshToken ?? fake.control.latestRefreshToken;
  const config: Record<string, string> = {
    baseUrl: setup.baseUrl ?? fake.baseUrl,
    appId: setup.appId ?? fake.credentials.appId,
  };
  if (setup.drive) config.driveFolderTokens = fake.credentials.driveFolderTokens;
  return new FeishuConnector(
    setup.platform ?? 'feishu',
    {
      config,
      secrets,
      logger: setup.logger ?? silentLogger(),
      saveSecrets: async (s) => void setup.saved?.push(s),
    },
    setup.options ?? FAST,
  );
}

describe('FeishuConnector against the fake', () => {
  let fake: FeishuFake;
  beforeAll(async () => {
    // 300 documents put 50 root docx (plus 3 other nodes) in each space: more than one 50-node page.
    fake = await startFeishuFake({ documents: 300, knowledgeBases: 3 });
  });
  afterAll(() => fake.close());

  it('validates credentials with a precise error for each failure', async () => {
    expect(await connect(fake).validate()).toEqual({
      message:
        'Connected to Feishu as app cli_cairnfake0001: 3 knowledge spaces visible; search enabled (user authorised).',
      code: 'connection.feishuOk',
      params: { appId: 'cli_cairnfake0001', spaces: 3, visible: 'some', search: 'on' },
    });
    const wrong = await failure(connect(fake, { appSecret: 'not-the-secret-value' }).validate());
    expect([wrong.code, wrong.message]).toEqual([
      'AUTH_INVALID',
      expect.stringContaining('rejected the App Secret (code 10014): it is wrong, or the app is disabled'),
    ]);
    const wrongId = await failure(connect(fake, { appId: 'cli_nosuchapp0000' }).validate());
    expect([wrongId.code, wrongId.message]).toEqual([
      'AUTH_INVALID',
      expect.stringContaining('does not know this App ID (code 10003)'),
    ]);
    const unreachable = await failure(connect(fake, { baseUrl: 'http://127.0.0.1:9' }).validate());
    expect([unreachable.code, unreachable.message]).toEqual([
      'SOURCE_UNREACHABLE',
      expect.stringContaining('check the base URL'),
    ]);
    fake.control.revokeScope(true);
    const denied = await failure(connect(fake).validate()).finally(() => fake.control.revokeScope(false));
    expect([denied.code, denied.message]).toEqual([
      'PERMISSION_DENIED',
      expect.stringContaining('wiki:wiki:readonly'),
    ]);
    const local = await startFeishuFake({ documents: 3 });
    try {
      local.control.expireRefreshTokens();
      const expired = await failure(connect(local).validate());
      expect([expired.code, expired.message]).toEqual([
        'AUTH_EXPIRED',
        expect.stringContaining('Sign in again'),
      ]);
    } finally {
      await local.close();
    }
  });

  it('walks spaces, nested nodes, My Library and drive folders: docx, sheets and bitables once each; other types skipped and counted', async () => {
    const skipped: string[] = [];
    const refs: DocumentRef[] = [];
    for await (const ref of connect(fake, { drive: true }).list(undefined, {
      skipped: (item) => skipped.push(item.kind ?? item.reason),
      incomplete: (gap) => {
        throw gap.error;
      },
    }))
      refs.push(ref);
    const docx = fake.control.store.list().map((d) => fake.control.externalIdOf(d.id));
    const tables = refs.map((r) => r.externalId).filter((id) => !id.startsWith('doxcn'));
    expect(
      refs
        .map((r) => r.externalId)
        .filter((id) => id.startsWith('doxcn'))
        .sort(),
    ).toEqual(docx.sort());
    // One sheet and one bitable per space, plus the drive's spreadsheet file.
    expect(tables.sort()).toEqual(
      [
        ...[0, 1, 2].flatMap((kb) => [`sheetCairn${80_000 + kb * 10}`, `bitableCairn${80_003 + kb * 10}`]),
        'shtcnCairnSheet01',
      ].sort(),
    );
    expect(skipped.sort()).toEqual([
      'doc',
      'doc',
      'doc',
      'file',
      'file',
      'file',
      'mindnote',
      'mindnote',
      'mindnote',
      'slides',
      'slides',
      'slides',
    ]);
    expect(refs.filter((r) => r.knowledgeBase === 'My Library')).toHaveLength(
      fake.control.store.list(MY_LIBRARY_KB).length,
    );
    // The drive's docx files and its spreadsheet.
    expect(refs.filter((r) => r.knowledgeBase.startsWith('Drive'))).toHaveLength(
      fake.control.store.list(DRIVE_KB).length + 1,
    );
    const nodeCalls = fake.control.requests.filter((r) => r.path.endsWith('/nodes'));
    // The first space answers an empty first page with has_more:true; the walk kept paging.
    expect(nodeCalls.some((r) => r.status === 200 && r.query.page_token && !r.query.parent_node_token)).toBe(
      true,
    );
    expect(nodeCalls.filter((r) => r.query.parent_node_token).length).toBeGreaterThan(10);
    const rootPages = nodeCalls.filter(
      (r) => !r.query.parent_node_token && r.path.includes(encodeURIComponent('7300000000000000001')),
    );
    expect(rootPages.map((r) => Boolean(r.query.page_token))).toEqual([false, true]);
    expect(
      fake.control.requests.filter((r) => r.path === '/open-apis/drive/v1/files' && r.query.page_token)
        .length,
    ).toBeGreaterThan(0);
    const first = fake.control.store.list(0)[0]!;
    expect(refs.find((r) => r.externalId === fake.control.externalIdOf(first.id))).toEqual({
      externalId: fake.control.externalIdOf(first.id),
      title: first.title,
      knowledgeBase: '产品手册',
      url: `https://cairn-demo.feishu.cn/wiki/wikcnCairn${String(first.id).padStart(17, '0')}`,
      remoteUpdatedAt: new Date(Math.floor(first.updatedAt / 1000) * 1000).toISOString(),
      revision: String(Math.floor(first.updatedAt / 1000)),
    });
  });

  it('serves Lark from the same paths with Lark links', async () => {
    const lark = await startFeishuFake({ platform: 'lark', documents: 4, extraNodes: false });
    try {
      const refs = await listAll(connect(lark, { platform: 'lark', refreshToken: null }));
      expect(refs.map((r) => new URL(r.url!).host)).toEqual(Array(4).fill('cairn-demo.larksuite.com'));
    } finally {
      await lark.close();
    }
  });

  it('fetches Markdown, falls back to blocks (paged) and then raw_content', async () => {
    const local = await startFeishuFake({ documents: 10, blockPageSize: 7 });
    try {
      const connector = connect(local);
      const refs = await listAll(connector);
      const [plain, viaBlocks, viaRaw] = local.control.store.list(0);
      const refOf = (id: number) => refs.find((r) => r.externalId === local.control.externalIdOf(id))!;
      expect((await connector.fetch(refOf(plain!.id))).markdown).toBe(blocksToMarkdown(plain!.blocks));
      local.control.breakExport(viaBlocks!.id);
      expect((await connector.fetch(refOf(viaBlocks!.id))).markdown).toBe(
        blocksToMarkdown(viaBlocks!.blocks),
      );
      expect(local.control.requests.filter((r) => r.path.endsWith('/blocks')).length).toBeGreaterThan(1);
      local.control.breakExport(viaRaw!.id, { blocks: true });
      expect((await connector.fetch(refOf(viaRaw!.id))).markdown).toBe(
        `${viaRaw!.title}\n${blocksToPlainText(viaRaw!.blocks)}`,
      );
      // 2889925 (over 10 MB, HTTP 500) is not retried: one call, then the fallbacks.
      const contentCalls = local.control.requests.filter(
        (r) =>
          r.path === '/open-apis/docs/v1/content' &&
          r.query.doc_token === local.control.externalIdOf(viaBlocks!.id),
      );
      expect(contentCalls.map((r) => r.status)).toEqual([500]);
    } finally {
      await local.close();
    }
  });

  it('keeps docs/v1/content under its 5/s cap, read off a fake clock', async () => {
    const local = await startFeishuFake({ documents: 12 });
    try {
      const connector = connect(local, { options: { http: FAST.http, rates: { api: FAST.rates!.api } } });
      const refs = (await listAll(connector)).filter((r) => r.externalId.startsWith('doxcn')).slice(0, 12);
      // The pacer (p-queue's interval) and the fake's arrival stamps read the same fake clock, which
      // moves only when the test says: five requests may arrive per second of it, no more.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      const t0 = Date.now();
      let settled = 0;
      const fetches = Promise.all(refs.map((ref) => connector.fetch(ref).finally(() => void settled++)));
      const whenSettled = async (count: number) => {
        while (settled < count) await new Promise((resolve) => setImmediate(resolve));
      };
      await whenSettled(5);
      await vi.advanceTimersByTimeAsync(1000);
      await whenSettled(10);
      await vi.advanceTimersByTimeAsync(1000);
      await fetches;
      const content = local.control.requests.filter((r) => r.path === '/open-apis/docs/v1/content');
      expect(content.map((r) => [r.at - t0, r.status])).toEqual([
        ...Array.from({ length: 5 }, () => [0, 200]),
        ...Array.from({ length: 5 }, () => [1000, 200]),
        ...Array.from({ length: 2 }, () => [2000, 200]),
      ]);
    } finally {
      vi.useRealTimers();
      await local.close();
    }
  });

  it('searches with the user token, rotating and persisting the single-use refresh token', async () => {
    const saved: Record<string, string>[] = [];
    const original = fake.control.latestRefreshToken;
    const connector = connect(fake, { saved });
    const hits = await connector.search('向量检索', { limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    // The search page documents queries of 0-50 characters; the connector trims longer ones.
    expect(
      await connector.search('a query that is much longer than fifty characters, so it is trimmed', {
        limit: 5,
      }),
    ).toEqual([]);
    const searchDoc = fake.control.store
      .list()
      .find((d) => fake.control.externalIdOf(d.id) === hits[0]!.externalId)!;
    expect(hits[0]).toEqual({
      externalId: fake.control.externalIdOf(searchDoc.id),
      title: searchDoc.title,
      snippet: expect.not.stringContaining('<h>'),
      url: expect.stringContaining('https://cairn-demo.feishu.cn/wiki/'),
      knowledgeBase: fake.control.store.knowledgeBases[searchDoc.knowledgeBase]!.name,
    });
    expect(saved).toEqual([
      { appSecret: fake.credentials.appSecret, userRefreshToken: fake.control.latestRefreshToken },
    ]);
    expect(fake.control.latestRefreshToken).not.toBe(original);
    // The spent refresh token is refused from now on.
    const stale = await failure(connect(fake, { refreshToken: original }).search('向量', { limit: 3 }));
    expect([stale.code, stale.message]).toEqual(['AUTH_EXPIRED', expect.stringContaining('code 20073')]);
    const noUser = connect(fake, { refreshToken: null });
    expect(noUser.capabilities.search).toBe(false);
    expect((await failure(noUser.search('向量', { limit: 3 }))).code).toBe('PERMISSION_DENIED');
  });

  it('re-acquires expired tenant and user tokens once and renews them before expiry', async () => {
    const local = await startFeishuFake({ documents: 30, tokenTtlSeconds: 2 });
    try {
      const saved: Record<string, string>[] = [];
      const connector = connect(local, { saved, options: { ...FAST, tokenRefreshMarginMs: 1500 } });
      const refs: DocumentRef[] = [];
      for await (const ref of connector.list()) {
        refs.push(ref);
        if (refs.length === 3) local.control.expireTokens();
      }
      expect(refs.filter((r) => r.externalId.startsWith('doxcn'))).toHaveLength(30 + 2);
      const tokenCalls = () =>
        local.control.requests.filter((r) => r.path.endsWith('tenant_access_token/internal')).length;
      const rejected = () =>
        local.control.requests.filter((r) => r.status === 400 && !r.path.includes('token')).length;
      expect(tokenCalls()).toBeGreaterThanOrEqual(2);
      const [callsBefore, rejectedBefore] = [tokenCalls(), rejected()];
      await new Promise((resolve) => setTimeout(resolve, 600)); // now inside the renewal margin
      await connector.fetch(refs[0]!);
      expect([tokenCalls() - callsBefore, rejected() - rejectedBefore]).toEqual([1, 0]);
      local.control.expireTokens();
      expect((await connector.search('Notes', { limit: 2 })).length).toBe(2);
      expect(saved.at(-1)?.userRefreshToken).toBe(local.control.latestRefreshToken);
    } finally {
      await local.close();
    }
  });

  it('honours x-ogw-ratelimit-reset (429 and legacy 400), retries 500s, and names other faults', async () => {
    const { logger, waits } = retryWaitsLogger();
    const patient = connect(fake, {
      logger,
      options: { http: { backoffBaseMs: 10_000 }, rates: FAST.rates },
    });
    const refs = await listAll(patient);
    fake.control.inject({ kind: 'rate-limit', resetSeconds: 0.05 }, { path: '/docs/v1/content', times: 2 });
    expect((await patient.fetch(refs[0]!)).markdown.length).toBeGreaterThan(20);
    fake.control.useLegacyRateLimitStatus(true);
    fake.control.inject({ kind: 'rate-limit', resetSeconds: 0.05 }, { path: '/wiki/v2/spaces' });
    await patient.validate().finally(() => fake.control.useLegacyRateLimitStatus(false));
    // Each wait was the header's 50 ms, not the 5-10 s backoff.
    expect(waits()).toEqual([50, 50, 50]);

    const connector = connect(fake);
    fake.control.inject({ kind: 'server-error' }, { times: 3, path: '/docs/v1/content' });
    expect((await connector.fetch(refs[1]!)).markdown.length).toBeGreaterThan(20);
    fake.control.inject({ kind: 'malformed-json' }, { path: '/wiki/v2/spaces' });
    const malformed = await failure(listAll(connector));
    expect([malformed.code, malformed.message]).toEqual([
      'UNEXPECTED_RESPONSE',
      'Feishu answered GET /open-apis/wiki/v2/spaces without the {code, msg, data} envelope (HTTP 200).',
    ]);
    fake.control.inject({ kind: 'slow', delayMs: 1500 }, { path: '/docs/v1/content' });
    const impatient = connect(fake, { options: { ...FAST, http: { timeoutMs: 200 } } });
    expect((await failure(impatient.fetch(refs[2]!))).code).toBe('TIMEOUT');
    const victim = fake.control.store.list(1)[0]!;
    fake.control.vanishAfterListing(victim.id);
    const gone = await failure(
      connector.fetch(refs.find((r) => r.externalId === fake.control.externalIdOf(victim.id))!),
    );
    expect([gone.code, gone.message]).toEqual([
      'NOT_FOUND',
      expect.stringContaining('deleted after listing'),
    ]);
  });

  it('never writes app secrets or tokens to the log', async () => {
    const lines: string[] = [];
    const logger = createLogger({ sink: (line) => lines.push(line), level: 'debug' });
    const local = await startFeishuFake({ documents: 6 });
    try {
      const initialRefresh = local.control.latestRefreshToken;
      const connector = connect(local, { logger });
      local.control.inject({ kind: 'rate-limit', resetSeconds: 0.01 }, { times: 2, path: '/nodes' });
      local.control.inject({ kind: 'server-error' }, { times: 2, path: '/docs/v1/content' });
      const refs = await listAll(connector);
      local.control.expireTokens();
      local.control.breakExport(local.control.store.list(0)[0]!.id);
      await Promise.all(refs.slice(0, 3).map((ref) => connector.fetch(ref)));
      await connector.search('Notes', { limit: 3 });
      await failure(connect(local, { logger, appSecret: 'wrong-secret-value-42' }).validate());
      expect(lines.length).toBeGreaterThan(3);
      const leaks = lines.filter(
        (line) =>
          [
            local.credentials.appSecret,
            'wrong-secret-value-42',
            initialRefresh,
            local.control.latestRefreshToken,
          ].some((s) => line.includes(s)) || /\b(t|u|ur)-[0-9a-f]{32}\b/.test(line),
      );
      expect(leaks).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
