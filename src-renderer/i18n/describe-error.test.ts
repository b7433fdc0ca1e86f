import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@shared/errors';
import { describeError } from './describe-error';
import { en } from './messages-en';
import { zh } from './messages-zh';

describe('error headlines', () => {
  it('has a headline for every error code in both languages', () => {
    const catalogs: Record<string, Record<string, string>> = { en, zh };
    const missing = ERROR_CODES.flatMap((code) =>
      Object.entries(catalogs)
        .filter(([, catalog]) => !catalog[`error.${code}`]?.trim())
        .map(([language]) => `${language}: error.${code}`),
    );
    expect(missing).toEqual([]);
    // A Chinese headline that is the English one was not translated.
    expect(ERROR_CODES.filter((code) => zh[`error.${code}`] === en[`error.${code}`])).toEqual([]);
  });
});

describe('describeError', () => {
  const rejected = {
    code: 'AUTH_INVALID',
    message: 'Yuque rejected the token (wrong, revoked or expired; HTTP 401).',
  };

  it('in Chinese: the localised headline, with core’s English sentence as the detail', () => {
    expect(describeError(rejected, 'zh')).toEqual({ headline: '平台拒绝了凭证', detail: rejected.message });
  });

  it('in English: core’s sentence alone, the headline only when core sent none', () => {
    expect({
      sentence: describeError(rejected, 'en'),
      empty: describeError({ code: 'TIMEOUT', message: '  ' }, 'en'),
    }).toEqual({
      sentence: { headline: rejected.message, detail: null },
      empty: { headline: 'The request timed out', detail: null },
    });
  });

  it('describes a cancellation as nothing, and an unknown stored code with a generic headline', () => {
    expect({
      cancelled: describeError({ code: 'CANCELLED', message: 'Sign-in cancelled.' }, 'zh'),
      unknown: describeError({ code: 'SOMETHING_NEW', message: 'It broke.' }, 'zh'),
    }).toEqual({ cancelled: null, unknown: { headline: '出现错误', detail: 'It broke.' } });
  });
});
