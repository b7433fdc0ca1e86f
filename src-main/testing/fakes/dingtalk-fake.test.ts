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
    const user = await fetch(`${fake.baseUrl}/topapi/v2/user/get?access_token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userid: fake.control.userId }),
    });
    expect(parseBody(UserDetails, await user.json(), 'POST /topapi/v2/user/get').result?.unionid).toBe(
      fake.credentials.operatorId,
    );
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
