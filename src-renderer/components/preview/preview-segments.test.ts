import { describe, expect, it } from 'vitest';
import { previewSegments } from './preview-segments';

const DOC = '# 报销流程\n\n## 提交\n\n员工提交报销单。\n附上发票。\n\n## 审批\n\n经理审批后由赵敏复核。\n';
const at = (text: string) => DOC.indexOf(text);

describe('previewSegments', () => {
  it('cuts at chunk starts and marks the segments of the passage, whole lines only', () => {
    const chunks = [{ charStart: 0 }, { charStart: at('## 审批') }];
    // A passage starting mid-line (a paragraph inside the first chunk) is widened to its lines.
    const passage = { charStart: at('提交报销单'), charEnd: at('附上发票') + 2 };
    const segments = previewSegments(DOC, chunks, passage);
    expect(segments.map((segment) => [segment.markdown, segment.target])).toEqual([
      ['# 报销流程\n\n## 提交\n\n', false],
      ['员工提交报销单。\n附上发票。\n', true],
      ['\n', false],
      ['## 审批\n\n经理审批后由赵敏复核。\n', false],
    ]);
    expect(segments.map((segment) => segment.markdown).join('')).toBe(DOC);
  });

  it('marks a whole chunk when the passage is one, and nothing for a passage outside the text', () => {
    const chunks = [{ charStart: 0 }, { charStart: at('## 审批') }];
    const chunk = { charStart: at('## 审批'), charEnd: DOC.length };
    expect(
      previewSegments(DOC, chunks, chunk)
        .filter((segment) => segment.target)
        .map((s) => s.markdown),
    ).toEqual(['## 审批\n\n经理审批后由赵敏复核。\n']);
    expect(previewSegments(DOC, chunks, { charStart: 5_000, charEnd: 5_100 }).some((s) => s.target)).toBe(
      false,
    );
    expect(
      previewSegments(DOC, chunks, null)
        .map((s) => s.markdown)
        .join(''),
    ).toBe(DOC);
    expect(previewSegments('', [], null)).toEqual([{ start: 0, end: 0, markdown: '', target: false }]);
  });
});
