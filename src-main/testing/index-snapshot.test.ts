import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../core/chunking/chunker';
import { lostDocuments, tornDocuments, type IndexedDocument, type IndexSnapshot } from './index-snapshot';

const TEXT = '# 报销流程\n\n提交发票后由主管审批。\n\n## 提交\n\n在系统里填写报销单。';

function whole(content: string): IndexedDocument {
  const chunks = chunkMarkdown(content).map((chunk) => chunk.text);
  return { connectionId: 'c', content, chunks, chunkCount: chunks.length, vectors: chunks.length };
}

describe('the crash checks', () => {
  it('find a document torn when a chunk or its count is wrong or a vector is stray, and pass a whole one', () => {
    const good = whole(TEXT);
    const snapshot: IndexSnapshot = new Map([
      ['c/whole.md', good],
      ['c/chunk-missing.md', { ...good, chunks: good.chunks.slice(1) }],
      ['c/count-wrong.md', { ...good, chunkCount: good.chunkCount + 1 }],
      ['c/vectors-pending.md', { ...good, vectors: 0 }],
      ['c/vector-stray.md', { ...good, vectors: good.vectors + 1 }],
      ['c/old-chunks.md', { ...whole(`${TEXT}\n\n新增一段。`), chunks: good.chunks }],
    ]);
    expect(tornDocuments(snapshot)).toEqual([
      'c/chunk-missing.md',
      'c/count-wrong.md',
      'c/vector-stray.md',
      'c/old-chunks.md',
    ]);
  });

  it('find a document lost when it is gone or holds a text its file never had', () => {
    const before: IndexSnapshot = new Map([
      ['c/kept.md', whole('旧版本。')],
      ['c/updated.md', whole('旧版本。')],
      ['c/gone.md', whole('旧版本。')],
      ['c/deleted.md', whole('旧版本。')],
      ['c/garbled.md', whole('旧版本。')],
    ]);
    const after: IndexSnapshot = new Map([
      ['c/kept.md', whole('旧版本。')],
      ['c/updated.md', whole('新版本。')],
      ['c/garbled.md', whole('从未有过的文本。')],
    ]);
    const since = new Map([
      ['c/updated.md', new Set(['新版本。'])],
      ['c/garbled.md', new Set(['新版本。'])],
    ]);
    expect(lostDocuments(before, after, since, new Set(['c/deleted.md']))).toEqual([
      'c/gone.md',
      'c/garbled.md',
    ]);
  });
});
