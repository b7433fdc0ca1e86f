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
    ]);
  });
});
