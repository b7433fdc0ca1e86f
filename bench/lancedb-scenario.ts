/**
 * Child-process side of the LanceDB peer scenario (`bench-worker.ts lancedb`): the chunks of an
 * index Cairn has just built (same ids, texts, analysed keyword texts) and the vectors its sync
 * wrote go into a LanceDB table; LanceDB then builds its own vector index (IVF_PQ with the
 * documented defaults, cosine) and full-text indexes (defaults), and answers the same generated
 * queries with the same query vectors. Recall is measured against the same exact scan as Cairn's.
 * @lancedb/lancedb is a devDependency with per-platform native builds, loaded only here.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import { openDatabase } from '../src-main/core/db/database';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import { CHANNEL_DEPTH } from '../src-main/core/search/channel-scope';
import { prepareQuery } from '../src-main/core/search/query-text';
import { generateQueries } from './corpus';
import { recallAgainstExact } from './exact-search';
import { mean, summarizeLatencies, type LatencySummary } from './metrics';
import { directorySize, peakRssMb } from './process-stats';
import { loadStoredVectors } from './stored-vectors';
import { readSpaces } from '../src-main/core/index/embedding-spaces';

import type { VectorQuery } from '@lancedb/lancedb';

type Lance = typeof import('@lancedb/lancedb');
type Arrow = typeof import('apache-arrow');

/** One way of querying the same table's vectors. */
export interface LanceVectorVariant {
  name: string;
  latency: LatencySummary;
  recallAt10: number;
}

export interface LanceDbScenarioResult {
  version: string;
  rows: number;
  dimensions: number;
  queries: number;
  build: { addMs: number; vectorIndexMs: number; keywordIndexMs: number; totalMs: number };
  /** The raw-text full-text index (LanceDB's default tokenizer on the chunk text), built after the total. */
  rawTextIndexMs: number;
  vectorIndex: string;
  /** [0] is the default IVF_PQ query, the one compared; the others show what the knobs buy. */
  vector: LanceVectorVariant[];
  /** Same analysed keyword text as Cairn's BM25 channel (CJK segmented by Cairn), top 30. */
  keyword: LatencySummary & { queriesWithHits: number };
  /** The same, top `lexicalCandidates`: the list Cairn's keyword statement also returns. */
  keywordCandidates: LatencySummary & { limit: number };
  /** LanceDB's default tokenizer on the raw chunk text, queried with the raw query. */
  keywordRawText: LatencySummary & { queriesWithHits: number };
  diskMb: number;
  peakRssMb: number;
}

const WARMUP_QUERIES = 10;
/** LanceDB's documented default nprobes is 20; refineFactor re-ranks limit × factor rows exactly. */
const REFINE_FACTOR = 5;
/** The flat scan reads every vector per query (~0.6 s at 10k here): measured on the first queries only. */
const FLAT_QUERIES = 30;

