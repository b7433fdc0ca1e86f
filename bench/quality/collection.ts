/** Loads a test collection laid out as in ../shared/eval/README.md. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EvalDocument {
  id: string;
  title: string;
  text: string;
}

export interface EvalQuery {
  id: string;
  text: string;
}

/** query id → (document id → grade). */
export type Qrels = Map<string, Map<string, number>>;

export interface Collection {
  name: string;
  documents: EvalDocument[];
  queries: EvalQuery[];
  qrels: Qrels;
}

export type Split = 'test' | 'train';

export function loadCollection(dir: string, split: Split): Collection {
  const splitDir = split === 'train' ? join(dir, 'train') : dir;
  if (!existsSync(join(splitDir, 'queries.jsonl'))) throw new Error(`no ${split} queries in ${dir}`);
  const qrels = readQrels(join(splitDir, 'qrels.tsv'));
  const queries = readJsonl<EvalQuery>(join(splitDir, 'queries.jsonl')).filter((query) =>
    qrels.has(query.id),
  );
  return {
    name: dir.split('/').filter(Boolean).pop() ?? dir,
    documents: readJsonl<EvalDocument>(join(dir, 'corpus.jsonl')),
    queries,
    qrels,
  };
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

function readQrels(path: string): Qrels {
  const qrels: Qrels = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [queryId, docId, grade] = line.trim().split('\t');
    if (!queryId || !docId || grade === undefined) continue;
    const forQuery = qrels.get(queryId) ?? new Map<string, number>();
    forQuery.set(docId, Number(grade));
    qrels.set(queryId, forQuery);
  }
  return qrels;
}
