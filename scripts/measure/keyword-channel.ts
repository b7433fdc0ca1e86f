/**
 * Compares the two keyword-channel candidates on retrieval quality and latency:
 *   bm25   pg_textsearch: ORDER BY search_text <@> to_bm25query(q, 'chunks_search_bm25')
 *   tsrank tsvector('simple') + GIN, OR-query, ORDER BY ts_rank_cd
 * over the chunks of each collection in /work/shared/eval (doc = its best chunk), with two
 * analyzers: Cairn's current `toSearchText`, and a stand-in (Intl.Segmenter words + Porter stem).
 * Run: npx tsx scripts/measure/keyword-channel.ts [collection…] (default: cmrc2018 scifact)
 * Results feed docs/decisions/keyword-channel.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stemmer } from 'stemmer';
import { openDatabase, type Db } from '../../src-main/core/db/database';
import { chunkMarkdown } from '../../src-main/core/chunking/chunker';
import { toSearchText } from '../../src-main/core/text/analyzer';

const EVAL_DIR = process.env.CAIRN_EVAL_DIR ?? '/work/shared/eval';
const collections = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['cmrc2018', 'scifact'];

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
function standIn(text: string): string {
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (!s.isWordLike) continue;
    out.push(/^[a-z]+$/.test(s.segment) ? stemmer(s.segment) : s.segment);
  }
  return out.join(' ');
}
const analyzers: Record<string, (text: string) => string> = {
  placeholder: toSearchText,
  'segmenter+stem': standIn,
};

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function ndcgAt10(ranked: string[], relevant: Map<string, number>): number {
  let dcg = 0;
  ranked.slice(0, 10).forEach((doc, i) => (dcg += (relevant.get(doc) ?? 0) / Math.log2(i + 2)));
  const ideal = [...relevant.values()].sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** A tsquery that ORs every token; each token quoted so no user text is parsed as operators. */
function orQuery(searchText: string): string {
  return [...new Set(searchText.split(' ').filter(Boolean))]
    .map((t) => `'${t.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`)
    .join(' | ');
}

async function load(db: Db, dir: string, analyze: (t: string) => string): Promise<number> {
  await db.exec(
    "TRUNCATE documents, chunks CASCADE; INSERT INTO connections (id, platform, name, mode) VALUES ('eval', 'folder', 'eval', 'rag') ON CONFLICT DO NOTHING",
  );
  const corpus = readJsonl<{ id: string; title: string; text: string }>(join(dir, 'corpus.jsonl'));
  let chunkCount = 0;
  for (let i = 0; i < corpus.length; i += 200) {
    const batch = corpus.slice(i, i + 200);
    await db.transaction(async (tx) => {
      for (const doc of batch) {
        const markdown = doc.text;
        const chunks = chunkMarkdown(markdown);
        const id = (
          await tx.query<{ id: number }>(
            "INSERT INTO documents (connection_id, external_id, title, content_hash, content, chunk_count) VALUES ('eval', $1, $2, '', '', $3) RETURNING id",
            [doc.id, doc.title, chunks.length],
          )
        ).rows[0]!.id;
        await tx.query(
          `INSERT INTO chunks (document_id, connection_id, ord, content, char_start, char_end, search_text)
           SELECT $1, 'eval', u.ord, u.content, 0, 0, u.st FROM unnest($2::int[], $3::text[], $4::text[]) AS u(ord, content, st)`,
          [
            id,
            chunks.map((c) => c.ord),
            chunks.map((c) => c.text),
            chunks.map((c) => analyze(`${doc.title}\n${c.text}`)),
          ],
        );
        chunkCount += chunks.length;
      }
    });
  }
  await db.exec('ANALYZE chunks');
  return chunkCount;
}

async function evaluate(
  db: Db,
  dir: string,
  analyze: (t: string) => string,
  method: 'bm25' | 'tsrank',
): Promise<{ ndcg10: number; recall10: number; p50ms: number }> {
  const queries = readJsonl<{ id: string; text: string }>(join(dir, 'queries.jsonl'));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, 'qrels.tsv'), 'utf8').split('\n')) {
    const [q, d, g] = line.split('\t');
    if (!q || !d) continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, Number(g));
  }
  let ndcg = 0;
  let recall = 0;
  let n = 0;
  const times: number[] = [];
  for (const query of queries) {
    const relevant = qrels.get(query.id);
    if (!relevant) continue;
    const q = analyze(query.text);
    const started = performance.now();
    const rows = q.trim()
      ? method === 'bm25'
        ? await db.query<{ external_id: string }>(
            `SELECT d.external_id FROM (SELECT id, document_id, search_text <@> to_bm25query($1, 'chunks_search_bm25') AS score FROM chunks ORDER BY score LIMIT 30) c
             JOIN documents d ON d.id = c.document_id WHERE c.score < 0 ORDER BY c.score`,
            [q],
          )
        : await db.query<{ external_id: string }>(
            `SELECT d.external_id FROM (SELECT id, document_id, ts_rank_cd(search_tsv, query) AS score FROM chunks, to_tsquery('simple', $1) query
             WHERE search_tsv @@ query ORDER BY score DESC LIMIT 30) c JOIN documents d ON d.id = c.document_id ORDER BY c.score DESC`,
            [orQuery(q)],
          )
      : { rows: [] };
    times.push(performance.now() - started);
    const ranked = [...new Set(rows.rows.map((r) => r.external_id))];
    ndcg += ndcgAt10(ranked, relevant);
    const top10 = new Set(ranked.slice(0, 10));
    recall += [...relevant.keys()].filter((d) => top10.has(d)).length / relevant.size;
    n += 1;
  }
  return { ndcg10: ndcg / n, recall10: recall / n, p50ms: median(times) };
}

async function main(): Promise<void> {
  const db = await openDatabase();
  await db.exec(
    "ALTER TABLE chunks ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED; CREATE INDEX chunks_tsv_gin ON chunks USING gin (search_tsv)",
  );
  const results: Record<string, unknown>[] = [];
  for (const name of collections) {
    for (const [analyzerName, analyze] of Object.entries(analyzers)) {
      const chunks = await load(db, join(EVAL_DIR, name), analyze);
      for (const method of ['bm25', 'tsrank'] as const) {
        const r = await evaluate(db, join(EVAL_DIR, name), analyze, method);
        const row = {
          collection: name,
          chunks,
          analyzer: analyzerName,
          method,
          ndcg10: r.ndcg10.toFixed(3),
          recall10: r.recall10.toFixed(3),
          p50ms: r.p50ms.toFixed(1),
        };
        results.push(row);
        console.log(JSON.stringify(row));
      }
    }
  }
  await db.close();
}

await main();
