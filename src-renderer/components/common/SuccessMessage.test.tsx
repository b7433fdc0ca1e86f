import type { CoreMessage } from '@shared/models';
import { describe, expect, it } from 'vitest';
import { describeSuccess } from './SuccessMessage';

const folderReadable = {
  message: 'Folder "notes" is readable: 1,207 files to index (1,200 Markdown, 7 text).',
  code: 'connection.folderReadable',
  params: {
    platform: 'folder',
    name: 'notes',
    total: 1207,
    capped: 0,
    'kind.markdown': 1200,
    'kind.text': 7,
  },
};

describe('describeSuccess', () => {
  it('says a folder test entirely in Chinese: counts, kinds and the list punctuation', () => {
    expect(describeSuccess(folderReadable, 'zh')).toEqual({
      headline: '已连接到本地文件夹',
      detail: '文件夹“notes”可以读取：将索引 1,207 个文件（1,200 Markdown、7 文本）。',
    });
  });

  it('marks a capped count, and keeps core’s own sentence in English', () => {
    const capped = { ...folderReadable, params: { ...folderReadable.params, capped: 1 } };
    expect(describeSuccess(capped, 'zh').detail).toContain('将索引 1,207+ 个文件');
    expect(describeSuccess(folderReadable, 'en')).toEqual({ headline: folderReadable.message, detail: null });
  });

  it('puts core’s English sentence beneath a Chinese headline where a connector returned only a sentence', () => {
    const yuque = {
      message: 'Connected to Yuque as Ada; 2 personal knowledge bases visible.',
      code: 'connection.ok',
      params: { platform: 'yuque' },
    };
    expect(describeSuccess(yuque, 'zh')).toEqual({ headline: '已连接到语雀', detail: yuque.message });
  });

  // What each platform's Test found, as its connector returns it (the connector tests pin these).
  const yuque = {
    message:
      'Connected to Yuque as Cairn 演示用户 (cairn-demo); 12 personal knowledge bases visible, team knowledge bases are listed on sync.',
    code: 'connection.yuqueOk',
    params: {
      platform: 'yuque',
      login: 'cairn-demo',
      name: 'Cairn 演示用户',
      account: 'named',
      repos: 12,
      visible: 'some',
    },
  };
  const feishu = {
    message:
      'Connected to Lark as app cli_x1: no knowledge space is visible yet (add the app as a member of each space to index); search and My Library need you to sign in with Lark.',
    code: 'connection.feishuOk',
    params: { platform: 'lark', appId: 'cli_x1', spaces: 0, visible: 'none', search: 'signIn' },
  };
  const dingtalk = {
    message:
      'Connected to DingTalk (unionId u-1 of user 0420); knowledge bases are visible (e.g. "产品 Wiki"); full text arrives over DingTalk Stream.',
    code: 'connection.dingtalkOk',
    params: {
      platform: 'dingtalk',
      operator: 'derived',
      unionId: 'u-1',
      userId: '0420',
      workspaces: 'some',
      example: '产品 Wiki',
      fullText: 'stream',
    },
  };
  const ima = {
    message: 'Connected to IMA (experimental); knowledge bases are visible (e.g. "读书笔记").',
    code: 'connection.imaOk',
    params: { platform: 'ima', visible: 'some', example: '读书笔记' },
  };

  it('says each platform’s Test in Chinese around the names the platform returned', () => {
    expect([yuque, feishu, dingtalk, ima].map((success) => describeSuccess(success, 'zh'))).toEqual([
      {
        headline: '已连接到语雀',
        detail: '账号 Cairn 演示用户（cairn-demo）：可以看到 12 个个人知识库，团队知识库在同步时列出。',
      },
      {
        headline: '已连接到Lark',
        detail:
          '应用 cli_x1：还看不到任何知识空间（请把应用添加为每个要索引的空间的成员）；搜索和“我的文档库”需要先登录Lark。',
      },
      {
        headline: '已连接到钉钉',
        detail: '用户 0420（unionId u-1）：可以看到知识库（例如“产品 Wiki”）；全文通过钉钉 Stream 送达。',
      },
      { headline: '已连接到腾讯 IMA', detail: '可以看到知识库（例如“读书笔记”）；IMA 支持尚属实验性。' },
    ]);
  });

  it('picks each case by its param, and a name that looks like a case stays a name', () => {
    const other = (success: CoreMessage, params: CoreMessage['params']) =>
      describeSuccess({ ...success, params: { ...success.params, ...params } }, 'zh').detail;
    expect([
      other(yuque, { account: 'login', login: 'some', name: 'some' }),
      other(feishu, { visible: 'some', spaces: 1200, search: 'on' }),
      other(dingtalk, { operator: 'configured', workspaces: 'none', fullText: 'blocks' }),
      other(dingtalk, { fullText: 'streamUntested' }),
      other(ima, { visible: 'none', example: '' }),
    ]).toEqual([
      '账号 some：可以看到 12 个个人知识库，团队知识库在同步时列出。',
      '应用 cli_x1：可以看到 1,200 个知识空间；搜索已开启（用户已授权）。',
      '此用户还看不到任何知识库（“我的文档”在同步时列出）；全文通过钉钉文档块接口读取。',
      '用户 0420（unionId u-1）：可以看到知识库（例如“产品 Wiki”）；Stream 连接已打开（没有在线文档可用来测试导出事件）。',
      '看不到任何知识库（IMA 支持尚属实验性）。',
    ]);
  });

  it('keeps core’s sentence alone in English, and the English catalog says what core says', () => {
    const oneRepo = {
      message:
        'Connected to Yuque as Cairn 演示用户 (cairn-demo); 1 personal knowledge base visible, team knowledge bases are listed on sync.',
      code: 'connection.yuqueOk',
      params: { ...yuque.params, repos: 1, visible: 'one' },
    };
    const oneSpace = {
      message:
        'Connected to Lark as app cli_x1: 1 knowledge space visible; search and My Library need you to sign in with Lark.',
      code: 'connection.feishuOk',
      params: { ...feishu.params, spaces: 1, visible: 'one' },
    };
    for (const success of [yuque, oneRepo, feishu, oneSpace, dingtalk, ima]) {
      expect(describeSuccess(success, 'en')).toEqual({ headline: success.message, detail: null });
      // With no sentence from core (an older host), the English catalog stands in with the same words.
      expect(describeSuccess({ ...success, message: '' }, 'en').detail).toBe(success.message);
    }
  });
});