export async function runLanceDbScenario(options: {
  cairnDataDir: string;
  lanceDir: string;
  queries: number;
  seed: number;
}): Promise<LanceDbScenarioResult> {
  const lancedb = (await import('@lancedb/lancedb')) as Lance;
  // LanceDB checks `instanceof Table` against the CommonJS build it requires itself.
  const arrow = createRequire(import.meta.url)('apache-arrow') as Arrow;
  const embedder = new BuiltinEmbedder();
  const dimensions = embedder.space.dimensions;

  const db = await openDatabase({ dataDir: options.cairnDataDir });
  const { active } = await readSpaces(db);
  if (!active) throw new Error('The peer scenario needs an index with vectors (a semantic space).');
  const exact = await loadStoredVectors(db, active);
  const texts = (
    await db.query<{ content: string; search_text: string }>(
      'SELECT content, search_text FROM chunks ORDER BY id',
    )
  ).rows;
  await db.close();
  if (texts.length !== exact.size) throw new Error('Chunks changed while the peer scenario read them.');

  const table = arrowTable(arrow, exact.ids, texts, exact.matrix, dimensions);
  rmSync(options.lanceDir, { recursive: true, force: true });
  const connection = await lancedb.connect(options.lanceDir);
  let started = performance.now();
  const lance = await connection.createTable('chunks', table);
  const addMs = performance.now() - started;
  started = performance.now();
  await lance.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine' }) });
  const vectorIndexMs = performance.now() - started;
  started = performance.now();
  await lance.createIndex('search_text', { config: lancedb.Index.fts() });
  const keywordIndexMs = performance.now() - started;
  started = performance.now();
  await lance.createIndex('content', { config: lancedb.Index.fts() });
  const rawTextIndexMs = performance.now() - started;
  log(
    `${exact.size} rows: add ${ms(addMs)}, IVF_PQ ${ms(vectorIndexMs)}, FTS ${ms(keywordIndexMs)} (+ raw text ${ms(rawTextIndexMs)})`,
  );

  const prepared = generateQueries(options.queries, options.seed).map((q) => prepareQuery(q)!);
  const warmup = generateQueries(WARMUP_QUERIES, options.seed + 1).map((q) => prepareQuery(q)!);
  const { vectors } = await embedder.embed(
    [...prepared, ...warmup].map((p) => p.text),
    { kind: 'query' },
  );

  type Search = ((i: number, vector: Float32Array) => Promise<Record<string, unknown>[]>) & {
    queries?: number;
  };
  const vectorSearch =
    (tune: (query: VectorQuery) => VectorQuery): Search =>
    (_i, vector) =>
      tune(lance.vectorSearch(vector).distanceType('cosine').limit(CHANNEL_DEPTH))
        .select(['id', '_distance'])
        .toArray();
  const variants: [string, Search][] = [
    ['IVF_PQ, defaults (nprobes 20)', vectorSearch((q) => q)],
    [`IVF_PQ, refineFactor ${REFINE_FACTOR}`, vectorSearch((q) => q.refineFactor(REFINE_FACTOR))],
    [
      `no index (flat scan), first ${Math.min(FLAT_QUERIES, prepared.length)} queries`,
      Object.assign(
        vectorSearch((q) => q.bypassVectorIndex()),
        { queries: FLAT_QUERIES },
      ),
    ],
  ];
  const fullText =
    (column: 'search_text' | 'content', text: (i: number) => string, limit = CHANNEL_DEPTH): Search =>
    (i) =>
      lance
        .query()
        .fullTextSearch(text(i), { columns: column })
        .limit(limit)
        .select(['id', '_score'])
        .toArray();
  const all = [...prepared, ...warmup];
  const keywordSearch = fullText('search_text', (i) => all[i]!.keywordText);
  const rawSearch = fullText('content', (i) => all[i]!.text);
  // The BM25 candidates the built-in embedder's vector channel re-scored at 100k chunks before it
  // was removed (issue #26): the list Cairn's keyword statement returned then.
  const lexicalCandidates = 3_000;
  const candidateSearch = fullText('search_text', (i) => all[i]!.keywordText, lexicalCandidates);

  /** Warm-up queries first (not measured), then the measured ones; ids per measured query. */
  async function measure(search: Search): Promise<{ times: number[]; ids: number[][] }> {
    for (let i = prepared.length; i < all.length; i++) await search(i, vectors[i]!);
    const times: number[] = [];
    const ids: number[][] = [];
    for (let i = 0; i < Math.min(prepared.length, search.queries ?? Infinity); i++) {
      const at = performance.now();
      const rows = await search(i, vectors[i]!);
      times.push(performance.now() - at);
      ids.push(rows.map((r) => Number(r.id)));
    }
    return { times, ids };
  }

  const vector: LanceVectorVariant[] = [];
  for (const [name, search] of variants) {
    const { times, ids } = await measure(search);
    const recalls = ids.map((found, q) =>
      recallAgainstExact(found, exact.topK(vectors[q]!, 10), 10, (id) => exact.scoreOf(id, vectors[q]!)),
    );
    vector.push({ name, latency: summarizeLatencies(times), recallAt10: mean(recalls) });
    log(`${name}: p50 ${ms(vector.at(-1)!.latency.p50)}, recall@10 ${mean(recalls).toFixed(3)}`);
  }
  const keywordRun = await measure(keywordSearch);
  const rawRun = await measure(rawSearch);
  const candidateRun = await measure(candidateSearch);
  const withHits = (ids: number[][]) => ids.filter((found) => found.length > 0).length;
  const result: LanceDbScenarioResult = {
    version: lanceVersion(),
    rows: exact.size,
    dimensions,
    queries: prepared.length,
    build: { addMs, vectorIndexMs, keywordIndexMs, totalMs: addMs + vectorIndexMs + keywordIndexMs },
    rawTextIndexMs,
    vectorIndex: 'IVF_PQ (cosine; partitions √rows, dimensions/16 sub-vectors, 8 bits: the defaults)',
    vector,
    keyword: { ...summarizeLatencies(keywordRun.times), queriesWithHits: withHits(keywordRun.ids) },
    keywordCandidates: { ...summarizeLatencies(candidateRun.times), limit: lexicalCandidates },
    keywordRawText: { ...summarizeLatencies(rawRun.times), queriesWithHits: withHits(rawRun.ids) },
    diskMb: directorySize(options.lanceDir) / 2 ** 20,
    peakRssMb: peakRssMb(),
  };
  log(
    `FTS p50 ${ms(result.keyword.p50)} (${result.keyword.queriesWithHits}/${prepared.length} with hits), raw text p50 ${ms(result.keywordRawText.p50)} (${result.keywordRawText.queriesWithHits} with hits); ${result.diskMb.toFixed(1)} MB on disk`,
  );
  return result;
}

/** id, content, search_text, vector (fixed-size list of float32) as one Arrow record batch. */
function arrowTable(
  arrow: Arrow,
  ids: Int32Array | number[],
  texts: { content: string; search_text: string }[],
  matrix: Float32Array,
  dimensions: number,
) {
  const rows = ids.length;
  const vectorType = new arrow.FixedSizeList(dimensions, new arrow.Field('item', new arrow.Float32(), true));
  const schema = new arrow.Schema([
    new arrow.Field('id', new arrow.Int32(), false),
    new arrow.Field('content', new arrow.Utf8(), false),
    new arrow.Field('search_text', new arrow.Utf8(), false),
    new arrow.Field('vector', vectorType, false),
  ]);
  const utf8 = (values: string[]) => arrow.vectorFromArray(values, new arrow.Utf8()).data[0]!;
  const data = arrow.makeData({
    type: new arrow.Struct(schema.fields),
    length: rows,
    nullCount: 0,
    children: [
      arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from(ids) }),
      utf8(texts.map((t) => t.content)),
      utf8(texts.map((t) => t.search_text)),
      arrow.makeData({
        type: vectorType,
        length: rows,
        nullCount: 0,
        child: arrow.makeData({ type: new arrow.Float32(), data: matrix }),
      }),
    ],
  });
  return new arrow.Table(schema, [new arrow.RecordBatch(schema, data)]);
}

function lanceVersion(): string {
  // The package's exports map hides package.json: read it beside the resolved entry (dist/index.js).
  const entry = createRequire(import.meta.url).resolve('@lancedb/lancedb');
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string })
    .version;
}

function ms(value: number): string {
  return `${value.toFixed(value < 10 ? 1 : 0)} ms`;
}

function log(message: string): void {
  process.stderr.write(`  [lancedb] ${message}\n`);
}
