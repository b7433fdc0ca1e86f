import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildQuestionSet, mirrorOf, questionProblems, readSource } from './build-real-docs';
import type { QuestionSet } from './question-sets';

const root = mkdtempSync(join(tmpdir(), 'cairn-build-real-docs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}

/** A real repository with two commits: the pinned one and a later one that changes the page. */
function makeRepository(): { dir: string; pinned: string } {
  const dir = join(root, 'docs');
  git(root, 'init', '-q', dir);
  git(dir, 'config', 'user.email', 'eval@example.com');
  git(dir, 'config', 'user.name', 'eval');
  writeFileSync(join(dir, 'partition.md'), '---\ntitle: 分区表\n---\n\n分区表 按 范围 切分数据。\n');
  writeFileSync(join(dir, 'notes.txt'), 'not markdown');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'pinned');
  const pinned = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(join(dir, 'partition.md'), 'changed later');
  git(dir, 'commit', '-qam', 'later');
  return { dir, pinned };
}

describe('build-real-docs', () => {
  const { dir, pinned } = makeRepository();
  const source = {
    name: 'demo',
    repository: 'https://github.com/example/docs',
    commit: pinned,
    licence: 'CC BY 4.0',
    include: (path: string) => path.endsWith('.md'),
  };

  it('reads the included files at the pinned commit, not the working tree', () => {
    expect(readSource(dir, source)).toEqual([
      { path: 'partition.md', text: '---\ntitle: 分区表\n---\n\n分区表 按 范围 切分数据。\n' },
    ]);
    expect(() => readSource(dir, { ...source, commit: 'f'.repeat(40) })).toThrow(/does not hold commit/);
  });

  it('finds a mirror by owner and name', () => {
    expect(mirrorOf('/m', 'https://github.com/pingcap/docs-cn')).toBe('/m/pingcap+docs-cn/repo');
  });

  it('reports every question whose gold page is missing or holds no answer string', () => {
    const textOf = new Map([['demo/partition.md', '分区表 按 范围\n切分数据']]);
    const base = { text: 'q', type: 'concept', split: 'test' as const };
    expect(
      questionProblems(
        [
          { ...base, id: 'ok', gold: ['demo/partition.md'], answers: ['范围切分'] },
          { ...base, id: 'missing', gold: ['demo/none.md'], answers: ['x'] },
          { ...base, id: 'no-answer', gold: ['demo/partition.md'], answers: ['哈希'] },
        ],
        textOf,
      ),
    ).toEqual([
      'missing: gold document(s) not in the corpus: demo/none.md',
      'no-answer: no gold document contains any of ["哈希"]',
    ]);
  });

  it('writes the corpus, both splits and SOURCE.md, and refuses unscorable questions', () => {
    const set: QuestionSet = {
      collection: 'demo',
      file: 'bench/real-docs/questions/demo.ts',
      sources: [source],
      questions: [
        {
          id: 'd1',
          text: '分区表',
          type: 'short-term',
          split: 'test',
          gold: ['demo/partition.md'],
          answers: ['分区表'],
        },
        {
          id: 'd2',
          text: '范围',
          type: 'concept',
          split: 'train',
          gold: ['demo/partition.md'],
          answers: ['范围'],
        },
      ],
    };
    const out = join(root, 'out');
    expect(buildQuestionSet(set, () => dir, out, 'abc123')).toEqual({ documents: 1, questions: 2 });
    expect(JSON.parse(readFileSync(join(out, 'corpus.jsonl'), 'utf8'))).toMatchObject({
      id: 'demo/partition.md',
    });
    expect(readFileSync(join(out, 'qrels.tsv'), 'utf8')).toBe('d1\tdemo/partition.md\t1\n');
    expect(readFileSync(join(out, 'train', 'qrels.tsv'), 'utf8')).toBe('d2\tdemo/partition.md\t1\n');
    expect(readFileSync(join(out, 'SOURCE.md'), 'utf8')).toContain(`${pinned} (CC BY 4.0)`);
    const broken = { ...set, questions: [{ ...set.questions[0]!, answers: ['不存在'] }] };
    expect(() => buildQuestionSet(broken, () => dir, join(root, 'broken'), 'abc123')).toThrow(
      /cannot be scored/,
    );
  });
});
