import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, silentLogger, type Logger } from '../../logging/logger';
import type { DocumentRef, ListingReport } from '../connector';
import type { CairnError } from '../../errors';
import {
  createDingTalkConnector,
  DingTalkConnector,
  type DingTalkConnectorOptions,
} from './dingtalk-connector';
import { DingTalkStreamClient } from './stream-client';
import { DingTalkStreamHub } from './stream-hub';
import { startDingTalkFake, type DingTalkFake } from '../../../testing/fakes/dingtalk-fake';
import { failure, listAll } from '../../../testing/connector-test-kit';
import { dingTalkHosts } from './dingtalk-hosts';

let fake: DingTalkFake;
/** One real Stream connection per fake, as the registry's hub shares one per app. */
const streams = new Map<DingTalkFake, DingTalkStreamClient>();
beforeAll(async () => {
  // 3 knowledge bases, nested folders, pages of 2: every list call pages.
  fake = await startDingTalkFake({ documents: 30, spaces: 3, maxPageSize: 2 });
});
afterAll(async () => {
  closeStreams();
  await fake.close();
});
afterEach(() => {
  fake.control.clearFaults();
  fake.control.autoExport = true;
  fake.control.stream.subscribed = true;
});

function closeStreams(target?: DingTalkFake): void {
  for (const [owner, client] of streams) {
    if (target && owner !== target) continue;
    client.dispose();
    streams.delete(owner);
  }
}

function streamOf(target: DingTalkFake, logger: Logger): DingTalkStreamClient {
  let client = streams.get(target);
  if (!client) {
    client = new DingTalkStreamClient({
      baseUrl: target.baseUrl,
      clientId: target.credentials.appKey!,
      clientSecret: target.credentials.appSecret!,
      logger,
      backoffBaseMs: 20,
    });
    streams.set(target, client);
  }
  return client;
}

function connect(
  target: DingTalkFake,
  options: DingTalkConnectorOptions & {
    logger?: Logger;
    config?: Record<string, string>;
    secrets?: Record<string, string>;
  } = {},
): DingTalkConnector {
  const { logger, config, secrets, ...rest } = options;
  const { appKey, appSecret, operatorId } = target.credentials;
  return new DingTalkConnector(
    {
      config: {
        baseUrl: target.baseUrl,
        oapiBaseUrl: target.oapiBaseUrl,
        appKey: appKey!,
        operatorId: operatorId!,
        ...config,
      },
      secrets: { appSecret: appSecret!, ...secrets },
      logger: logger ?? silentLogger(),
    },
    {
      exportEvents: streamOf(target, logger ?? silentLogger()),
      rateLimitWaitMs: 5,
      exportTimeoutMs: 3000,
      ...rest,
      http: { backoffBaseMs: 5, rate: { intervalMs: 1000, intervalCap: 10_000 }, ...rest.http },
    },
  );
}

function byId<T extends { externalId: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.externalId.localeCompare(b.externalId));
}

function expectedRefs(target: DingTalkFake): DocumentRef[] {
  return byId(
    target.control.documents().map((doc) => ({
      externalId: doc.externalId,
      title: doc.title,
      knowledgeBase: doc.knowledgeBase,
      url: doc.url,
      remoteUpdatedAt: doc.modifiedTime,
      revision: doc.modifiedTime,
    })),
  );
}

