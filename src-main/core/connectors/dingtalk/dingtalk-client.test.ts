import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../http/platform-http';
import { interpretDingTalk } from './dingtalk-client';
import { DINGTALK_PERMISSIONS, DINGTALK_STEPS } from './dingtalk-permissions';

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

  it('names the permission a 403 says is missing (requiredScopes), else the one the step needs', () => {
    const message = (response: RawResponse, step?: (typeof DINGTALK_STEPS)[keyof typeof DINGTALK_STEPS]) => {
      const verdict = interpretDingTalk(response, 1000, step);
      return verdict.kind === 'error' ? [verdict.error.message, verdict.error.details] : verdict.kind;
    };
    const denied = {
      code: 'Forbidden.AccessDenied.AccessTokenPermissionDenied',
      message: '没有调用该接口的权限',
      requestid: 'r1',
    };
    // The answer's own list wins, even where the step would have guessed another permission.
    expect(
      message(
        answer(403, { ...denied, accessdenieddetail: { requiredScopes: ['Contact.User.Read'] } }),
        DINGTALK_STEPS.nodes,
      ),
    ).toEqual([
      expect.stringMatching(
        /^The DingTalk app lacks the permission Contact\.User\.Read needed to list the documents of a knowledge base \(Forbidden/,
      ),
      { reason: 'dingtalk.missing-permission', params: { permissions: 'Contact.User.Read' } },
    ]);
    expect(message(answer(403, denied), DINGTALK_STEPS.blocks)).toEqual([
      expect.stringMatching(/needs the app permission Storage\.File\.Read/),
      { reason: 'dingtalk.missing-permission', params: { permissions: 'Storage.File.Read' } },
    ]);
    // No page names the search permission: only that DingTalk refused, and why it might have.
    expect(message(answer(403, denied), DINGTALK_STEPS.search)).toEqual([
      expect.stringMatching(/^DingTalk denied access to search .*Check the app's permissions/),
      undefined,
    ]);
    expect(DINGTALK_PERMISSIONS).toEqual([
      'qyapi_get_member',
      'Wiki.Workspace.Read',
      'Wiki.Node.Read',
      'Storage.File.Read',
    ]);
  });
});
