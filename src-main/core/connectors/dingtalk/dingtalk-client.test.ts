import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../http/platform-http';
import { interpretDingTalk } from './dingtalk-client';

function answer(status: number, json: unknown): RawResponse {
  return { status, headers: new Headers(), text: JSON.stringify(json), json };
}

function outcome(response: RawResponse): string {
  const verdict = interpretDingTalk(response, 1000);
  return verdict.kind === 'error'
    ? verdict.error.code
    : verdict.kind === 'ok'
      ? 'ok'
      : `${verdict.kind}:${verdict.code}`;
}

describe('interpretDingTalk', () => {
  it('branches on the HTTP status and the string code as connectors.md §3.4 describes', () => {
    expect(
      [
        answer(200, { workspaces: [] }),
        answer(401, { code: 'InvalidAuthentication', message: 'bad token', requestid: 'r' }),
        answer(403, { code: 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi' }),
        answer(403, { code: 'Forbidden.AccessDenied.QpsLimitForApi' }),
        answer(403, { code: 'Forbidden.AccessDenied.AccessTokenPermissionDenied' }),
        answer(400, { code: 'MissingoperatorId' }),
        answer(404, { code: 'notFound' }),
        answer(503, { code: 'ServiceUnavailable' }),
        answer(200, { status: 1111, wait: 5, punish: 'deny' }),
        answer(400, { code: 'paramError' }),
        { status: 200, headers: new Headers(), text: '{"a":', json: undefined },
        answer(403, {
          code: 'Forbidden.AccessDenied.ApiCountLimitForOrg',
          message: '本月api调用量已超过限制',
        }),
        answer(200, { errcode: 90020, errmsg: 'quota' }),
        {
          status: 403,
          headers: new Headers(),
          text: '<html>{status:1111, wait:5, punish:"deny"}</html>',
          json: undefined,
        },
      ].map(outcome),
    ).toEqual([
      'ok',
      'refresh-auth:AUTH_EXPIRED',
      'retry:RATE_LIMITED',
      'retry:RATE_LIMITED',
      'PERMISSION_DENIED',
      'INVALID_ARGUMENT',
      'NOT_FOUND',
      'retry:SOURCE_ERROR',
      'RATE_LIMITED',
      'SOURCE_ERROR',
      'retry:SOURCE_ERROR',
      'QUOTA_EXCEEDED',
      'ok',
      'RATE_LIMITED',
    ]);
  });

  it('waits about a second (plus jitter) on a QPS limit', () => {
    const verdict = interpretDingTalk(answer(403, { code: 'Forbidden.AccessDenied.QpsLimitForApi' }), 1000);
    expect(verdict.kind === 'retry' && verdict.afterMs! >= 1000 && verdict.afterMs! <= 1200).toBe(true);
  });
});
