/**
 * Issue #28's Feishu items against the fake: the user token's scopes for spreadsheets and bitables
 * (the sign-in asks for them; a refusal names the scope), direct-search hits resolved with the user
 * token, and bitables that give less than they hold (no rows, the row cap) marked on the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthState, createPkcePair } from '../../auth/pkce';
import { silentLogger } from '../../logging/logger';
import type { DocumentRef } from '../connector';
import { FeishuConnector, type FeishuConnectorOptions } from './feishu-connector';
import { MAX_BITABLE_ROWS } from './feishu-tables';
import { startFeishuFake, type FeishuFake } from '../../../testing/fakes/feishu-fake';
import { MY_LIBRARY_KB } from '../../../testing/fakes/fixtures/feishu-shapes';
import { failure, listAll } from '../../../testing/connector-test-kit';

const LIFTED = { intervalMs: 1000, intervalCap: 100_000 };
const FAST: FeishuConnectorOptions = {
  http: { backoffBaseMs: 5, backoffMaxMs: 20 },
  rates: { api: LIFTED, content: LIFTED },
};
const REDIRECT = 'http://127.0.0.1:18765/callback';

function connect(
  fake: FeishuFake,
  options: { refreshToken?: string | null; config?: Record<string, string> } = {},
): FeishuConnector {
  const secrets: Record<string, string> = { appSecret: fake.credentials.appSecret };
  if (options.refreshToken !== null)
    secrets.userRefreshToken = options.refreshToken ?? fake.control.latestRefreshToken;
  return new FeishuConnector(
    'feishu',
    {
      config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId, ...options.config },
      secrets,
      logger: silentLogger(),
      saveSecrets: async () => {},
    },
    FAST,
  );
}

/** Signs in through the fake's authorize page with the connection's sign-in scopes; returns the refresh token. */
async function signIn(fake: FeishuFake, config: Record<string, string> = {}): Promise<string> {
  const connector = connect(fake, { refreshToken: null, config });
  const pkce = createPkcePair();
  const page = await fetch(
    connector.userSignIn.authorizeUrl({
      redirectUri: REDIRECT,
      state: createOAuthState(),
      codeChallenge: pkce.challenge,
    }),
    { redirect: 'manual' },
  );
  const code = new URL(page.headers.get('location')!).searchParams.get('code')!;
  const stored = await connector.userSignIn.exchangeCode({
    code,
    redirectUri: REDIRECT,
    codeVerifier: pkce.verifier,
  });
  return stored.userRefreshToken!;
}

describe('Feishu spreadsheets and bitables with the user token (#28 item 4)', () => {
  let fake: FeishuFake;
  beforeAll(async () => {
    fake = await startFeishuFake({ documents: 4, knowledgeBases: 1, myLibraryTables: true });
  });
  afterAll(() => fake.close());

  const myLibraryTables = async (connector: FeishuConnector): Promise<DocumentRef[]> => {
    const { sheet, bitable } = fake.control.myLibraryTables;
    const refs = await listAll(connector);
    return [sheet, bitable].map((token) => refs.find((ref) => ref.externalId === token)!);
  };

  it('the default sign-in asks for sheets:spreadsheet:read and bitable:app:readonly, and reads My Library tables with them', async () => {
    const url = new URL(
      connect(fake).userSignIn.authorizeUrl({ redirectUri: REDIRECT, state: 's', codeChallenge: 'c' }),
    );
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining(['sheets:spreadsheet:read', 'bitable:app:readonly']),
    );
    const connector = connect(fake, { refreshToken: await signIn(fake) });
    const [sheet, bitable] = await myLibraryTables(connector);
    expect(sheet!.knowledgeBase).toBe('My Library');
    expect((await connector.fetch(sheet!)).markdown).toContain('| 项目 Item | 金额 Amount | 负责人 Owner |');
    expect((await connector.fetch(bitable!)).markdown).toContain('| 任务 | 负责人 | 进度 |');
  });

  it('a sign-in without them: the refusal names the scopes Feishu lists, for the card and for cairn test', async () => {
    const narrow = 'search:docs:read wiki:wiki:readonly docs:document.content:read docx:document:readonly';
    const connector = connect(fake, {
      refreshToken: await signIn(fake, { oauthScopes: narrow }),
      config: { oauthScopes: narrow },
    });
    const [sheet, bitable] = await myLibraryTables(connector);
    const sheetError = await failure(connector.fetch(sheet!));
    expect(sheetError).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { platformCode: 99991679, reason: 'feishu.missing-scope' },
    });
    expect(sheetError.message).toMatch(
      /^Your Feishu sign-in does not include one of the scopes drive:drive, drive:drive:readonly, sheets:spreadsheet, sheets:spreadsheet:readonly, sheets:spreadsheet:read for GET \/open-apis\/sheets\/v3\/.*sign in again\.$/,
    );
    expect((sheetError.details!.params as { scopes: string }).scopes).toContain('sheets:spreadsheet:read');
    const bitableError = await failure(connector.fetch(bitable!));
    expect((bitableError.details!.params as { scopes: string }).scopes).toBe(
      'base:table:read, bitable:app, bitable:app:readonly',
    );
    // The same documents through a sign-in that granted them read fine (the scope was the only difference).
    const granted = connect(fake, { refreshToken: await signIn(fake) });
    const [grantedSheet] = await myLibraryTables(granted);
    expect((await granted.fetch(grantedSheet!)).markdown).not.toBe('');
  });

  it('an app without a scope (99991672) is told to enable it in the console; Test says which', async () => {
    fake.control.revokeScope(true);
    try {
      const error = await failure(connect(fake).validate());
      expect(error).toMatchObject({ code: 'PERMISSION_DENIED', details: { reason: 'feishu.missing-scope' } });
      expect(error.message).toMatch(
        /^The Feishu app lacks one of the scopes wiki:wiki:readonly, wiki:wiki for GET \/open-apis\/wiki\/v2\/spaces: code 99991672 .*Enable it in the developer console/,
      );
    } finally {
      fake.control.revokeScope(false);
    }
  });
});