describe('DingTalkConnector: auth and validation', () => {
  it('validates good credentials and names the failure precisely otherwise', async () => {
    expect(await connect(fake).validate()).toMatchObject({
      message: expect.stringMatching(
        /^Connected to DingTalk; knowledge bases are visible \(e\.g\. ".+"\); full text arrives over DingTalk Stream\.$/,
      ),
      code: 'connection.dingtalkOk',
      params: { operator: 'configured', workspaces: 'some', example: expect.any(String), fullText: 'stream' },
    });
    await expect(
      connect(fake, { secrets: { appSecret: 'wrong-secret-value' } }).validate(),
    ).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    await expect(connect(fake, { config: { operatorId: 'someoneElse' } }).validate()).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(
      connect(fake, { config: { baseUrl: 'http://127.0.0.1:9' } }).validate(),
    ).rejects.toMatchObject({ code: 'SOURCE_UNREACHABLE' });
  });

  it('refuses to call without operatorId, with a config error and no request', async () => {
    const before = fake.control.requests.length;
    await expect(connect(fake, { config: { operatorId: '' } }).validate()).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/needs your userId .* or your unionId/),
    });
    await expect(
      connect(fake, { config: { operatorId: '' } }).search('要点', { limit: 5 }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(fake.control.requests.length).toBe(before);
  });

  it('derives the unionId (operatorId) from the userId through the user API, once, and names a userId it does not know', async () => {
    const start = fake.control.requests.length;
    const connector = connect(fake, { config: { operatorId: '', userId: fake.control.userId } });
    expect(await connector.validate()).toMatchObject({
      message: expect.stringMatching(
        new RegExp(
          `^Connected to DingTalk \\(unionId ${fake.credentials.operatorId} of user ${fake.control.userId}\\)`,
        ),
      ),
      params: { operator: 'derived', unionId: fake.credentials.operatorId, userId: fake.control.userId },
    });
    expect(byId(await listAll(connector))).toEqual(expectedRefs(fake));
    expect(
      fake.control.requests.slice(start).filter((call) => call === 'POST /topapi/v2/user/get'),
    ).toHaveLength(1);
    await expect(
      connect(fake, { config: { operatorId: '', userId: 'nobody-0000' } }).validate(),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/errcode 60121.*qyapi_get_member.*通讯录可见范围/),
    });
  });

  it('refreshes the token before it expires, without a rejected call', async () => {
    let clock = Date.now();
    const connector = connect(fake, { now: () => clock });
    const tokensBefore = fake.control.issuedTokens().length;
    await connector.validate();
    await connector.validate();
    clock += 7200 * 1000 - 200_000; // inside the 5-minute refresh margin
    await connector.validate();
    expect(fake.control.issuedTokens().length - tokensBefore).toBe(2);
  });

  it('refreshes once when the token expires mid-sync and lists everything', async () => {
    const connector = connect(fake);
    const refs: DocumentRef[] = [];
    const tokensBefore = fake.control.issuedTokens().length;
    for await (const ref of connector.list()) {
      refs.push(ref);
      if (refs.length === 3) fake.control.expireTokens();
    }
    expect({ refs: byId(refs), tokens: fake.control.issuedTokens().length - tokensBefore }).toEqual({
      refs: expectedRefs(fake),
      tokens: 2,
    });
  });
});

