import { describe, expect, it } from 'vitest';
import { headingPathAt } from './heading-at';

describe('headingPathAt', () => {
  const chunk = [
    '## 变量参考',
    '',
    '### tidb_mem_quota_query',
    '',
    '- 默认值：`1073741824`',
    '',
    '### tidb_mem_oom_action',
    '',
    '```bash',
    '# not a heading',
    '```',
    '',
    '- 默认值：`CANCEL`',
  ].join('\n');

  it('labels a passage by the nearest heading above it inside a merged chunk', () => {
    const path = '系统变量 > 变量参考';
    expect(headingPathAt(chunk, chunk.indexOf('1073741824'), path)).toBe(
      '系统变量 > 变量参考 > tidb_mem_quota_query',
    );
    expect(headingPathAt(chunk, chunk.indexOf('CANCEL'), path)).toBe(
      '系统变量 > 变量参考 > tidb_mem_oom_action',
    );
    expect(headingPathAt(chunk, 0, path)).toBe('系统变量 > 变量参考');
  });

  it('appends headings the chunk path does not name, and reads no heading inside fenced code', () => {
    const merged = 'Intro text.\n\n## Linux\n\nRun it.\n\n```sh\n# comment\n```\n\nDone.';
    expect(headingPathAt(merged, merged.indexOf('Done'), 'Guide > Install')).toBe('Guide > Install > Linux');
    expect(headingPathAt(merged, 0, 'Guide > Install')).toBe('Guide > Install');
    expect(headingPathAt('plain text', 3, '')).toBe('');
  });
});
