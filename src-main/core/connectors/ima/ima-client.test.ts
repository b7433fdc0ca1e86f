import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../http/platform-http';
import { interpretIma } from './ima-client';

function answer(json: unknown, status = 200): RawResponse {
  return { status, headers: new Headers(), text: JSON.stringify(json), json };
}

function outcome(response: RawResponse): string {
  const verdict = interpretIma(response);
  return verdict.kind === 'error'
    ? verdict.error.code
    : verdict.kind === 'ok'
      ? 'ok'
      : `${verdict.kind}:${verdict.code}`;
}

describe('interpretIma', () => {
  it('maps the reported IMA codes and messages to Cairn codes', () => {
    expect(
      [
        answer({ code: 0, data: { a: 1 } }),
        answer({ retcode: '0', data: {} }),
        answer({ code: 110021, msg: 'too frequent' }),
        answer({ code: 200001 }),
        answer({ code: 220021 }),
        answer({ retcode: 200005, errmsg: 'quota' }),
        answer({ code: 110030 }),
        answer({ code: 51, msg: 'limit' }),
        answer({ code: -200, msg: 'please upgrade the skill' }),
        answer({ code: 9, msg: 'skill auth failed' }),
        answer({ code: 110004, msg: 'media not exist' }),
        answer({ code: 12345, msg: 'odd' }),
        answer(undefined),
        answer({}, 502),
        answer({}, 405),
        answer({ code: 200005, msg: '请求超量，请明日再试', data: {} }, 403),
        answer({ code: 200001, msg: '请求频率超限，请稍后重试' }, 403),
        answer({ code: 0, msg: '请求超量，请明日再试' }),
        answer(undefined, 403),
        answer({ code: 210005, msg: '非笔记作者' }),
        answer({ code: 220030, msg: 'no permission' }),
        answer({ code: 210001 }),
        answer({ code: 210035 }),
        answer({ code: 210009 }),
      ].map(outcome),
    ).toEqual([
      'ok',
      'ok',
      'retry:RATE_LIMITED',
      'retry:RATE_LIMITED',
      'QUOTA_EXCEEDED',
      'QUOTA_EXCEEDED',
      'PERMISSION_DENIED',
      'INVALID_ARGUMENT',
      'UNSUPPORTED',
      'AUTH_INVALID',
      'NOT_FOUND',
      'SOURCE_ERROR',
      'retry:SOURCE_ERROR',
      'retry:SOURCE_ERROR',
      'UNSUPPORTED',
      'QUOTA_EXCEEDED',
      'retry:RATE_LIMITED',
      'QUOTA_EXCEEDED',
      'SOURCE_ERROR',
      'PERMISSION_DENIED',
      'PERMISSION_DENIED',
      'INVALID_ARGUMENT',
      'NOT_FOUND',
      'UNSUPPORTED',
    ]);
  });
});