describe('DingTalkConnector: hosts (#28 item 1)', () => {
  it('derives the api. and oapi. hosts from the region, from an api. base URL, or takes an explicit legacy URL', () => {
    const configs: Record<string, string | boolean>[] = [
      {},
      { international: true },
      { baseUrl: 'https://api.dingtalk.com' },
      { baseUrl: 'https://api.dingtalk.io/' },
      { baseUrl: 'http://127.0.0.1:4010' },
      { baseUrl: 'http://127.0.0.1:4010', oapiBaseUrl: 'http://127.0.0.1:4011/' },
    ];
    expect(configs.map((config) => dingTalkHosts(config))).toEqual([
      { api: 'https://api.dingtalk.com', oapi: 'https://oapi.dingtalk.com' },
      { api: 'https://api.dingtalk.io', oapi: 'https://oapi.dingtalk.io' },
      { api: 'https://api.dingtalk.com', oapi: 'https://oapi.dingtalk.com' },
      { api: 'https://api.dingtalk.io', oapi: 'https://oapi.dingtalk.io' },
      { api: 'http://127.0.0.1:4010', oapi: 'http://127.0.0.1:4010' },
      { api: 'http://127.0.0.1:4010', oapi: 'http://127.0.0.1:4011' },
    ]);
  });

  /** Sends each DingTalk host to the fake origin that plays it, and records which hosts were asked. */
  function routed(target: DingTalkFake): { fetchImpl: typeof fetch; hosts: Set<string> } {
    const hosts = new Set<string>();
    const origins: Record<string, string> = {
      'api.dingtalk.io': target.baseUrl,
      'oapi.dingtalk.io': target.oapiBaseUrl,
      'api.dingtalk.com': target.baseUrl,
      'oapi.dingtalk.com': target.oapiBaseUrl,
    };
    const fetchImpl = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const origin = origins[url.host];
      if (!origin) throw new Error(`unexpected host ${url.host}`);
      hosts.add(`${url.host} ${url.pathname}`);
      return fetch(`${origin}${url.pathname}${url.search}`, init);
    }) as typeof fetch;
    return { fetchImpl, hosts };
  }

  it.each([
    ['the international region', { international: 'true' }, 'dingtalk.io'],
    ['an explicit https://api.dingtalk.com', { baseUrl: 'https://api.dingtalk.com' }, 'dingtalk.com'],
  ])('with %s, looks the user up on the oapi. host and reads on the api. host', async (_, config, domain) => {
    const { fetchImpl, hosts } = routed(fake);
    const connector = connect(fake, {
      exportEvents: undefined,
      config: { baseUrl: '', oapiBaseUrl: '', operatorId: '', userId: fake.control.userId, ...config },
      http: { fetchImpl },
    });
    expect(await connector.validate()).toMatchObject({ params: { operator: 'derived' } });
    expect([...hosts].filter((call) => call.includes('/topapi/'))).toEqual([
      `oapi.${domain} /topapi/v2/user/get`,
    ]);
    expect(
      [...hosts]
        .filter((call) => !call.includes('/topapi/'))
        .every((call) => call.startsWith(`api.${domain} `)),
    ).toBe(true);
    expect([...hosts].some((call) => call.includes('/v2.0/wiki/workspaces'))).toBe(true);
  });

  it('says where the user API was looked for when the base URL host does not serve it', async () => {
    const error = await failure(
      connect(fake, { config: { oapiBaseUrl: '', operatorId: '', userId: fake.control.userId } }).validate(),
    );
    expect(error.code).toBe('SOURCE_ERROR');
    expect(error.message).toMatch(`did not answer at ${fake.baseUrl} (HTTP 401)`);
    expect(error.message).toContain('Legacy API URL');
  });
});

describe('DingTalkConnector: permissions (#28 item 2)', () => {
  afterEach(() => fake.control.grantAllPermissions());

  it.each([
    ['Wiki.Workspace.Read', 'list knowledge bases'],
    ['Wiki.Node.Read', 'list the documents of a knowledge base'],
    ['Storage.File.Read', 'read a document’s text (blocks)'],
  ])('Test names a missing %s and the step that needs it', async (permission, step) => {
    fake.control.revokePermission(permission);
    const error = await failure(connect(fake, { exportEvents: undefined }).validate());
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain(`lacks the permission ${permission} needed to ${step}`);
    expect(error.details).toMatchObject({
      reason: 'dingtalk.missing-permission',
      params: { permissions: permission },
    });
  });

  it('with Stream on, a refused blocks query does not fail Test (the export reads those documents)', async () => {
    fake.control.revokePermission('Storage.File.Read');
    expect(await connect(fake).validate()).toMatchObject({ params: { fullText: 'stream' } });
  });

  it('a sync-time refusal names the permission too: listing without Wiki.Node.Read, reading without Storage.File.Read', async () => {
    fake.control.revokePermission('Wiki.Node.Read');
    const listing = await failure(listAll(connect(fake, { exportEvents: undefined })));
    expect(listing.message).toMatch(/lacks the permission Wiki\.Node\.Read/);
    fake.control.grantAllPermissions();
    const [doc] = fake.control.documents();
    fake.control.revokePermission('Storage.File.Read');
    const reading = await failure(
      connect(fake, { exportEvents: undefined }).fetch({
        externalId: doc!.externalId,
        title: doc!.title,
        knowledgeBase: doc!.knowledgeBase,
        url: doc!.url,
        remoteUpdatedAt: null,
        revision: null,
      }),
    );
    expect(reading).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { reason: 'dingtalk.missing-permission', params: { permissions: 'Storage.File.Read' } },
    });
    expect(reading.message).toMatch(/Storage\.File\.Read.*Turning on Stream/);
  });
});

