/**
 * The DingTalk fake's contract: every endpoint the connector calls answers in the shape the
 * connector's own schemas read (dingtalk-schemas.ts, from the official SDK models and help pages),
 * errors come with DingTalk's string codes and HTTP statuses, and the user API answers errcode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BlocksAnswer,
  ContentTask,
  MineWorkspace,
  NodePage,
  parseBody,
  SearchPage,
  UserDetails,
  WorkspacePage,
} from '../../core/connectors/dingtalk/dingtalk-schemas';
import { startDingTalkFake, type DingTalkFake } from './dingtalk-fake';

let fake: DingTalkFake;
let token: string;
beforeAll(async () => {
  fake = await startDingTalkFake({ documents: 8, spaces: 3, maxPageSize: 50 });
  const res = await fetch(`${fake.baseUrl}/v1.0/oauth2/accessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ appKey: fake.credentials.appKey, appSecret: fake.credentials.appSecret }),
  });
  token = ((await res.json()) as { accessToken: string }).accessToken;
});
afterAll(() => fake.close());

async function api(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${fake.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-acs-dingtalk-access-token': token, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json() };
}

describe('DingTalk fake contract', () => {
  it("answers every endpoint the connector calls in the shape the connector's schemas read", async () => {
    const op = `operatorId=${fake.credentials.operatorId}`;
    const workspaces = parseBody(
      WorkspacePage,
      (await api(`/v2.0/wiki/workspaces?${op}&maxResults=30`)).body,
      'GET /v2.0/wiki/workspaces',
    );
    expect(workspaces.workspaces!.map((ws) => ws.type)).toEqual(['TEAM', 'TEAM']);
    const mine = parseBody(
      MineWorkspace,
      (await api(`/v2.0/wiki/mineWorkspaces?${op}`)).body,
      'GET /v2.0/wiki/mineWorkspaces',
    );
    expect(mine.workspace?.type).toBe('PERSONAL');
    parseBody(
      NodePage,
      (await api(`/v2.0/wiki/nodes?${op}&parentNodeId=${workspaces.workspaces![0]!.rootNodeId}`)).body,
      'GET /v2.0/wiki/nodes',
    );
    const doc = fake.control.documents()[0]!;
    const blocks = parseBody(
      BlocksAnswer,
      (await api(`/v1.0/doc/suites/documents/${doc.externalId}/blocks?${op}`)).body,
      'GET /v1.0/doc/suites/documents/{docKey}/blocks',
    );
    expect(blocks.success).toBe(true);
    expect(blocks.result?.data?.[0]).toMatchObject({ blockType: 'heading' });
    parseBody(
      ContentTask,
      (await api(`/v2.0/doc/query/${doc.externalId}/contents?${op}&targetFormat=markdown`)).body,
      'GET /v2.0/doc/query/{dentryUuid}/contents',
    );
    parseBody(
      SearchPage,
      (
        await api('/v2.0/doc/search', {
          method: 'POST',
          body: {
            keyword: '要点',
            operatorId: fake.credentials.operatorId,
            dentryRequest: { maxResults: 5 },
          },
        })
      ).body,
      'POST /v2.0/doc/search',
    );
    // "Query user details" lives on the legacy host only (the oapi. origin), as on DingTalk.
    const userGet = (origin: string) =>
      fetch(`${origin}/topapi/v2/user/get?access_token=${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userid: fake.control.userId }),
      });
    const user = await userGet(fake.oapiBaseUrl);
    expect(parseBody(UserDetails, await user.json(), 'POST /topapi/v2/user/get').result?.unionid).toBe(
      fake.credentials.operatorId,
    );
    const misplaced = await userGet(fake.baseUrl);
    expect(misplaced.status).not.toBe(200);
    expect(await misplaced.json()).not.toHaveProperty('errcode');
    expect(fake.oapiBaseUrl).not.toBe(fake.baseUrl);
  });

  it('refuses a route whose permission the app lacks with 403 and accessdenieddetail.requiredScopes', async () => {
    const op = `operatorId=${fake.credentials.operatorId}`;
    fake.control.revokePermission('Wiki.Node.Read');
    try {
      const workspaces = await api(`/v2.0/wiki/workspaces?${op}`);
      const nodes = await api(`/v2.0/wiki/nodes?parentNodeId=x&${op}`);
      expect(workspaces.status).toBe(200);
      expect(nodes).toMatchObject({
        status: 403,
        body: {
          code: 'Forbidden.AccessDenied.AccessTokenPermissionDenied',
          accessdenieddetail: { requiredScopes: ['Wiki.Node.Read'] },
        },
      });
    } finally {
      fake.control.grantAllPermissions();
    }
  });

  it("serves a document's blocks in 0-based, inclusive startIndex…endIndex ranges", async () => {
    const doc = fake.control.documents()[0]!;
    const blocksOf = async (query: string) =>
      (
        (
          await api(
            `/v1.0/doc/suites/documents/${doc.externalId}/blocks?operatorId=${fake.credentials.operatorId}${query}`,
          )
        ).body as { result: { data: { id: string }[] } }
      ).result.data.map((block) => block.id);
    const all = await blocksOf('');
    expect(all.length).toBeGreaterThan(3);
    expect(await blocksOf('&startIndex=0&endIndex=1')).toEqual(all.slice(0, 2));
    expect(await blocksOf('&startIndex=2&endIndex=2')).toEqual([all[2]]);
    expect(await blocksOf(`&startIndex=${all.length}&endIndex=${all.length + 5}`)).toEqual([]);
  });

  it('answers errors with string codes and HTTP statuses', async () => {
    const op = `operatorId=${fake.credentials.operatorId}`;
    fake.control.inject({ kind: 'rate-limit', match: '/wiki/workspaces' });
    const limited = await api(`/v2.0/wiki/workspaces?${op}`);
    fake.control.inject({ kind: 'quota', match: '/wiki/workspaces' });
    const quota = await api(`/v2.0/wiki/workspaces?${op}`);
    const noOperator = await api('/v2.0/wiki/workspaces');
    const gone = await api(`/v1.0/doc/suites/documents/nd-unknown/blocks?${op}`);
    expect(
      [limited, quota, noOperator, gone].map(({ status, body }) => [status, (body as { code: string }).code]),
    ).toEqual([
      [403, 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi'],
      [403, 'Forbidden.AccessDenied.ApiCountLimitForOrg'],
      [400, 'MissingoperatorId'],
      [404, 'notFound'],
    ]);
  });
});
