/**
 * The Feishu fake refuses what the real API refuses, with the documented codes and statuses, and
 * answers every endpoint the connector calls in the shape the connector's own schemas read
 * (feishu-schemas.ts), so connector tests can trust it.
 */
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponse } from '../../core/connectors/http/response-shape';
import {
  BitableRecords,
  BitableTables,
  BlocksPage,
  Content,
  DrivePage,
  GetNode,
  NodesPage,
  SearchPage,
  SheetsQuery,
  SheetValues,
  SpacesPage,
  TenantToken,
  UserTokenAnswer,
} from '../../core/connectors/feishu/feishu-schemas';
import { DRIVE_ROOT, startFeishuFake, type FeishuFake } from './feishu-fake';

describe('Feishu fake fidelity', () => {
  let fake: FeishuFake;
  let tenant: string;
  beforeAll(async () => {
    fake = await startFeishuFake({ documents: 4 });
  });
  afterAll(() => fake.close());

  async function call(
    path: string,
    init: { method?: string; token?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await fetch(`${fake.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('issues the same tenant token while 30 minutes remain, and refuses a wrong secret (10014) or app id (10003) on HTTP 200', async () => {
    const first = await call('/open-apis/auth/v3/tenant_access_token/internal', {
      method: 'POST',
      body: { app_id: fake.credentials.appId, app_secret: fake.credentials.appSecret },
    });
    const second = await call('/open-apis/auth/v3/tenant_access_token/internal', {
      method: 'POST',
      body: { app_id: fake.credentials.appId, app_secret: fake.credentials.appSecret },
    });
    tenant = first.body.tenant_access_token as string;
    expect([
      first.body.code,
      first.body.expire,
      tenant.startsWith('t-'),
      second.body.tenant_access_token,
    ]).toEqual([0, 7200, true, tenant]);
    parseResponse(TenantToken, first.body, { platform: 'Feishu', endpoint: 'tenant token' });
    const wrong = await call('/open-apis/auth/v3/tenant_access_token/internal', {
      method: 'POST',
      body: { app_id: fake.credentials.appId, app_secret: 'nope' },
    });
    const unknown = await call('/open-apis/auth/v3/tenant_access_token/internal', {
      method: 'POST',
      body: { app_id: 'cli_unknown', app_secret: 'nope' },
    });
    expect([wrong.status, wrong.body.code, unknown.status, unknown.body.code]).toEqual([
      200, 10014, 200, 10003,
    ]);
  });

  it('answers auth, paging, parameter and user-only errors with the documented codes', async () => {
    const codes = await Promise.all([
      call('/open-apis/wiki/v2/spaces'),
      call('/open-apis/wiki/v2/spaces', { token: 't-unknown' }),
      call('/open-apis/wiki/v2/spaces?page_size=51', { token: tenant }),
      call('/open-apis/docs/v1/content?doc_token=x&doc_type=doc&content_type=markdown', { token: tenant }),
      call('/open-apis/search/v2/doc_wiki/search', {
        method: 'POST',
        token: tenant,
        body: { query: 'x', doc_filter: {}, wiki_filter: {} },
      }),
      call('/open-apis/wiki/v2/spaces/my_library/nodes', { token: tenant }),
    ]);
    expect(codes.map((c) => c.body.code)).toEqual([99991661, 99991663, 99992402, 99992402, 99991663, 131006]);
    fake.control.inject({ kind: 'rate-limit', resetSeconds: 3 });
    const res = await fetch(`${fake.baseUrl}/open-apis/wiki/v2/spaces`, {
      headers: { authorization: `Bearer ${tenant}` },
    });
    expect([
      res.status,
      res.headers.get('x-ogw-ratelimit-reset'),
      ((await res.json()) as { code: number }).code,
    ]).toEqual([429, '3', 99991400]);
  });

  it("answers every endpoint the connector calls in the shape the connector's schemas read", async () => {
    const data = async <T>(
      schema: z.ZodType<T>,
      path: string,
      init: { method?: string; body?: unknown } = {},
    ) => {
      const answer = await call(path, { ...init, token: tenant });
      expect([path, answer.body.code]).toEqual([path, 0]);
      return parseResponse(schema, answer.body.data, { platform: 'Feishu', endpoint: path });
    };
    const spaces = await data(SpacesPage, '/open-apis/wiki/v2/spaces?page_size=50');
    const space = spaces.items![1]!.space_id;
    const nodes = await data(NodesPage, `/open-apis/wiki/v2/spaces/${space}/nodes?page_size=50`);
    const docx = nodes.items!.find((n) => n.obj_type === 'docx')!;
    expect(nodes.items!.some((n) => n.url === undefined)).toBe(true); // `url` is optional
    await data(GetNode, `/open-apis/wiki/v2/spaces/get_node?token=${docx.node_token}`);
    await data(DrivePage, `/open-apis/drive/v1/files?folder_token=${DRIVE_ROOT}&page_size=200`);
    await data(
      Content,
      `/open-apis/docs/v1/content?doc_token=${docx.obj_token}&doc_type=docx&content_type=markdown`,
    );
    await data(BlocksPage, `/open-apis/docx/v1/documents/${docx.obj_token}/blocks?page_size=500`);
    await data(Content, `/open-apis/docx/v1/documents/${docx.obj_token}/raw_content`);
    const sheet = nodes.items!.find((n) => n.obj_type === 'sheet')!.obj_token;
    const sheets = await data(SheetsQuery, `/open-apis/sheets/v3/spreadsheets/${sheet}/sheets/query`);
    await data(
      SheetValues,
      `/open-apis/sheets/v2/spreadsheets/${sheet}/values/${sheets.sheets![0]!.sheet_id}?valueRenderOption=ToString`,
    );
    const base = nodes.items!.find((n) => n.obj_type === 'bitable')!.obj_token;
    const tables = await data(BitableTables, `/open-apis/bitable/v1/apps/${base}/tables`);
    await data(
      BitableRecords,
      `/open-apis/bitable/v1/apps/${base}/tables/${tables.items![0]!.table_id}/records/search?page_size=500`,
      {
        method: 'POST',
        body: {},
      },
    );
    const refreshed = await fetch(`${fake.baseUrl}/oauth/v3/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        client_id: fake.credentials.appId,
        client_secret: fake.credentials.appSecret,
        refresh_token: fake.control.latestRefreshToken,
      }),
    });
    const user = parseResponse(UserTokenAnswer, await refreshed.json(), {
      platform: 'Feishu',
      endpoint: 'oauth',
    });
    const search = await call('/open-apis/search/v2/doc_wiki/search', {
      method: 'POST',
      token: user.access_token,
      body: { query: 'Notes', page_size: 5, doc_filter: {}, wiki_filter: {} },
    });
    parseResponse(SearchPage, search.body.data, { platform: 'Feishu', endpoint: 'search' });
  });

  it('answers document-level refusals with the docs content and docx codes and statuses', async () => {
    const docs = fake.control.store.list(0);
    fake.control.denyDocument(docs[0]!.id);
    fake.control.breakExport(docs[1]!.id);
    const content = (token: string) =>
      call(`/open-apis/docs/v1/content?doc_token=${token}&doc_type=docx&content_type=markdown`, {
        token: tenant,
      });
    const answers = [
      await content(fake.control.externalIdOf(docs[0]!.id)),
      await call(`/open-apis/docx/v1/documents/${fake.control.externalIdOf(docs[0]!.id)}/blocks`, {
        token: tenant,
      }),
      await content(fake.control.externalIdOf(docs[1]!.id)),
      await content('doxcnNeverExisted'),
    ];
    expect(answers.map((a) => [a.status, a.body.code])).toEqual([
      [403, 2889902],
      [403, 1770032],
      [500, 2889925],
      [400, 2889914],
    ]);
  });

  it('rotates single-use refresh tokens and rejects mixed client authentication', async () => {
    const refresh = (token: string, basic = false) =>
      fetch(`${fake.baseUrl}/oauth/v3/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(basic ? { authorization: 'Basic eDp5' } : {}) },
        body: JSON.stringify({
          grant_type: 'refresh_token',
          client_id: fake.credentials.appId,
          client_secret: fake.credentials.appSecret,
          refresh_token: token,
        }),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const held = fake.control.latestRefreshToken;
    expect((await refresh(held, true)).code).toBe(20070);
    const first = await refresh(held);
    expect([first.code, typeof first.access_token, first.refresh_token === held]).toEqual([
      0,
      'string',
      false,
    ]);
    expect((await refresh(held)).code).toBe(20073);
    expect((await refresh('ur-never-issued')).code).toBe(20026);
  });

  it('serves the sign-in page (Approve/Deny or an immediate redirect) and is strict about PKCE like the v3 endpoint', async () => {
    const authorize = (query: Record<string, string>) =>
      fetch(
        `${fake.baseUrl}/open-apis/authen/v1/authorize?${new URLSearchParams({ client_id: fake.credentials.appId, response_type: 'code', redirect_uri: 'http://127.0.0.1:1/callback', state: 'st', ...query })}`,
        { redirect: 'manual' },
      );
    const token = (body: Record<string, string>) =>
      fetch(`${fake.baseUrl}/oauth/v3/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          client_id: fake.credentials.appId,
          client_secret: fake.credentials.appSecret,
          redirect_uri: 'http://127.0.0.1:1/callback',
          ...body,
        }),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const codeOf = async (query: Record<string, string>) =>
      new URL((await authorize(query)).headers.get('location')!).searchParams.get('code')!;
    fake.control.setConsent('page');
    const page = await (await authorize({ scope: 'offline_access' })).text();
    fake.control.setConsent('deny');
    const denied = (await authorize({})).headers.get('location');
    fake.control.setConsent('approve');
    const withoutChallenge = await token({
      code: await codeOf({ scope: 'offline_access' }),
      code_verifier: 'v'.repeat(43),
    });
    const withoutOffline = await token({
      code: await codeOf({ scope: 'wiki:wiki:readonly', code_challenge: 'p'.repeat(43) }),
      code_verifier: 'p'.repeat(43),
    });
    const wrongGrant = await token({ grant_type: 'password' });
    expect({
      approve: page.includes('id="approve"') && page.includes('fake_decision=approve'),
      denied,
      withoutChallenge: withoutChallenge.code,
      offline: [withoutOffline.code, 'refresh_token' in withoutOffline],
      wrongGrant: wrongGrant.code,
    }).toEqual({
      approve: true,
      denied: 'http://127.0.0.1:1/callback?error=access_denied&state=st',
      withoutChallenge: 20049,
      offline: [0, false],
      wrongGrant: 20036,
    });
  });
});
