/**
 * Quick retrieval-quality check of the analyzer and the built-in embedder, in plain JS (no store):
 * BM25 (k1 0.9, b 0.4) over analyze(title + text), exact cosine over BuiltinEmbedder vectors, and
 * RRF (k=60, top-30 of each). One vector per document (no chunking), so numbers isolate the text
 * features from the pipeline; `npm run eval` measures the real pipeline.
 *
 *   npx tsx bench/quality/quick-eval.ts [--split test|train] [--json] [name-or-dir ...]
 *
 * Defaults to scifact and cmrc2018 from the shared eval folder (CAIRN_EVAL_DIR, or ../shared/eval
 * next to the checkout). Tune on --split train; report --split test.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BuiltinEmbedder } from '../../src-main/core/embedding/builtin-embedder';
import { dot } from '../../src-main/core/embedding/vector-math';
import { analyze } from '../../src-main/core/text/analyzer';
import { Bm25Index } from './bm25';
import { loadCollection, type Collection, type Split } from './collection';
import { meanMetrics, reciprocalRankFusion, scoreRanking, type Metrics } from './metrics';

const CANDIDATES = 30;
/** Published or measured-on-this-copy BM25 nDCG@10 (../shared/eval/README.md). */
const REFERENCE_BM25: Record<string, number> = { scifact: 0.676, cmrc2018: 0.987 };

interface ChannelResult {
  collection: string;
  split: Split;
  queries: number;
  keyword: Metrics;
  vector: Metrics;
  hybrid: Metrics;
  referenceBm25: number | null;
  embedDocsPerSecond: number;
  avgDocChars: number;
  seconds: number;
}

export function evaluate(
  collection: Collection,
  split: Split,
  embedder = new BuiltinEmbedder(),
): ChannelResult {
  const started = performance.now();
  const docTexts = collection.documents.map((doc) => `${doc.title}\n${doc.text}`);
  const bm25 = new Bm25Index(docTexts.map((text) => analyze(text)));
  const embedStart = performance.now();
  const docVectors = docTexts.map((text) => embedder.embedOne(text));
  const embedSeconds = (performance.now() - embedStart) / 1000;
  const scores: Record<'keyword' | 'vector' | 'hybrid', Metrics[]> = { keyword: [], vector: [], hybrid: [] };
  for (const query of collection.queries) {
    const relevant = collection.qrels.get(query.id)!;
    const keyword = bm25.search(analyze(query.text), CANDIDATES).map((i) => collection.documents[i]!.id);
    const vector = exactTop(embedder.embedOne(query.text), docVectors, CANDIDATES).map(
      (i) => collection.documents[i]!.id,
    );
    scores.keyword.push(scoreRanking(keyword, relevant));
    scores.vector.push(scoreRanking(vector, relevant));
    scores.hybrid.push(scoreRanking(reciprocalRankFusion([vector, keyword]), relevant));
  }
  return {
    collection: collection.name,
    split,
    queries: collection.queries.length,
    keyword: meanMetrics(scores.keyword),
    vector: meanMetrics(scores.vector),
    hybrid: meanMetrics(scores.hybrid),
    referenceBm25: REFERENCE_BM25[collection.name] ?? null,
    embedDocsPerSecond: collection.documents.length / embedSeconds,
    avgDocChars: docTexts.reduce((sum, text) => sum + text.length, 0) / docTexts.length,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Brute-force cosine top-k (vectors are unit length, so cosine = dot product). */
export function exactTop(query: Float32Array, vectors: Float32Array[], k: number): number[] {
  const scored = vectors.map((vector, index) => ({ index, score: dot(query, vector) }));
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, k).map((entry) => entry.index);
}

export function defaultEvalDir(): string {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const candidates = [
    process.env.CAIRN_EVAL_DIR,
    join(repo, '../shared/eval'),
    join(repo, '../../shared/eval'),
  ];
  const found = candidates.find((dir): dir is string => !!dir && existsSync(dir));
  if (!found)
    throw new Error(
      'eval collections not found: set CAIRN_EVAL_DIR to the folder holding scifact/ and cmrc2018/',
    );
  return found;
}

function formatTable(results: ChannelResult[]): string {
  const f = (n: number) => n.toFixed(3);
  const lines = [
    '| collection | split | queries | channel | nDCG@10 | R@10 | MRR@10 | ref BM25 nDCG@10 |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    for (const channel of ['keyword', 'vector', 'hybrid'] as const) {
      const m = r[channel];
      const ref = channel === 'keyword' && r.referenceBm25 !== null ? f(r.referenceBm25) : '';
      lines.push(
        `| ${r.collection} | ${r.split} | ${r.queries} | ${channel} | ${f(m.ndcg10)} | ${f(m.recall10)} | ${f(m.mrr10)} | ${ref} |`,
      );
    }
  }
  lines.push('');
  for (const r of results) {
    lines.push(
      `${r.collection}: built-in embedder ${r.embedDocsPerSecond.toFixed(0)} docs/s at ${r.avgDocChars.toFixed(0)} chars/doc, cold (first use loads the prior); ${r.seconds.toFixed(1)} s total. Chunk speed: embed-speed.ts`,
    );
  }
  return lines.join('\n');
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { split: { type: 'string', default: 'test' }, json: { type: 'boolean', default: false } },
  });
  const split = values.split === 'train' ? 'train' : 'test';
  const evalDir = positionals.every((p) => p.includes('/')) && positionals.length > 0 ? '' : defaultEvalDir();
  const names = positionals.length > 0 ? positionals : ['scifact', 'cmrc2018'];
  const results = names.map((name) =>
    evaluate(loadCollection(name.includes('/') ? name : join(evalDir, name), split), split),
  );
  console.log(values.json ? JSON.stringify(results, null, 2) : formatTable(results));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