describe('Feishu direct-search hits resolved with the user token (#28 item 5)', () => {
  let fake: FeishuFake;
  beforeAll(async () => {
    fake = await startFeishuFake({ documents: 6, knowledgeBases: 2, myLibraryDocuments: 2 });
    fake.control.hideSpaceFromApp(1);
  });
  afterAll(() => fake.close());

  it('hits in My Library and in a space the app is not a member of carry the document token and the space name', async () => {
    const connector = connect(fake);
    const inHidden = fake.control.store.list(1)[0]!;
    const inLibrary = fake.control.store.list(MY_LIBRARY_KB)[0]!;
    for (const [document, knowledgeBase] of [
      [inHidden, fake.control.store.knowledgeBases[1]!.name],
      [inLibrary, undefined],
    ] as const) {
      const hits = await connector.search(document.title.slice(0, 20), { limit: 20 });
      const hit = hits.find((candidate) => candidate.title === document.title);
      expect(hit, document.title).toBeDefined();
      // The listing's externalId (the object token), not the unresolved wiki node token.
      expect(hit!.externalId).toBe(fake.control.externalIdOf(document.id));
      if (knowledgeBase) expect(hit!.knowledgeBase).toBe(knowledgeBase);
    }
    // The app itself cannot read those nodes: with its token they would stay unresolved.
    const nodeAsApp = await fetch(
      `${fake.baseUrl}/open-apis/wiki/v2/spaces/get_node?token=${encodeURIComponent(
        (await connector.search(inHidden.title.slice(0, 20), { limit: 20 }))[0]!.url!.split('/wiki/')[1]!,
      )}`,
      { headers: { authorization: `Bearer ${await tenantToken(fake)}` } },
    );
    expect(((await nodeAsApp.json()) as { code: number }).code).toBe(131006);
  });
});

async function tenantToken(fake: FeishuFake): Promise<string> {
  const answer = await fetch(`${fake.baseUrl}/open-apis/auth/v3/tenant_access_token/internal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ app_id: fake.credentials.appId, app_secret: fake.credentials.appSecret }),
  });
  return ((await answer.json()) as { tenant_access_token: string }).tenant_access_token;
}

describe('Feishu bitables that give less than they hold (#28 item 6)', () => {
  let fake: FeishuFake;
  beforeAll(async () => {
    fake = await startFeishuFake({ documents: 2, knowledgeBases: 2 });
  });
  afterAll(() => fake.close());

  const bitableOf = async (connector: FeishuConnector, space: number): Promise<DocumentRef> =>
    (await listAll(connector)).find((ref) => ref.externalId === `bitableCairn${80_003 + space * 10}`)!;

  it('a table that answers no rows is indexed as it is and marked "returned no rows"', async () => {
    const connector = connect(fake);
    const ref = await bitableOf(connector, 0);
    expect((await connector.fetch(ref)).notice).toBeUndefined();
    fake.control.hideBitableRows(ref.externalId);
    expect(await connector.fetch(ref)).toEqual({
      markdown: '',
      notice: {
        reason: 'feishu.bitable-no-rows',
        message: expect.stringMatching(
          /^"任务 Tasks" returned no rows\. If the bitable has advanced permissions/,
        ),
        params: { tables: '任务 Tasks' },
      },
    });
  });

  it('a table over the cap gives its first 20,000 rows and is marked so; one at the cap is not', async () => {
    const connector = connect(fake);
    const ref = await bitableOf(connector, 1);
    fake.control.setBitableRows(ref.externalId, MAX_BITABLE_ROWS);
    const atCap = await connector.fetch(ref);
    expect(atCap.notice).toBeUndefined();
    expect(atCap.markdown).toContain('| 任务 20000 | 20000 |');
    fake.control.setBitableRows(ref.externalId, MAX_BITABLE_ROWS + 1);
    const over = await connector.fetch(ref);
    expect(over.markdown).toContain('| 任务 20000 | 20000 |');
    expect(over.markdown).not.toContain('任务 20001');
    expect(over.notice).toEqual({
      reason: 'feishu.bitable-truncated',
      message:
        'Only the first 20,000 rows of "任务 Tasks" were indexed (Cairn reads at most 20,000 rows per table).',
      params: { tables: '任务 Tasks', rows: '20,000' },
    });
  });
});