describe('DingTalkConnector: block ranges (#28 item 3)', () => {
  const refOf = (doc: ReturnType<DingTalkFake['control']['documents']>[number]) => ({
    externalId: doc.externalId,
    title: doc.title,
    knowledgeBase: doc.knowledgeBase,
    url: doc.url,
    remoteUpdatedAt: null,
    revision: null,
  });

  it('reads a long document in startIndex…endIndex ranges until a range comes back short', async () => {
    const long = fake.control.documents().find((doc) => doc.markdown.length > 5000)!;
    const blocks = long.blocksMarkdown.split('\n\n').length;
    expect(blocks).toBeGreaterThan(7);
    const start = fake.control.blockRanges.length;
    const connector = connect(fake, { exportEvents: undefined, blockRange: 4 });
    expect((await connector.fetch(refOf(long))).markdown).toBe(long.blocksMarkdown);
    const ranges = fake.control.blockRanges.slice(start);
    expect(ranges.slice(0, 3)).toEqual(['0…3', '4…7', '8…11']);
    expect(ranges).toHaveLength(Math.floor(blocks / 4) + 1);
  });

  it('takes an answer longer than the range as the whole document, without repeating blocks', async () => {
    const long = fake.control.documents().find((doc) => doc.markdown.length > 5000)!;
    // A server that ignores the range answers the whole document each time.
    const fetchImpl = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      url.searchParams.delete('startIndex');
      url.searchParams.delete('endIndex');
      return fetch(url, init);
    }) as typeof fetch;
    const connector = connect(fake, { exportEvents: undefined, blockRange: 4, http: { fetchImpl } });
    expect((await connector.fetch(refOf(long))).markdown).toBe(long.blocksMarkdown);
  });
});

