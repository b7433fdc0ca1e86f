import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildQbqtc } from './build-qbqtc';

const root = mkdtempSync(join(tmpdir(), 'cairn-qbqtc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}

const lines = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('buildQbqtc', () => {
  it('turns query-title judgments into a retrieval collection with a test and a train split', () => {
    const repo = join(root, 'repo');
    git(root, 'init', '-q', repo);
    git(repo, 'config', 'user.email', 'eval@example.com');
    git(repo, 'config', 'user.name', 'eval');
    mkdirSync(join(repo, 'dataset'));
    writeFileSync(
      join(repo, 'dataset', 'test_public.json'),
      lines([
        { id: 0, query: '盐城天气', title: '盐城天气预报一周', label: '2' },
        { id: 1, query: '盐城天气', title: '盐城旅游攻略', label: '0' },
        { id: 2, query: '无关查询', title: '某个标题', label: '0' },
      ]),
    );
    writeFileSync(
      join(repo, 'dataset', 'dev.json'),
      lines([
        { id: 0, query: '墨鱼的做法', title: '墨鱼的做法百度知道', label: '1' },
        { id: 1, query: '盐城天气', title: '盐城天气预报一周', label: '1' },
      ]),
    );
    writeFileSync(join(repo, 'dataset', 'test.json'), lines([{ id: 0, query: 'x', title: '未标注的标题' }]));
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'data');
    const commit = git(repo, 'rev-parse', 'HEAD');
    const out = join(root, 'out');
    expect(buildQbqtc(repo, out, commit)).toEqual({ documents: 5, test: 1, train: 1 });
    const corpus = readFileSync(join(out, 'corpus.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; title: string });
    const idOf = new Map(corpus.map((r) => [r.title, r.id]));
    expect(readFileSync(join(out, 'queries.jsonl'), 'utf8')).toBe('{"id":"q1","text":"盐城天气"}\n');
    expect(readFileSync(join(out, 'qrels.tsv'), 'utf8')).toBe(
      `q1\t${idOf.get('盐城天气预报一周')}\t2\nq1\t${idOf.get('盐城旅游攻略')}\t0\n`,
    );
    // dev.json's 盐城天气 is a test query, so only 墨鱼的做法 trains.
    expect(readFileSync(join(out, 'train', 'queries.jsonl'), 'utf8')).toBe(
      '{"id":"tq1","text":"墨鱼的做法"}\n',
    );
    expect(readFileSync(join(out, 'SOURCE.md'), 'utf8')).toContain(commit);
  });
});
