import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './report';

const dir = mkdtempSync(join(tmpdir(), 'cairn-eval-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function results(name: string, keywordNdcg: number): string {
  const path = join(dir, `${name}.json`);
  const scores = { ndcgAt10: keywordNdcg, pAt1: 0.5, recallAt10: 0.9, recallAt30: 0.9, mrrAt10: 0.6 };
  writeFileSync(
    path,
    JSON.stringify({
      commit: name,
      collections: [{ collection: 'scifact', split: 'test', scores: { keyword: scores } }],
    }),
  );
  return path;
}

/** `npm run eval -- --compare <earlier> --current <later>`, as a user runs it. */
function compare(earlier: string, later: string) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/eval.ts', '--compare', earlier, '--current', later],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    },
  );
}

describe('eval --compare', () => {
  it('exits 1 and marks the drop when a score fell by more than 0.005', () => {
    const run = compare(results('before', 0.7), results('after', 0.69));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /scifact\s*\|\s*keyword\s*\|\s*nDCG@10\s*\|\s*0\.700\s*\|\s*0\.690\s*\|\s*-0\.010\s*\|\s*DROP/,
    );
    expect(run.stdout).toContain('1 of 2 compared scores dropped by more than 0.005');
  });

  it('exits 0 when nothing dropped beyond the tolerance', () => {
    const run = compare(results('before', 0.7), results('same', 0.696));
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('No drop beyond 0.005 in 2 compared scores.');
  });
});