describe('DingTalkConnector: listing, content and search', () => {
  it('lists every online document of every knowledge base and of My Docs, across pages and folders; other files are skipped and counted', async () => {
    const start = fake.control.requests.length;
    const skipped: string[] = [];
    const report: ListingReport = {
      skipped: (item) => skipped.push(item.kind ?? item.reason),
      incomplete: (gap) => {
        throw gap.error;
      },
    };
    const refs: DocumentRef[] = [];
    for await (const ref of connect(fake).list(undefined, report)) refs.push(ref);
    expect(byId(refs)).toEqual(expectedRefs(fake));
    const calls = fake.control.requests.slice(start);
    // Two team knowledge bases (one page of 2), then the personal one from mineWorkspaces.
    expect(calls.filter((call) => call.startsWith('GET /v2.0/wiki/') && call.endsWith('orkspaces'))).toEqual([
      'GET /v2.0/wiki/workspaces',
      'GET /v2.0/wiki/mineWorkspaces',
    ]);
    expect(new Set(refs.map((ref) => ref.knowledgeBase))).toEqual(
      new Set(['产品手册', 'Engineering Wiki', '运营知识库']),
    );
    expect(skipped.sort()).toEqual(['axls', 'axls', 'axls', 'pdf', 'pdf', 'pdf']);
  });

  it('goes on without My Docs when it cannot be listed, and reports why', async () => {
    fake.control.inject({ kind: 'server-error', times: 10, match: '/mineWorkspaces' });
    const gaps: string[] = [];
    const refs: DocumentRef[] = [];
    for await (const ref of connect(fake, { http: { maxRetries: 1 } }).list(undefined, {
      skipped: () => {},
      incomplete: (gap) => gaps.push(`${gap.message}: ${(gap.error as CairnError).code}`),
    }))
      refs.push(ref);
    expect(gaps).toEqual(['DingTalk My Docs (the personal workspace) could not be listed: SOURCE_ERROR']);
    expect(new Set(refs.map((ref) => ref.knowledgeBase))).toEqual(new Set(['产品手册', 'Engineering Wiki']));
  });

  it('reads text through the blocks API without Stream; a document whose blocks are refused comes through the export event', async () => {
    const docs = fake.control.documents();
    const long = docs.find((doc) => doc.markdown.length > 5000)!;
    const chinese = docs.find((doc) => /第 1 篇/.test(doc.title))!;
    const refOfDoc = (doc: (typeof docs)[number]) => ({
      externalId: doc.externalId,
      title: doc.title,
      knowledgeBase: doc.knowledgeBase,
      url: doc.url,
      remoteUpdatedAt: null,
      revision: null,
    });
    const noStream = connect(fake, { exportEvents: undefined });
    for (const doc of [long, chinese])
      expect((await noStream.fetch(refOfDoc(doc))).markdown).toBe(doc.blocksMarkdown);
    expect(long.blocksMarkdown).toMatch(/^# .*\n\n.*\n\n## /);
    expect(chinese.blocksMarkdown).toMatch(/\| 项目 \| 说明 \| 负责人 \|\n\| --- \| --- \| --- \|/);
    const refused = docs[9]!;
    fake.control.refuseBlocks(refused.key);
    expect((await connect(fake).fetch(refOfDoc(refused))).markdown).toBe(refused.markdown);
    await expect(noStream.fetch(refOfDoc(refused))).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringMatching(/permission Storage\.File\.Read .*Turning on Stream/),
    });
  });

  it.each(['bizData', 'flat'] as const)(
    'takes the export event with its fields in %s form',
    async (shape) => {
      const doc = fake.control.documents()[11]!;
      fake.control.refuseBlocks(doc.key);
      fake.control.eventShape = shape;
      try {
        const fetched = await connect(fake).fetch({
          externalId: doc.externalId,
          title: doc.title,
          knowledgeBase: doc.knowledgeBase,
          url: doc.url,
          remoteUpdatedAt: null,
          revision: null,
        });
        expect(fetched.markdown).toBe(doc.markdown);
      } finally {
        fake.control.eventShape = 'bizData-string';
      }
    },
  );

  it('waits for the event the test hook emits, and reports failed or missing exports', async () => {
    fake.control.autoExport = false;
    const doc = fake.control.documents()[4]!;
    fake.control.refuseBlocks(doc.key);
    const ref = {
      externalId: doc.externalId,
      title: doc.title,
      knowledgeBase: doc.knowledgeBase,
      url: doc.url,
      remoteUpdatedAt: null,
      revision: null,
    };
    const connector = connect(fake, { exportTimeoutMs: 300 });
    const pending = connector.fetch(ref);
    await expect.poll(() => fake.control.pendingExports().length).toBe(1);
    fake.control.emitExport(fake.control.pendingExports()[0]!);
    expect((await pending).markdown).toBe(doc.markdown);

    const failing = connector.fetch(ref);
    await expect.poll(() => fake.control.pendingExports().length).toBe(1);
    fake.control.emitExport(fake.control.pendingExports()[0]!, { success: false });
    await expect(failing).rejects.toMatchObject({ code: 'DOCUMENT_FAILED' });

    await expect(connector.fetch(ref)).rejects.toMatchObject({ code: 'TIMEOUT' });
    const controller = new AbortController();
    const cancelled = connector.fetch(ref, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('has full text with or without Stream, and says how it gets it', async () => {
    const connector = new DingTalkConnector({
      config: { baseUrl: fake.baseUrl, ...fake.credentials },
      secrets: { appSecret: fake.credentials.appSecret! },
      logger: silentLogger(),
    });
    expect(connector.capabilities).toMatchObject({
      fullText: true,
      search: true,
      limitation: {
        code: 'dingtalk.blocks',
        message: expect.stringMatching(/^full text comes from DingTalk’s document blocks API/),
      },
    });
    const doc = fake.control.documents()[0]!;
    const fetched = await connector.fetch({
      externalId: doc.externalId,
      title: doc.title,
      knowledgeBase: '',
      url: null,
      remoteUpdatedAt: null,
      revision: null,
    });
    expect(fetched.markdown).toBe(doc.blocksMarkdown);
    expect(connect(fake).capabilities).toMatchObject({
      fullText: true,
      limitation: { code: 'dingtalk.blocks-stream', message: expect.stringMatching(/over DingTalk Stream/) },
    });
  });

  it('searches with the platform search, paging up to the limit, naming knowledge bases', async () => {
    const connector = connect(fake);
    const expected = fake.control
      .documents()
      .filter((doc) => doc.title.includes('向量检索') || doc.markdown.includes('向量检索'));
    const hits = await connector.search('向量检索', { limit: 50 });
    expect(
      byId(hits).map((hit) => ({
        externalId: hit.externalId,
        title: hit.title,
        url: hit.url,
        knowledgeBase: hit.knowledgeBase,
      })),
    ).toEqual(
      byId(expected).map((doc) => ({
        externalId: doc.externalId,
        title: doc.title,
        url: doc.url,
        knowledgeBase: doc.knowledgeBase,
      })),
    );
    expect(hits.every((hit) => hit.snippet.includes('向量检索'))).toBe(true);
    const start = fake.control.requests.length;
    expect(await connector.search('section', { limit: 3 })).toHaveLength(3);
    expect(
      fake.control.requests.slice(start).filter((call) => call === 'POST /v2.0/doc/search'),
    ).toHaveLength(2);
  });
});

describe('DingTalkConnector: Stream mode', () => {
  const refOf = (doc: {
    externalId: string;
    title: string;
    knowledgeBase: string;
    url: string;
  }): DocumentRef => ({
    externalId: doc.externalId,
    title: doc.title,
    knowledgeBase: doc.knowledgeBase,
    url: doc.url,
    remoteUpdatedAt: null,
    revision: null,
  });

  it('Test connection proves the export event arrives, and names a missing subscription or refused credentials', async () => {
    expect(await connect(fake).validate()).toMatchObject({
      message: expect.stringMatching(/; full text arrives over DingTalk Stream\.$/),
      params: { fullText: 'stream' },
    });
    fake.control.stream.subscribed = false;
    await expect(connect(fake, { probeTimeoutMs: 300 }).validate()).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(
        /no document export event arrived within 0\.3 s.*subscribe to the document export event/,
      ),
    });
    fake.control.stream.subscribed = true;
    fake.control.stream.refuseGateway();
    closeStreams(fake);
    await expect(connect(fake).validate()).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    expect(
      await new DingTalkConnector({
        config: { baseUrl: fake.baseUrl, ...fake.credentials },
        secrets: { appSecret: fake.credentials.appSecret! },
        logger: silentLogger(),
      }).validate(),
    ).toMatchObject({
      message: expect.stringMatching(/Full text through the document blocks API\.$/),
      params: { fullText: 'blocks' },
    });
  });

  it('when the first export times out with no event at all, fails the rest at once with one clear message', async () => {
    fake.control.stream.subscribed = false;
    const connector = connect(fake, { exportTimeoutMs: 200 });
    for (const doc of fake.control.documents().slice(0, 3)) fake.control.refuseBlocks(doc.key);
    const [first, second, third] = fake.control.documents().map(refOf);
    const contentCalls = () => fake.control.requests.filter((call) => call.endsWith('/contents')).length;
    const before = contentCalls();
    const outcomes = await Promise.allSettled([connector.fetch(first!), connector.fetch(second!)]);
    await expect(connector.fetch(third!)).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(
        /^No DingTalk export event arrived over Stream within 0\.2 s, so the remaining documents were not requested/,
      ),
    });
    expect({
      firstTwo: outcomes.map((outcome) => outcome.status),
      // The third asked for no export, so it had no event to wait for: it failed at once.
      contentCalls: contentCalls() - before,
    }).toEqual({ firstTwo: ['rejected', 'rejected'], contentCalls: 2 });
  });

  it('connectors of one app share one Stream connection, which closes with the last of them', async () => {
    const hub = new DingTalkStreamHub({ backoffBaseMs: 20 });
    const create = createDingTalkConnector(hub);
    const { appSecret, ...config } = fake.credentials;
    const init = {
      config: { ...config, baseUrl: fake.baseUrl, streamEvents: true },
      secrets: { appSecret: appSecret! },
      logger: silentLogger(),
    };
    const [one, two] = [create(init), create(init)];
    closeStreams(fake);
    await expect.poll(() => fake.control.stream.openSockets()).toBe(0);
    for (const doc of fake.control.documents().slice(0, 2)) fake.control.refuseBlocks(doc.key);
    const docs = fake.control.documents().map(refOf);
    const texts = await Promise.all([one.fetch(docs[0]!), two.fetch(docs[1]!)]);
    expect({
      texts: texts.map((doc) => doc.markdown.length > 0),
      sockets: fake.control.stream.openSockets(),
      clients: hub.size,
    }).toEqual({ texts: [true, true], sockets: 1, clients: 1 });
    await one.dispose?.();
    expect(fake.control.stream.openSockets()).toBe(1);
    await two.dispose?.();
    await expect.poll(() => fake.control.stream.openSockets()).toBe(0);
    expect({
      clients: hub.size,
      off: create({ ...init, config: { ...init.config, streamEvents: false } }).capabilities.limitation?.code,
    }).toEqual({ clients: 0, off: 'dingtalk.blocks' });
  });
});

