/** The Feishu fake refuses what the real API refuses (connectors.md §1.7), so connector tests can trust it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeishuFake, type FeishuFake } from './feishu-fake';

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

  it('issues the same tenant token while 30 minutes remain, and refuses a wrong secret with 99991543', async () => {
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
    const wrong = await call('/open-apis/auth/v3/tenant_access_token/internal', {
      method: 'POST',
      body: { app_id: fake.credentials.appId, app_secret: 'nope' },
    });
    expect(wrong.body.code).toBe(99991543);
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
    expect(codes.map((c) => c.body.code)).toEqual([99991661, 99991663, 99992402, 99992402, 99991668, 131006]);
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
    expect((await refresh(fake.credentials.userRefreshToken, true)).code).toBe(20070);
    const first = await refresh(fake.credentials.userRefreshToken);
    expect([
      first.code,
      typeof first.access_token,
      first.refresh_token === fake.credentials.userRefreshToken,
    ]).toEqual([0, 'string', false]);
    expect((await refresh(fake.credentials.userRefreshToken)).code).toBe(20073);
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
