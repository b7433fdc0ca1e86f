/**
 * `npx tsx bench/vector-cost.ts <data-dir> [--lexical 300,3000] [--queries 40]`: where one vector
 * channel statement spends its time on an index kept by `npm run bench -- --keep`, from EXPLAIN
 * (ANALYZE, BUFFERS) of the statement HybridSearch runs (vector-channel.ts vectorChannelSql, inside index-retrieval.ts's statement):
 * the HNSW walk, the candidates' lookups by primary key (heap and TOAST pages), the distance
 * computations, and, apart, the BM25 scan that returns the lexical candidates. Medians over the
 * queries, each variant interleaved query by query. A diagnostic (docs/decisions/vector-index.md).
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../src-main/core/db/database';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import { readSpaces } from '../src-main/core/index/embedding-spaces';
import { BM25_INDEX } from '../src-main/core/index/keyword-index';
import { keywordScan } from '../src-main/core/search/keyword-scan';
import { configureVectorSession, vectorChannelSql } from '../src-main/core/search/vector-channel';
import { prepareQuery } from '../src-main/core/search/query-text';
import { generateQueries } from './corpus';
import { percentile } from './metrics';
import { machineFacts } from './process-stats';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    lexical: { type: 'string', default: '300,3000' },
    queries: { type: 'string', default: '40' },
    seed: { type: 'string', default: '1' },
  },
});
const [dataDir] = positionals;
if (!dataDir) throw new Error('usage: vector-cost <data-dir> [--lexical 300,3000] [--queries 40]');
const depths = (values.lexical ?? '').split(',').map(Number);

const db = await openDatabase({ dataDir });
const { active } = await readSpaces(db);
if (!active) throw new Error('No active space.');
await configureVectorSession(db);
const prepared = generateQueries(Number(values.queries), Number(values.seed)).map((q) => prepareQuery(q)!);
const { vectors } = await new BuiltinEmbedder(active.dimensions).embed(
  prepared.map((p) => p.text),
  { kind: 'query' },
);

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Total Time': number;
  'Actual Loops': number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}
async function explain(sql: string, params: unknown[]): Promise<{ total: number; nodes: PlanNode[] }> {
  const rows = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
    params,
  );
  const plan = rows.rows[0]!['QUERY PLAN'][0];
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan.Plan);
  return { total: plan['Execution Time'], nodes };
}

const samples = new Map<string, number[]>();
const add = (key: string, value: number) => samples.set(key, [...(samples.get(key) ?? []), value]);
for (let round = 0; round < 2; round++)
  for (const [q, p] of prepared.entries())
    for (const depth of depths) {
      const keywordSql = `SELECT id FROM chunks ORDER BY search_text <@> to_bm25query($1, '${BM25_INDEX}') LIMIT ${depth}`;
      const bm25 = await explain(keywordSql, [p.keywordText]);
      const candidates = (await keywordScan(db, p.keywordText, null, depth)).candidates;
      const params: unknown[] = [];
      const sql = vectorChannelSql(active, vectors[q]!, null, { candidates }, params)!;
      const vector = await explain(sql, params);
      if (round === 0) continue; // the first round warms the caches
      add(`${depth} BM25 scan (LIMIT ${depth})`, bm25.total);
      add(`${depth} vector statement`, vector.total);
      for (const node of vector.nodes) {
        const name = `${depth}   ${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}`;
        add(`${name} ms`, node['Actual Total Time'] * node['Actual Loops']);
        add(`${name} blocks`, (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0));
      }
    }
console.log(`${prepared.length} queries; load ${machineFacts().loadAverage.join(' / ')}; medians (p95)`);
for (const [key, list] of samples)
  console.log(`${key}: ${percentile(list, 50).toFixed(2)} (${percentile(list, 95).toFixed(2)})`);
await db.close();