describe('DingTalkConnector: injected faults', () => {
  it('waits and retries on both QPS-limit codes, and gives up with RATE_LIMITED', async () => {
    fake.control.inject({ kind: 'rate-limit', times: 2, match: '/wiki/nodes' });
    fake.control.inject({
      kind: 'rate-limit',
      code: 'Forbidden.AccessDenied.QpsLimitForApi',
      match: '/wiki/nodes',
    });
    expect(byId(await listAll(connect(fake)))).toEqual(expectedRefs(fake));
    fake.control.inject({ kind: 'rate-limit', times: 10 });
    await expect(connect(fake, { http: { maxRetries: 2 } }).validate()).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
  });

  it('retries 500s and malformed JSON, and gives up with SOURCE_ERROR when they persist', async () => {
    fake.control.inject({ kind: 'server-error', times: 2, match: '/wiki/nodes' });
    fake.control.inject({ kind: 'malformed-json', times: 2, match: '/wiki/workspaces' });
    expect(byId(await listAll(connect(fake)))).toEqual(expectedRefs(fake));
    fake.control.inject({ kind: 'server-error', times: 10 });
    await expect(connect(fake, { http: { maxRetries: 1 } }).validate()).rejects.toMatchObject({
      code: 'SOURCE_ERROR',
    });
    fake.control.clearFaults();
    fake.control.inject({ kind: 'malformed-json', times: 10 });
    await expect(
      connect(fake, { http: { maxRetries: 1 } }).search('要点', { limit: 3 }),
    ).rejects.toMatchObject({ code: 'SOURCE_ERROR' });
  });

  it("treats the organisation's monthly API allowance as a quota (the sync defers the rest)", async () => {
    const doc = fake.control.documents()[2]!;
    fake.control.inject({ kind: 'quota', match: '/blocks' });
    await expect(
      connect(fake).fetch({
        externalId: doc.externalId,
        title: doc.title,
        knowledgeBase: '',
        url: null,
        remoteUpdatedAt: null,
        revision: null,
      }),
    ).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: expect.stringMatching(/monthly API allowance/),
    });
  });

  it('tolerates a slow answer within the timeout and reports TIMEOUT beyond it', async () => {
    fake.control.inject({ kind: 'slow', delayMs: 150, match: '/doc/search' });
    expect((await connect(fake).search('要点', { limit: 2 })).length).toBe(2);
    fake.control.inject({ kind: 'slow', delayMs: 2000, match: '/doc/search' });
    await expect(
      connect(fake, { http: { timeoutMs: 200 } }).search('要点', { limit: 2 }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('reports NOT_FOUND for a document deleted after listing, and other documents still fetch', async () => {
    const target = await startDingTalkFake({ documents: 4, spaces: 1 });
    try {
      const connector = connect(target);
      const refs = await listAll(connector);
      const [gone, kept] = byId(refs);
      target.control.vanish(
        target.control.documents().find((doc) => doc.externalId === gone!.externalId)!.key,
      );
      await expect(connector.fetch(gone!)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await connector.fetch(kept!)).markdown.length).toBeGreaterThan(100);
    } finally {
      closeStreams(target);
      await target.close();
    }
  });

  it('sees changed, deleted and added documents on the next listing', async () => {
    const target = await startDingTalkFake({ documents: 6, spaces: 2 });
    try {
      const connector = connect(target);
      const before = new Map((await listAll(connector)).map((ref) => [ref.externalId, ref]));
      const [changeKey, deleteKey] = ['doc-0002', 'doc-0003'];
      const changed = target.control.changeDocument(changeKey, '# 已修改\n\nNew text.\n');
      target.control.deleteDocument(deleteKey);
      const added = target.control.addDocument({
        title: '新文档 New doc',
        space: 1,
        folder: ['设计 Design'],
      });
      const after = new Map((await listAll(connector)).map((ref) => [ref.externalId, ref]));
      const changedRef = after.get(target.control.nodeIdOf(changeKey))!;
      expect({
        changedRevisionMoved: changedRef.revision !== before.get(changedRef.externalId)!.revision,
        deletedGone: !after.has(target.control.nodeIdOf(deleteKey)),
        addedTitle: after.get(target.control.nodeIdOf(added.key))?.title,
        count: after.size,
      }).toEqual({ changedRevisionMoved: true, deletedGone: true, addedTitle: '新文档 New doc', count: 6 });
      expect((await connector.fetch(changedRef)).markdown).toBe(changed.markdown);
    } finally {
      closeStreams(target);
      await target.close();
    }
  });
});

describe('DingTalkConnector: scale', () => {
  it('fetches 300 documents with 5% deleted after listing: the others arrive intact, each failure is NOT_FOUND', async () => {
    const target = await startDingTalkFake({ documents: 300, spaces: 3, maxPageSize: 50 });
    try {
      const connector = connect(target);
      const refs = await listAll(connector);
      const docs = target.control.documents();
      const doomed = docs.filter((_doc, i) => i % 20 === 7);
      for (const doc of doomed) target.control.vanish(doc.key);
      const text = new Map(docs.map((doc) => [doc.externalId, doc.blocksMarkdown]));
      const outcomes = await Promise.all(
        refs.map((ref) =>
          connector.fetch(ref).then(
            (fetched) => (fetched.markdown === text.get(ref.externalId) ? 'intact' : 'garbled'),
            (error: { code: string }) => `${error.code} ${ref.externalId}`,
          ),
        ),
      );
      expect({
        listed: refs.length,
        intact: outcomes.filter((o) => o === 'intact').length,
        failed: outcomes.filter((o) => o !== 'intact').sort(),
      }).toEqual({
        listed: 300,
        intact: 285,
        failed: doomed.map((doc) => `NOT_FOUND ${doc.externalId}`).sort(),
      });
    } finally {
      closeStreams(target);
      await target.close();
    }
  });
});

describe('DingTalkConnector: secrets', () => {
  it('never writes the app secret, an access token or a download signature to the log', async () => {
    const lines: string[] = [];
    const logger = createLogger({ sink: (line) => lines.push(line), level: 'debug' });
    closeStreams(fake); // a Stream connection that logs to this test's logger
    const connector = connect(fake, { logger });
    const errors: string[] = [];
    fake.control.inject({ kind: 'rate-limit', times: 2 });
    fake.control.inject({ kind: 'server-error', times: 2, match: '/oss/' });
    await connector.validate();
    fake.control.expireTokens();
    const refs = await listAll(connector);
    fake.control.refuseBlocks(
      fake.control.documents().find((doc) => doc.externalId === refs[0]!.externalId)!.key,
    );
    for (const ref of refs.slice(0, 3)) await connector.fetch(ref);
    await connector.search('要点', { limit: 5 });
    await connect(fake, { logger, secrets: { appSecret: 'not-the-secret-123' } })
      .validate()
      .catch((error: Error) => errors.push(error.message));
    const secrets = [
      fake.credentials.appSecret!,
      ...fake.control.issuedTokens(),
      ...fake.control.stream.issuedTickets(),
    ];
    expect(lines.length).toBeGreaterThan(2); // the retries and the refresh were logged
    const written = [...lines, ...errors].join('\n');
    expect(secrets.filter((secret) => written.includes(secret))).toEqual([]);
    expect(written).not.toMatch(/Signature=|ticket=/);
  });
});
