/**
 * Issue 4's Done-means through the real composition root, with every platform served by its fake
 * on 127.0.0.1: a Yuque and a Feishu connection indexed (RAG) plus DingTalk searched live (direct)
 * fuse into one result list; a 300-document sync with 5% broken documents indexes the rest and
 * records the failures; and no secret (configured, rotated or only ever seen on the wire) reaches
 * a log line, a run record, an API answer, or the data directory.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAnswer, ConnectionView } from '@shared/models';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { dataDirLayout } from '../app/data-dir';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../testing/fakes/fake-openai-server';
import { startDingTalkFake, type DingTalkFake } from '../../testing/fakes/dingtalk-fake';
import { startFeishuFake, type FeishuFake } from '../../testing/fakes/feishu-fake';
import { startYuqueFake, type YuqueFake } from '../../testing/fakes/yuque-fake';
import { FeishuConnector } from '../connectors/feishu/feishu-connector';
import { defaultConnectorFactories } from '../connectors/registry';
import { YuqueConnector } from '../connectors/yuque/yuque-connector';
import { openDatabase } from '../db/database';
import { createLogger, SecretRedactor } from '../logging/logger';
import { syncToEnd, unwrap } from '../../testing/integration-kit';
import { recordingFetch } from '../../testing/wire-secrets';

/** Yuque has no documented per-second cap the fake enforces; Feishu's content API keeps its 5/s (the fake enforces it). */
const UNTHROTTLED = { intervalMs: 1000, intervalCap: 1000 };
const QUICK_RETRIES = { backoffBaseMs: 5, backoffMaxMs: 20 };
const WRONG_YUQUE_TOKEN = 'yuque-wrong-token-7c1e5a9b3d2f';

let scratch: string;
let dataDir: string;
let cairn: CairnInternals;
let yuque: YuqueFake;
let bigYuque: YuqueFake;
let feishu: FeishuFake;
let draftFeishu: FeishuFake;
let dingtalk: DingTalkFake;
let chatModel: FakeOpenAiServer;
const logLines: string[] = [];
const wireTokens = new Set<string>();
const connections: Record<'yuque' | 'feishu' | 'dingtalk' | 'bigYuque', ConnectionView> = {} as never;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-platforms-it-'));
  dataDir = join(scratch, 'data');
  [yuque, bigYuque, feishu, draftFeishu, dingtalk, chatModel] = await Promise.all([
    startYuqueFake(),
    startYuqueFake({
      documents: 300,
      knowledgeBases: 3,
      specialDocuments: false,
      token: 'yuque-second-account-token-9f8e7d6c',
    }),
    startFeishuFake(),
    startFeishuFake({
      documents: 6,
      appSecret: 'draft-app-secret-5a4b3c2d1e0f',
      userRefreshToken: 'ur-draft-refresh-token-0002',
    }),
    startDingTalkFake(),
    startFakeOpenAiServer(),
  ]);
  const redactor = new SecretRedactor();
  cairn = await createCairn({
    dataDir,
    env: {},
    scheduler: false,
    redactor,
    logger: createLogger({ redactor, level: 'debug', sink: (line) => void logLines.push(line) }),
    factories: {
      ...defaultConnectorFactories(),
      yuque: (init) => new YuqueConnector(init, { http: { rate: UNTHROTTLED, ...QUICK_RETRIES } }),
      feishu: (init) =>
        new FeishuConnector('feishu', init, {
          http: { ...QUICK_RETRIES, fetchImpl: recordingFetch(wireTokens) },
          rates: { api: UNTHROTTLED },
        }),
    },
  });
});

afterAll(async () => {
  await cairn?.dispose();
  await Promise.all([yuque, bigYuque, feishu, draftFeishu, dingtalk, chatModel].map((fake) => fake?.close()));
  rmSync(scratch, { recursive: true, force: true });
});

