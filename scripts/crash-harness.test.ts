/**
 * The crash harness itself, run short: one kill at each moment (sync, first open, watch + serve,
 * re-embed) on a small folder, and nothing torn, lost or failing after. The long, random run is
 * `npm run crash-harness` (README, Testing).
 */
import { describe, expect, it } from 'vitest';
import { MOMENTS, runCrashHarness } from './crash-harness';

describe('crash harness', () => {
  it('kills a real child at each moment and finds every data directory whole', async () => {
    const lines: string[] = [];
    const summary = await runCrashHarness({
      kills: MOMENTS.length,
      seed: 25,
      notes: 24,
      maxDelayMs: 2500,
      sequence: MOMENTS,
      log: (line) => lines.push(line),
    });
    expect(summary.kills + summary.finishedFirst, lines.join('\n')).toBe(MOMENTS.length);
    expect(summary.kills, lines.join('\n')).toBeGreaterThan(0);
    expect(
      {
        torn: summary.torn,
        lost: summary.lost,
        unopenable: summary.unopenable,
        failedSyncs: summary.failedSyncs,
      },
      summary.problems.join('\n'),
    ).toEqual({ torn: 0, lost: 0, unopenable: 0, failedSyncs: 0 });
    expect(lines.at(-1)).toMatch(/^crash harness: \d+ kills/);
  }, 1_800_000);
});
