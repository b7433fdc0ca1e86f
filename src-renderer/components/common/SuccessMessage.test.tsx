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

  it('puts core’s English sentence beneath a Chinese headline where the catalog has no detail message', () => {
    const yuque = {
      message: 'Connected to Yuque as Ada; 2 personal knowledge base(s) visible.',
      code: 'connection.ok',
      params: { platform: 'yuque' },
    };
    expect(describeSuccess(yuque, 'zh')).toEqual({ headline: '已连接到语雀', detail: yuque.message });
  });
});