describe('Yuque and Feishu indexed, DingTalk searched live, through createCairn', () => {
  it('one query returns fused hits from all three, each naming its platform and knowledge base', async () => {
    connections.yuque = unwrap(
      await cairn.api.connections.add({
        platform: 'yuque',
        name: 'Yuque handbook',
        mode: 'rag',
        config: { baseUrl: yuque.baseUrl },
        secrets: { ...yuque.credentials },
      }),
    );
    connections.feishu = unwrap(
      await cairn.api.connections.add({
        platform: 'feishu',
        name: 'Feishu wiki',
        mode: 'rag',
        config: {
          baseUrl: feishu.baseUrl,
          appId: feishu.credentials.appId,
          driveFolderTokens: feishu.credentials.driveFolderTokens,
        },
        secrets: {
          appSecret: feishu.credentials.appSecret,
          userRefreshToken: feishu.credentials.userRefreshToken,
        },
      }),
    );
    const { appSecret, ...dingtalkConfig } = dingtalk.credentials;
    connections.dingtalk = unwrap(
      await cairn.api.connections.add({
        platform: 'dingtalk',
        name: 'DingTalk docs',
        mode: 'direct',
        config: { baseUrl: dingtalk.baseUrl, ...dingtalkConfig },
        secrets: { appSecret: appSecret! },
      }),
    );
    for (const view of [connections.yuque, connections.feishu, connections.dingtalk])
      expect(unwrap(await cairn.api.connections.test({ id: view.id })).message).toMatch(
        /^Connected|DingTalk/,
      );

    const [yuqueRun, feishuRun] = await Promise.all([
      syncToEnd(cairn, connections.yuque.id),
      syncToEnd(cairn, connections.feishu.id),
    ]);
    expect(yuqueRun.counters).toMatchObject({ added: yuqueRun.counters.seen, failed: 0, skipped: 1 }); // the Board has no text: skipped, not failed
    // Wiki spaces, the drive folder and My Library (user token): every docx once, shortcuts deduplicated.
    expect(feishuRun).toMatchObject({
      status: 'succeeded',
      // …plus each space's spreadsheet and bitable (3 spaces) and the drive's spreadsheet, as tables.
      counters: { failed: 0, added: feishu.control.store.list().length + 7 },
    });

    const response = unwrap(await cairn.api.search.query({ query: '数据备份', k: 10 }));
    expect(response.warnings).toEqual([]);
    const hits = response.hits;
    expect(new Set(hits.map((hit) => hit.platform))).toEqual(new Set(['yuque', 'feishu', 'dingtalk']));
    const knowledgeBases = {
      yuque: yuque.control.store.knowledgeBases.map((kb) => kb.name),
      feishu: feishu.control.store.knowledgeBases.map((kb) => kb.name),
      dingtalk: [...new Set(dingtalk.control.documents().map((doc) => doc.knowledgeBase))],
    } as Record<string, string[]>;
    for (const hit of hits) {
      expect(knowledgeBases[hit.platform], `${hit.platform} hit "${hit.title}"`).toContain(hit.knowledgeBase);
      expect(hit.source).toBe(hit.platform === 'dingtalk' ? 'direct' : 'index');
    }
    const fromDingTalk = hits.filter((hit) => hit.platform === 'dingtalk');
    expect(fromDingTalk[0]).toMatchObject({ connectionId: connections.dingtalk.id, ranks: { direct: 1 } });
    expect(fromDingTalk[0]!.title).toContain('数据备份');
    expect(hits[0]!.title).toContain('数据备份');
  });

  it('a 300-document sync with 5% broken documents indexes the other 285 and records the 15 failures', async () => {
    connections.bigYuque = unwrap(
      await cairn.api.connections.add({
        platform: 'yuque',
        name: 'Big Yuque',
        mode: 'rag',
        config: { baseUrl: bigYuque.baseUrl },
        secrets: { ...bigYuque.credentials },
      }),
    );
    const ids = bigYuque.control.store.list().map((doc) => doc.id);
    expect(ids).toHaveLength(300);
    // 10 documents deleted between listing and fetching (404), 5 whose detail keeps answering 500.
    const vanished = ids.filter((_, i) => i % 30 === 7);
    const serverErrors = ids.filter((_, i) => i % 60 === 19);
    for (const id of vanished) bigYuque.control.vanishAfterListing(id);
    for (const id of serverErrors)
      bigYuque.control.inject(
        { kind: 'server-error' },
        { path: new RegExp(`/repos/docs/${id}$`), times: 100 },
      );
    expect(vanished.length + serverErrors.length).toBe(15);

    const run = await syncToEnd(cairn, connections.bigYuque.id);
    expect(run).toMatchObject({
      status: 'partial',
      error: null,
      counters: { seen: 300, added: 285, updated: 0, failed: 15 },
    });
    const failed = new Map(run.errors.map((error) => [error.externalId, error.code]));
    expect(new Map([...failed].sort())).toEqual(
      new Map(
        [
          ...vanished.map((id) => [String(id), 'NOT_FOUND'] as const),
          ...serverErrors.map((id) => [String(id), 'SOURCE_ERROR'] as const),
        ].sort(),
      ),
    );
    const view = unwrap(await cairn.api.connections.list()).find(
      (candidate) => candidate.id === connections.bigYuque.id,
    );
    expect(view).toMatchObject({
      syncStatus: 'synced',
      syncErrorCode: 'DOCUMENT_FAILED',
      documentCount: 285,
    });
    expect(view?.syncError).toMatch(/^15 documents failed \(first: /);

    // The next sync fetches only the 15 that failed (still broken) and leaves the 285 alone.
    const again = await syncToEnd(cairn, connections.bigYuque.id);
    expect(again.counters).toMatchObject({ seen: 300, unchanged: 285, failed: 15, added: 0 });
  });

  it('"Test connection" on an unsaved Feishu connection does not burn the single-use refresh token the saved one needs', async () => {
    const draft = {
      platform: 'feishu' as const,
      name: 'Feishu drafts',
      mode: 'direct' as const,
      config: { baseUrl: draftFeishu.baseUrl, appId: draftFeishu.credentials.appId },
      secrets: {
        appSecret: draftFeishu.credentials.appSecret,
        userRefreshToken: draftFeishu.credentials.userRefreshToken,
      },
    };
    // The form sends the same draft for every Test and for Add; the refresh token rotates on each test.
    expect(unwrap(await cairn.api.connections.testNew(draft)).message).toContain('search enabled');
    expect(unwrap(await cairn.api.connections.testNew(draft)).message).toContain('search enabled');
    const view = unwrap(await cairn.api.connections.add(draft));
    expect(unwrap(await cairn.api.connections.test({ id: view.id })).message).toContain('search enabled');
    // Direct search runs on the user token: it must still work.
    const response = unwrap(await cairn.api.search.query({ query: '离线同步', connectionIds: [view.id] }));
    expect(response.warnings).toEqual([]);
    expect(response.hits.length).toBeGreaterThan(0);
    expect(response.hits.every((hit) => hit.connectionId === view.id && hit.source === 'direct')).toBe(true);
  });

  it('#28: a Feishu bitable that answers no rows is indexed and marked, and stays marked while unchanged; a document refused a scope says which', async () => {
    const tables = await startFeishuFake({
      documents: 2,
      knowledgeBases: 1,
      myLibraryTables: true,
      userScopes:
        'offline_access wiki:wiki:readonly search:docs:read docs:document.content:read docx:document:readonly',
    });
    try {
      tables.control.hideBitableRows('bitableCairn80003');
      const view = unwrap(
        await cairn.api.connections.add({
          platform: 'feishu',
          name: 'Feishu tables',
          mode: 'rag',
          config: { baseUrl: tables.baseUrl, appId: tables.credentials.appId },
          secrets: {
            appSecret: tables.credentials.appSecret,
            userRefreshToken: tables.credentials.userRefreshToken,
          },
        }),
      );
      const first = await syncToEnd(cairn, view.id);
      const partial = (run: typeof first) => run.notes.filter((note) => note.status === 'partial');
      expect(partial(first)).toEqual([
        expect.objectContaining({ externalId: 'bitableCairn80003', code: 'feishu.bitable-no-rows' }),
      ]);
      // My Library's spreadsheet and bitable: the sign-in granted neither scope, and the failure says which.
      const refused = first.errors.filter((error) => error.reason === 'feishu.missing-scope');
      expect(refused.map((error) => [error.externalId, error.code])).toEqual([
        ['sheetCairn90000', 'PERMISSION_DENIED'],
        ['bitableCairn90003', 'PERMISSION_DENIED'],
      ]);
      expect(refused[0]!.params?.scopes).toContain('sheets:spreadsheet:read');
      const second = await syncToEnd(cairn, view.id);
      expect(second.counters.unchanged).toBeGreaterThan(0);
      expect(partial(second)).toEqual(partial(first));
      unwrap(await cairn.api.connections.remove({ id: view.id }));
    } finally {
      await tables.close();
    }
  });

  it('no secret reaches a log line, a run record, an API answer or the data directory', async () => {
    // Paths that handle secrets: a rejected token, a Feishu token expiry mid-run (refresh and
    // rotation of the user refresh token), a live DingTalk search, and a chat model with a key.
    const rejected = await cairn.api.connections.testNew({
      platform: 'yuque',
      name: 'Wrong',
      mode: 'rag',
      config: { baseUrl: yuque.baseUrl },
      secrets: { token: WRONG_YUQUE_TOKEN },
    });
    expect(rejected).toMatchObject({ ok: false, error: { code: 'AUTH_INVALID' } });
    feishu.control.expireTokens();
    expect((await syncToEnd(cairn, connections.feishu.id)).status).toBe('succeeded');
    expect(feishu.control.latestRefreshToken).not.toBe(feishu.credentials.userRefreshToken);
    unwrap(
      await cairn.api.settings.update({
        chat: {
          provider: 'custom',
          baseUrl: chatModel.baseUrl,
          model: chatModel.model,
          apiKey: chatModel.apiKey,
        },
      }),
    );
    const answered = new Promise<ChatAnswer>((resolve) => {
      const off = cairn.events.on('chat.done', (answer) => {
        off();
        resolve(answer);
      });
    });
    const asked = unwrap(await cairn.api.chat.ask({ question: '数据备份怎么做？' }));
    expect(await answered).toMatchObject({ messageId: asked.messageId, mode: 'model' });
    expect(chatModel.requests.at(-1)?.authorization).toBe(`Bearer ${chatModel.apiKey}`);

    const secrets = [
      yuque.credentials.token,
      bigYuque.credentials.token,
      WRONG_YUQUE_TOKEN,
      feishu.credentials.appSecret,
      feishu.credentials.userRefreshToken,
      feishu.control.latestRefreshToken,
      draftFeishu.credentials.appSecret,
      draftFeishu.credentials.userRefreshToken,
      draftFeishu.control.latestRefreshToken,
      ...wireTokens,
      dingtalk.credentials.appSecret!,
      ...dingtalk.control.issuedTokens(),
      chatModel.apiKey,
    ];
    // Tokens issued on the wire were seen: tenant and user access tokens, the rotated refresh tokens.
    expect([...wireTokens].filter((token) => token.startsWith('t-')).length).toBeGreaterThanOrEqual(2);
    expect([...wireTokens].filter((token) => token.startsWith('u-')).length).toBeGreaterThanOrEqual(1);
    expect(dingtalk.control.issuedTokens().length).toBeGreaterThanOrEqual(1);
    const leaksIn = (where: string, text: string) =>
      secrets.filter((secret) => text.includes(secret)).map((secret) => `${where}: ${secret.slice(0, 6)}…`);

    expect(logLines.length).toBeGreaterThan(20);
    const leaks = logLines.flatMap((line, index) => leaksIn(`log line ${index}`, line));
    const apiAnswers: Record<string, unknown> = {
      status: await cairn.api.app.status(),
      connections: await cairn.api.connections.list(),
      settings: await cairn.api.settings.get(),
      conversations: await cairn.api.chat.conversations(),
      messages: await cairn.api.chat.messages({ conversationId: asked.conversationId }),
      search: await cairn.api.search.query({ query: '数据备份' }),
    };
    for (const view of Object.values(connections))
      apiAnswers[`runs of ${view.name}`] = await cairn.api.sync.runs({ connectionId: view.id, limit: 200 });
    for (const [where, answer] of Object.entries(apiAnswers))
      leaks.push(...leaksIn(where, JSON.stringify(answer)));

    await cairn.dispose();
    const layout = dataDirLayout(dataDir);
    // The headless secret store is where secrets belong; it must hold them (or this scan proves nothing).
    const secretFile = readFileSync(layout.secrets, 'utf8');
    expect(secretFile).toContain(yuque.credentials.token);
    expect(secretFile).toContain(chatModel.apiKey);
    expect(secretFile).toContain(feishu.control.latestRefreshToken);
    for (const file of filesUnder(dataDir).filter((path) => path !== layout.secrets))
      leaks.push(...leaksIn(file.slice(dataDir.length), readFileSync(file).toString('latin1')));

    // Compressed (TOASTed) values do not show in the files: read every row of every table as text too.
    const db = await openDatabase({ dataDir: layout.database });
    try {
      const tables = (
        await db.query<{ table_name: string }>(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
        )
      ).rows.map((row) => row.table_name);
      expect(tables).toEqual(
        expect.arrayContaining(['connections', 'documents', 'chunks', 'sync_runs', 'settings', 'messages']),
      );
      for (const table of tables) {
        const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${table}" t`);
        for (const row of rows.rows) leaks.push(...leaksIn(`table ${table}`, row.row));
      }
    } finally {
      await db.close();
    }
    expect(leaks).toEqual([]);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
