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

  it('in Chinese, a reason core names gives a finer headline with its values (details, or a stored error’s own fields)', () => {
    const live = {
      code: 'PERMISSION_DENIED',
      message: 'The DingTalk app lacks the permission Wiki.Node.Read needed to list the documents …',
      details: { reason: 'dingtalk.missing-permission', params: { permissions: 'Wiki.Node.Read' } },
    };
    const stored = {
      code: 'PERMISSION_DENIED',
      message: 'Your Feishu sign-in does not include …',
      reason: 'feishu.missing-scope',
      params: { scopes: 'bitable:app:readonly' },
    };
    expect([describeError(live, 'zh'), describeError(stored, 'zh'), describeError(live, 'en')]).toEqual([
      {
        headline: '钉钉应用缺少权限：Wiki.Node.Read（请在开发者后台“权限管理”中开通）',
        detail: live.message,
      },
      {
        headline: '缺少飞书权限范围：bitable:app:readonly（请在开发者后台开通并重新登录）',
        detail: stored.message,
      },
      { headline: live.message, detail: null },
    ]);
    // A file set aside after two crashes is named by core's sentence, under its own headline.
    const quarantined = {
      code: 'DOCUMENT_FAILED',
      message: 'huge.docx was being read each of the last two times Cairn stopped unexpectedly …',
      reason: 'sync.quarantined',
    };
    expect(describeError(quarantined, 'zh')).toEqual({
      headline: '已搁置：读取此文件时 Cairn 两次意外退出；文件更改后会重新读取',
      detail: quarantined.message,
    });
    // A sync stopped because its source went away names the address; core's sentence gives the counts.
    const unreachable = {
      code: 'SOURCE_UNREACHABLE',
      message: 'Cannot reach 127.0.0.1:8080 (ECONNREFUSED): the sync stopped after 3 attempts in a row; …',
      details: { reason: 'sync.unreachable', params: { host: '127.0.0.1:8080' } },
    };
    expect(describeError(unreachable, 'zh')).toEqual({
      headline: '无法连接 127.0.0.1:8080，同步已停止：未读取的文档等待下次同步，现有索引保持不变',
      detail: unreachable.message,
    });
    // A reason without its own headline (a folder's group label) keeps the code's headline.
    expect(describeError({ ...stored, reason: 'folder.corrupt' }, 'zh')?.headline).toBe('没有访问权限');
  });
});
