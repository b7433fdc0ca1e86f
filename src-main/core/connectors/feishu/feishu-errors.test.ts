/**
 * Every Feishu error code the connector can meet, mapped to its action (docs/connectors.md
 * "Feishu / Lark: error codes"): what a single answer means, then the behaviour end to end
 * against the fake (no permission stops at once, too large is not retried, the monthly quota defers,
 * search's 401 and 429 codes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import type { RawResponse } from '../http/platform-http';
import { interpretFeishu } from './feishu-api';
import { FeishuConnector } from './feishu-connector';
import { interpretOAuth } from './feishu-oauth';
import { codeExchangeError } from './feishu-sign-in';
import { startFeishuFake, type FeishuFake } from '../../../testing/fakes/feishu-fake';
import { failure, listAll } from '../../../testing/connector-test-kit';

function answer(status: number, json: unknown, headers: Record<string, string> = {}): RawResponse {
  return { status, headers: new Headers(headers), text: JSON.stringify(json), json };
}

function verdict(response: RawResponse): string {
  const v = interpretFeishu('GET /x', 'Feishu')(response);
  if (v.kind === 'ok') return 'ok';
  if (v.kind === 'error') return v.error.code;
  return `${v.kind}:${v.code}${v.kind === 'retry' && v.afterMs !== undefined ? `@${v.afterMs}` : ''}`;
}

function oauthVerdict(response: RawResponse, at: 'current' | 'deprecated' = 'current'): string {
  const v = interpretOAuth('Feishu', 'refresh_token', at, codeExchangeError)(response);
  if (v.kind === 'ok') return 'ok';
  if (v.kind === 'error') return `${v.error.code}: ${v.error.message}`;
  return `${v.kind}:${v.code}`;
}

describe('Feishu error codes → actions', () => {
  it('maps every open-apis code the connector can meet', () => {
    const cases: [string, RawResponse, string][] = [
      ['success', answer(200, { code: 0, data: {} }), 'ok'],
      [
        'wrong app secret (tenant token)',
        answer(200, { code: 10014, msg: 'app secret invalid' }),
        'AUTH_INVALID',
      ],
      ['unknown app id (tenant token)', answer(200, { code: 10003, msg: 'invalid param' }), 'AUTH_INVALID'],
      ['monthly quota', answer(400, { code: 99991403, msg: 'quota' }), 'QUOTA_EXCEEDED'],
      ['tenant token invalid', answer(400, { code: 99991663 }), 'refresh-auth:AUTH_EXPIRED'],
      ['user token expired', answer(400, { code: 99991677 }), 'refresh-auth:AUTH_EXPIRED'],
      [
        'user token invalid',
        answer(400, { code: 99991668, msg: 'Invalid access token for authorization' }),
        'refresh-auth:AUTH_EXPIRED',
      ],
      [
        'user token not supported',
        answer(400, { code: 99991668, msg: 'user access token not support' }),
        'PERMISSION_DENIED',
      ],
      ['search: user token invalid (401)', answer(401, { code: 1274011 }), 'refresh-auth:AUTH_EXPIRED'],
      ['search: rate limit (429)', answer(429, { code: 1277001 }), 'retry:RATE_LIMITED'],
      [
        'frequency limit with reset',
        answer(429, { code: 99991400 }, { 'x-ogw-ratelimit-reset': '2' }),
        'retry:RATE_LIMITED@2000',
      ],
      ['frequency limit, legacy 400', answer(400, { code: 99991400 }), 'retry:RATE_LIMITED'],
      ['docs content: no permission', answer(403, { code: 2889902 }), 'PERMISSION_DENIED'],
      ['docs content: deleted', answer(403, { code: 2889906 }), 'NOT_FOUND'],
      ['docs content: token not found', answer(400, { code: 2889914 }), 'NOT_FOUND'],
      ['docs content: over 10 MB (HTTP 500)', answer(500, { code: 2889925 }), 'UNSUPPORTED'],
      ['docx: forbidden', answer(403, { code: 1770032 }), 'PERMISSION_DENIED'],
      ['docx: not found', answer(404, { code: 1770002 }), 'NOT_FOUND'],
      ['wiki: retry later', answer(400, { code: 131001 }), 'retry:SOURCE_ERROR'],
      ['wiki: do not retry', answer(500, { code: 131007 }), 'SOURCE_ERROR'],
      ['missing scope', answer(400, { code: 99991672 }), 'PERMISSION_DENIED'],
      ['server error', answer(503, { code: 1771005 }), 'retry:SOURCE_ERROR'],
      ['no envelope', answer(200, { hello: 1 }), 'UNEXPECTED_RESPONSE'],
    ];
    expect(cases.map(([name, response]) => [name, verdict(response)])).toEqual(
      cases.map(([name, , expected]) => [name, expected]),
    );
  });

  it('maps every refresh answer: lost sign-in, refresh disabled in the console, app problems, fallback to v2', () => {
    expect([
      oauthVerdict(answer(400, { code: 20064, error: 'invalid_grant' })),
      oauthVerdict(answer(400, { code: 20073, error: 'invalid_grant' })),
      oauthVerdict(answer(400, { code: 20037, error: 'invalid_grant' })),
      oauthVerdict(answer(400, { code: 20074, error: 'unauthorized_client' })),
      oauthVerdict(answer(400, { code: 20002, error: 'invalid_client' })),
      oauthVerdict(answer(500, { code: 20050, error: 'server_error' })),
      oauthVerdict(answer(404, {})),
      oauthVerdict(answer(400, { code: 20026, error: 'invalid_grant' })),
      oauthVerdict(answer(400, { code: 20026, error: 'invalid_grant' }), 'deprecated'),
    ]).toEqual([
      expect.stringMatching(
        /^AUTH_EXPIRED: .*expired, was revoked or its refresh token was already used \(code 20064\).*Sign in again/,
      ),
      expect.stringMatching(/^AUTH_EXPIRED: .*\(code 20073\)/),
      expect.stringMatching(/^AUTH_EXPIRED: .*\(code 20037\)/),
      expect.stringMatching(
        /^PERMISSION_DENIED: Feishu does not allow this app to refresh user tokens \(code 20074\)\. In the developer console, open Security settings/,
      ),
      expect.stringMatching(/^AUTH_INVALID: .*check the App Secret/),
      'retry:SOURCE_ERROR',
      expect.stringMatching(/^UNSUPPORTED: Feishu has no v3 token endpoint here/),
      expect.stringMatching(/^AUTH_INVALID: Feishu v3 does not know this refresh token/),
      expect.stringMatching(
        /^AUTH_INVALID: The stored Feishu user refresh token is not valid \(code 20026\)/,
      ),
    ]);
  });
});

describe('Feishu error handling against the fake', () => {
  let fake: FeishuFake;
  beforeAll(async () => {
    fake = await startFeishuFake({ documents: 9, extraNodes: true });
  });
  afterAll(() => fake.close());

  const connect = (refreshToken?: string) =>
    new FeishuConnector(
      'feishu',
      {
        config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId },
        secrets: {
          appSecret: fake.credentials.appSecret,
          userRefreshToken: refreshToken ?? fake.control.latestRefreshToken,
        },
        logger: silentLogger(),
        saveSecrets: async () => {},
      },
      {
        http: { backoffBaseMs: 5, backoffMaxMs: 20 },
        rates: { api: { intervalMs: 1000, intervalCap: 1000 } },
      },
    );

  it('a document without permission is recorded at once: no fallback, no retry', async () => {
    const connector = connect();
    const refs = await listAll(connector);
    const victim = fake.control.store.list(0)[1]!;
    fake.control.denyDocument(victim.id);
    const start = fake.control.requests.length;
    const denied = await failure(
      connector.fetch(refs.find((r) => r.externalId === fake.control.externalIdOf(victim.id))!),
    );
    expect([denied.code, denied.message]).toEqual([
      'PERMISSION_DENIED',
      expect.stringContaining('code 2889902'),
    ]);
    expect(fake.control.requests.slice(start).map((r) => r.path)).toEqual(['/open-apis/docs/v1/content']);
  });

  it('reads spreadsheets and bitables as Markdown tables; hidden sheets and empty rows are left out', async () => {
    const connector = connect();
    const refs = await listAll(connector);
    const sheet = refs.find((r) => r.externalId === 'sheetCairn80000')!;
    expect((await connector.fetch(sheet)).markdown).toBe(
      '## 预算 Budget\n\n| 项目 Item | 金额 Amount | 负责人 Owner |\n| --- | --- | --- |\n| 服务器 Servers | 12000 | 张伟 |\n| Licences | 3400.5 | Alice |\n',
    );
    const base = refs.find((r) => r.externalId === 'bitableCairn80003')!;
    expect((await connector.fetch(base)).markdown).toBe(
      '## 任务 Tasks\n\n| 任务 | 负责人 | 进度 |\n| --- | --- | --- |\n| 上线检索 | 张伟 | 0.5 |\n| Write docs | Alice | 1 |\n',
    );
    const values = fake.control.requests.filter((r) => r.path.includes('/values/'));
    expect(values.every((r) => r.query.valueRenderOption === 'ToString' && !r.path.includes('hid999'))).toBe(
      true,
    );
  });

  it('the monthly quota (99991403) stops with QUOTA_EXCEEDED, which the sync defers', async () => {
    const connector = connect();
    const refs = await listAll(connector);
    fake.control.exhaustMonthlyQuota(true);
    try {
      const error = await failure(connector.fetch(refs[0]!));
      expect([error.code, error.message]).toEqual([
        'QUOTA_EXCEEDED',
        expect.stringContaining('API calls for the month are used up'),
      ]);
    } finally {
      fake.control.exhaustMonthlyQuota(false);
    }
  });

  it('backs off on search 429 (1277001) and refreshes on search 401 (1274011)', async () => {
    const connector = connect();
    fake.control.inject({ kind: 'rate-limit', resetSeconds: 0.02 }, { path: '/search/v2/doc_wiki/search' });
    expect((await connector.search('Notes', { limit: 2 })).length).toBe(2);
    fake.control.expireTokens();
    expect((await connector.search('Notes', { limit: 2 })).length).toBe(2);
    const statuses = fake.control.requests
      .filter((r) => r.path === '/open-apis/search/v2/doc_wiki/search')
      .map((r) => r.status);
    expect(statuses).toEqual([429, 200, 401, 200]);
  });
});
