import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCollection, parseQrels, parseReferenceTable, readReferenceFigures } from './collection';

const root = mkdtempSync(join(tmpdir(), 'cairn-collection-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const README = `# Collections

| name | language | docs |
|---|---|---|
| tiny | English | 3 docs |

## Reference figures (nDCG@10 on the test queries)
| collection | system | nDCG@10 | source |
|---|---|---|---|
| tiny | BM25 flat | 0.679 (R@100 0.925) | a paper |
| other | BM25 | 0.5 | elsewhere |
| tiny | dense model | 0.741 | another |
`;

function writeCollection(): string {
  const dir = join(root, 'tiny');
  mkdirSync(join(dir, 'train'), { recursive: true });
  writeFileSync(join(root, 'README.md'), README);
  writeFileSync(
    join(dir, 'corpus.jsonl'),
    ['{"id":"d1","title":"报销","text":"差旅报销流程"}', '', '{"id":2,"text":"no title here"}'].join('\n'),
  );
  writeFileSync(
    join(dir, 'queries.jsonl'),
    ['{"id":"q1","text":"报销"}', '{"id":"q-unjudged","text":"nothing"}', '{"id":"q2","text":"title"}'].join(
      '\n',
    ),
  );
  writeFileSync(join(dir, 'qrels.tsv'), 'q1\td1\t1\nq2\t2\t2\nq2\td1\t0\n');
  writeFileSync(join(dir, 'train', 'queries.jsonl'), '{"id":"t1","text":"flow"}\n');
  writeFileSync(join(dir, 'train', 'qrels.tsv'), 't1\td1\t1\n');
  return dir;
}

describe('collections', () => {
  it('loads corpus, judged queries and graded qrels, and the train split separately', () => {
    const dir = writeCollection();
    const test = loadCollection(dir);
    expect(test.corpus).toEqual([
      { id: 'd1', title: '报销', text: '差旅报销流程' },
      { id: '2', title: '', text: 'no title here' },
    ]);
    expect(test.queries.map((q) => q.id)).toEqual(['q1', 'q2']);
    expect([...test.qrels.get('q2')!]).toEqual([
      ['2', 2],
      ['d1', 0],
    ]);
    const train = loadCollection(dir, 'train');
    expect([train.split, train.queries, train.corpus.length]).toEqual([
      'train',
      [{ id: 't1', text: 'flow' }],
      2,
    ]);
  });

  it('reads reference figures from the README beside the collection, not from other tables', () => {
    const dir = writeCollection();
    expect(readReferenceFigures(dir)).toEqual([
      { system: 'BM25 flat', ndcgAt10: 0.679, figure: '0.679 (R@100 0.925)', source: 'a paper' },
      { system: 'dense model', ndcgAt10: 0.741, figure: '0.741', source: 'another' },
    ]);
    expect(parseReferenceTable(README, 'missing')).toEqual([]);
  });

  it('rejects malformed qrels and missing files with the path in the message', () => {
    expect(parseQrels('query-id\tcorpus-id\tscore\nq\td\t1\n').get('q')?.get('d')).toBe(1);
    expect(() => parseQrels('q1\td1\t1\nq2 d2 1\n', 'x/qrels.tsv')).toThrow(
      'x/qrels.tsv:2: expected query_id<TAB>doc_id<TAB>grade',
    );
    expect(() => loadCollection(join(root, 'nope'))).toThrow(/corpus\.jsonl is missing/);
    const broken = join(root, 'broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'corpus.jsonl'), '{"id":"a","text":"x"}\n{not json\n');
    writeFileSync(join(broken, 'queries.jsonl'), '');
    writeFileSync(join(broken, 'qrels.tsv'), '');
    expect(() => loadCollection(broken)).toThrow(/corpus\.jsonl:2: not JSON/);
  });
});
