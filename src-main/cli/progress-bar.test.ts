import { describe, expect, it } from 'vitest';
import { createProgressBar, renderBar } from './progress-bar';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, columns: 60, write: (text: string) => writes.push(text) };
}

describe('progress bar', () => {
  it('draws in place on a terminal, throttled, always drawing completion, and clears on stop', () => {
    let time = 0;
    const tty = stream(true);
    const bar = createProgressBar(tty, { now: () => time, minIntervalMs: 100 });
    bar.update({ done: 1, total: 4, label: 'fetching' });
    time = 50;
    bar.update({ done: 2, total: 4, label: 'fetching' });
    bar.update({ done: 4, total: 4, label: 'writing' });
    bar.stop();
    expect(tty.writes).toEqual([
      `\r\x1b[2K[${'#'.repeat(8)}${'.'.repeat(22)}] 1/4  fetching`,
      `\r\x1b[2K[${'#'.repeat(30)}] 4/4  writing`,
      '\r\x1b[2K',
    ]);
  });

  it('writes nothing when output is not a terminal', () => {
    const piped = stream(false);
    const bar = createProgressBar(piped);
    bar.update({ done: 1, total: 2, label: 'x' });
    bar.stop();
    expect(piped.writes).toEqual([]);
  });

  it('fits long and CJK labels to the width and shows a bare count without a total', () => {
    expect(renderBar(3, 0, 'listing', 40)).toBe('3  listing');
    const line = renderBar(1, 2, '知识库'.repeat(20), 40);
    expect(line).toBe('[#########........] 1/2  知识库知识库…');
  });
});
