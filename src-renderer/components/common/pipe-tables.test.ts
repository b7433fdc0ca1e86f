import { describe, expect, it } from 'vitest';
import { splitPipeTables, tableCells } from './pipe-tables';

describe('splitPipeTables', () => {
  it('lifts a pipe table out of the prose around it, with its cells', () => {
    const markdown = 'See the table below.\n\n| Setting | Value |\n| --- | :---: |\n| region | us-west-1 |\n| 并发 | 2 |\nAfter the table.';
    expect(splitPipeTables(markdown)).toEqual([
      { kind: 'markdown', text: 'See the table below.\n' },
      { kind: 'table', header: ['Setting', 'Value'], rows: [['region', 'us-west-1'], ['并发', '2']] },
      { kind: 'markdown', text: 'After the table.' },
    ]);
  });

  it('leaves pipes inside fenced code and rows that do not match their delimiter alone', () => {
    const fenced = '```md\n| a | b |\n| - | - |\n```';
    expect(splitPipeTables(fenced)).toEqual([{ kind: 'markdown', text: fenced }]);
    const mismatched = 'a | b | c\n--- | ---';
    expect(splitPipeTables(mismatched)).toEqual([{ kind: 'markdown', text: mismatched }]);
    expect(splitPipeTables('x || y')).toEqual([{ kind: 'markdown', text: 'x || y' }]);
  });

  it('reads a table without outer pipes and keeps escaped pipes as text', () => {
    expect(splitPipeTables('名称 | 说明\n--- | ---\n`a\\|b` | 或')).toEqual([{ kind: 'table', header: ['名称', '说明'], rows: [['`a|b`', '或']] }]);
    expect(tableCells('| 1 | two \\| three |')).toEqual(['1', 'two | three']);
  });
});
