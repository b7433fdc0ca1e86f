/**
 * Test collections in the BEIR-like layout of ../shared/eval (see its README): corpus.jsonl
 * {id,title,text}, queries.jsonl {id,text}, qrels.tsv query_id<TAB>doc_id<TAB>grade, and an
 * optional train/ split (for tuning; the test queries are never tuned on). Also reads the
 * published reference figures from the README beside the collections.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Judgments } from './metrics';

export interface CorpusRecord {
  id: string;
  title: string;
  text: string;
}

export interface Collection {
  name: string;
  dir: string;
  split: 'test' | 'train';
  corpus: CorpusRecord[];
  /** Only queries that have judgments, in file order. */
  queries: { id: string; text: string }[];
  qrels: Map<string, Judgments>;
}

export interface ReferenceFigure {
  system: string;
  ndcgAt10: number;
  /** The figure cell as written, e.g. "0.679 (R@100 0.925)". */
  figure: string;
  source: string;
}

function parseJsonLines(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line, i) => ({ line: line.trim(), i }))
    .filter(({ line }) => line.length > 0)
    .map(({ line, i }) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw new Error(`${path}:${i + 1}: not JSON (${(error as Error).message})`);
      }
    });
}

function field(record: unknown, name: string, path: string): string {
  const value = (record as Record<string, unknown> | null)?.[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (value === undefined && name === 'title') return '';
  throw new Error(`${path}: a record has no string "${name}": ${JSON.stringify(record).slice(0, 120)}`);
}

export function parseQrels(text: string, path = 'qrels.tsv'): Map<string, Judgments> {
  const qrels = new Map<string, Map<string, number>>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const [queryId, docId, gradeText] = line.split('\t');
    const grade = Number(gradeText);
    if (!queryId || !docId || !Number.isFinite(grade)) {
      // BEIR's files carry a "query-id corpus-id score" header; anything else malformed is an error.
      if (i === 0 && Number.isNaN(grade)) return;
      throw new Error(`${path}:${i + 1}: expected query_id<TAB>doc_id<TAB>grade, got "${line.slice(0, 80)}"`);
    }
    const judgments = qrels.get(queryId) ?? new Map<string, number>();
    judgments.set(docId, grade);
    qrels.set(queryId, judgments);
  });
  return qrels;
}

export function loadCollection(dir: string, split: 'test' | 'train' = 'test'): Collection {
  const splitDir = split === 'train' ? join(dir, 'train') : dir;
  const paths = {
    corpus: join(dir, 'corpus.jsonl'),
    queries: join(splitDir, 'queries.jsonl'),
    qrels: join(splitDir, 'qrels.tsv'),
  };
  for (const path of Object.values(paths))
    if (!existsSync(path))
      throw new Error(`${path} is missing: a collection needs corpus.jsonl, queries.jsonl and qrels.tsv.`);
  const corpus = parseJsonLines(paths.corpus).map((r) => ({
    id: field(r, 'id', paths.corpus),
    title: field(r, 'title', paths.corpus),
    text: field(r, 'text', paths.corpus),
  }));
  const qrels = parseQrels(readFileSync(paths.qrels, 'utf8'), paths.qrels);
  const queries = parseJsonLines(paths.queries)
    .map((r) => ({ id: field(r, 'id', paths.queries), text: field(r, 'text', paths.queries) }))
    .filter((q) => qrels.has(q.id));
  return { name: basename(dir), dir, split, corpus, queries, qrels };
}

/**
 * Rows of the "Reference figures" table (| collection | system | nDCG@10 | source |) in the
 * README beside the collection (or inside it) that name this collection.
 */
export function readReferenceFigures(dir: string): ReferenceFigure[] {
  const name = basename(dir);
  for (const readme of [join(dirname(dir), 'README.md'), join(dir, 'README.md')]) {
    if (!existsSync(readme)) continue;
    const figures = parseReferenceTable(readFileSync(readme, 'utf8'), name);
    if (figures.length > 0) return figures;
  }
  return [];
}

export function parseReferenceTable(markdown: string, collection: string): ReferenceFigure[] {
  const figures: ReferenceFigure[] = [];
  // Columns come from the table's own header row, so other tables naming the collection (e.g.
  // "| scifact | English | 5,183 abstracts |") are not mistaken for figures.
  let columns: { collection: number; system: number; figure: number; source: number } | null = null;
  for (const line of markdown.split('\n')) {
    if (!line.trim().startsWith('|')) {
      columns = null;
      continue;
    }
    const cells = line.split('|').map((c) => c.trim());
    const lower = cells.map((c) => c.toLowerCase());
    if (lower.includes('ndcg@10') && lower.includes('system')) {
      columns = {
        collection: lower.indexOf('collection'),
        system: lower.indexOf('system'),
        figure: lower.indexOf('ndcg@10'),
        source: lower.indexOf('source'),
      };
      continue;
    }
    if (!columns || cells[columns.collection] !== collection) continue;
    const figure = cells[columns.figure] ?? '';
    const value = Number(/\d+(?:\.\d+)?/.exec(figure)?.[0]);
    if (!Number.isFinite(value)) continue;
    figures.push({
      system: cells[columns.system] ?? '',
      ndcgAt10: value,
      figure,
      source: columns.source >= 0 ? (cells[columns.source] ?? '') : '',
    });
  }
  return figures;
}
