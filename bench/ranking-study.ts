/**
 * Ranking study: `npx tsx bench/ranking-study.ts [--split train|test] [--json out.json] <dir> …`.
 * Indexes each corpus once (keyword only: the app's default, no vectors) and scores a list of
 * ranking variants (RankingRules) on one split through the app's own search and its keyword
 * channel, the reads of one query shared between variants (rule-ablation.ts memoizedReads). The
 * variants are the candidates of document ranking (core/search/document-ranking.ts): weights are
 * chosen on train splits with it; the test splits are only scored by `npm run eval`.
 *
 * Scores per collection: nDCG@10 and P@1 of the app's search ("search") and of the keyword channel
 * alone ("keyword"), as eval.ts computes them (a document at its best chunk); on real-documents
 * sets all questions, and P@1 / success@5 of all but the paraphrases.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { FolderConnector } from '../src-main/core/connectors/folder/folder-connector';
import type { DocumentRankingWeights } from '../src-main/core/search/document-ranking';
import { retrieveFromIndex } from '../src-main/core/search/index-retrieval';
import { prepareQuery } from '../src-main/core/search/query-text';
import { ALL_RULES, type RankingRules } from '../src-main/core/search/ranking-rules';
import { loadCollection, type Collection } from './collection';
import { collectionDocuments } from './evaluate-collection';
import { MemoryConnector } from './memory-connector';
import { dedupe, mean, ndcgAt, precisionAt1, type Judgments } from './metrics';
import { CONNECTION_ID, hybridSearchFor, openPipeline } from './pipeline';
import { isRealDocsCollection, readAnswers } from './real-docs/evaluate-real-docs';
import { markdownTable, num } from './report';
import { memoizedReads, type RuleVariant } from './rule-ablation';

/** Fused chunks kept for a public collection's search (eval's HYBRID_DEPTH). */
const HYBRID_DEPTH = 50;

function documentVariant(weights: DocumentRankingWeights, extra: Partial<RankingRules> = {}): RuleVariant {
  return {
    name: `documents title ${weights.title} headings ${weights.headings} more ${weights.more}${
      Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : ''
    }`,
    rules: { ...ALL_RULES, ...extra, documentRanking: weights },
  };
}

/** The candidates: chunks as today, then document ranking over a grid of field weights. */
export function studyVariants(): RuleVariant[] {
  const variants: RuleVariant[] = [
    { name: 'chunks (app today)', rules: { ...ALL_RULES, documentRanking: false } },
  ];
  for (const title of [0, 0.5, 1, 2])
    for (const headings of [0, 0.5, 1])
      for (const more of [0, 0.25, 0.5]) variants.push(documentVariant({ title, headings, more }));
  for (const title of [0.5, 1])
    for (const headings of [0, 0.5])
      variants.push(documentVariant({ title, headings, more: 0.25 }, { headingBonus: false }));
  return variants;
}

interface QueryCase {
  text: string;
  judgments: Judgments;
  /** Real-documents question type ('paraphrase' is left out of the P@1 / success@5 of the rest). */
  type?: string;
}

interface VariantResult {
  variant: string;
  search: { ndcgAt10: number; pAt1: number };
  keyword: { ndcgAt10: number; pAt1: number };
  /** Real-documents sets: the app's search on all questions but the paraphrases. */
  nonParaphrase?: { pAt1: number; successAt5: number };
}

interface SetResult {
  collection: string;
  split: 'train' | 'test';
  queries: number;
  variants: VariantResult[];
}

async function studySets(
  sets: readonly Collection[],
  realDocs: boolean,
  variants: readonly RuleVariant[],
  log: (line: string) => void,
): Promise<SetResult[]> {
  const pipeline = await openPipeline({ embedder: null });
  const root = mkdtempSync(join(tmpdir(), 'cairn-ranking-study-'));
  try {
    const corpus = sets[0]!.corpus;
    const connector = realDocs
      ? (() => {
          for (const record of corpus) {
            const path = join(root, record.id);
            mkdirSync(dirname(path), { recursive: true });
            writeFileSync(path, record.text);
          }
          return new FolderConnector({ root });
        })()
      : (() => {
          const memory = new MemoryConnector();
          for (const document of collectionDocuments(sets[0]!.name, corpus)) memory.put(document);
          return memory;
        })();
    const started = performance.now();
    const run = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
    if (run.status !== 'succeeded') throw new Error(`Indexing ${sets[0]!.name} ${run.status}`);
    log(
      `${sets.map((s) => s.name).join(' + ')}: indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const documentOf = new Map(
      (
        await pipeline.db.query<{ id: string | number; external_id: string }>(
          'SELECT c.id, d.external_id FROM chunks c JOIN documents d ON d.id = c.document_id',
        )
      ).rows.map((r) => [Number(r.id), r.external_id]),
    );
    const documentsOf = (ids: readonly number[]) => dedupe(ids.map((id) => documentOf.get(id) ?? `?${id}`));
    const reads = memoizedReads(pipeline.db);
    const searches = variants.map((v) => hybridSearchFor(reads.db, null, v.rules));
    const results: SetResult[] = [];
    for (const set of sets) {
      const answers = realDocs ? readAnswers(set.split === 'train' ? join(set.dir, 'train') : set.dir) : null;
      const cases: QueryCase[] = set.queries.map((q) => ({
        text: q.text,
        judgments: set.qrels.get(q.id)!,
        ...(answers ? { type: answers.get(q.id)?.type ?? 'unknown' } : {}),
      }));
      type Row = { search: string[]; keyword: string[] };
      const ranked: Row[][] = variants.map(() => []);
      const setStarted = performance.now();
      for (const [q, query] of cases.entries()) {
        reads.clear();
        for (const [v, variant] of variants.entries()) {
          const prepared = prepareQuery(query.text, variant.rules);
          const found = prepared
            ? await retrieveFromIndex(reads.db, { query: prepared, scope: null, vector: null }, variant.rules)
            : null;
          const response = await searches[v]!.search({ query: query.text, k: realDocs ? 10 : HYBRID_DEPTH });
          const search = realDocs
            ? response.documents.map((d) => d.best.externalId)
            : documentsOf(response.hits.map((hit) => Number(hit.key.slice('chunk:'.length))));
          ranked[v]!.push({ search, keyword: documentsOf(found?.keyword ?? []) });
        }
        if ((q + 1) % 200 === 0) log(`${set.name} (${set.split}): ${q + 1}/${cases.length}`);
      }
      log(
        `${set.name} (${set.split}): ${cases.length} queries in ${((performance.now() - setStarted) / 1000).toFixed(1)} s`,
      );
      results.push({
        collection: set.name,
        split: set.split,
        queries: cases.length,
        variants: variants.map((variant, v) => {
          const rows = ranked[v]!;
          const pair = (pick: (row: Row) => string[]) => ({
            ndcgAt10: mean(rows.map((row, i) => ndcgAt(pick(row), cases[i]!.judgments, 10))),
            pAt1: mean(rows.map((row, i) => precisionAt1(pick(row), cases[i]!.judgments))),
          });
          const result: VariantResult = {
            variant: variant.name,
            search: pair((r) => r.search),
            keyword: pair((r) => r.keyword),
          };
          if (realDocs) {
            const kept = rows.flatMap((row, i) =>
              cases[i]!.type === 'paraphrase' ? [] : [{ row, query: cases[i]! }],
            );
            const rank = (e: (typeof kept)[number]) =>
              e.row.search.findIndex((id) => e.query.judgments.has(id));
            result.nonParaphrase = {
              pAt1: mean(kept.map((e) => (rank(e) === 0 ? 1 : 0))),
              successAt5: mean(kept.map((e) => (rank(e) >= 0 && rank(e) < 5 ? 1 : 0))),
            };
          }
          return result;
        }),
      });
    }
    return results;
  } finally {
    await pipeline.db.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function corpusKey(dir: string): string {
  return createHash('sha1')
    .update(readFileSync(join(dir, 'corpus.jsonl')))
    .digest('hex');
}

export function studyTable(results: readonly SetResult[]): string {
  const rows: (string | number)[][] = [];
  for (const set of results) {
    const base = set.variants[0]!;
    for (const v of set.variants) {
      const d = (value: number, before: number) =>
        v === base
          ? num(value, 3)
          : `${num(value, 3)} (${value - before >= 0 ? '+' : ''}${(value - before).toFixed(3)})`;
      rows.push([
        `${set.collection} (${set.split})`,
        v.variant,
        d(v.search.ndcgAt10, base.search.ndcgAt10),
        d(v.search.pAt1, base.search.pAt1),
        d(v.keyword.ndcgAt10, base.keyword.ndcgAt10),
        d(v.keyword.pAt1, base.keyword.pAt1),
        v.nonParaphrase ? `${num(v.nonParaphrase.pAt1, 2)} / ${num(v.nonParaphrase.successAt5, 2)}` : '',
      ]);
    }
  }
  return markdownTable(
    [
      'collection',
      'variant',
      'search nDCG@10',
      'search P@1',
      'keyword nDCG@10',
      'keyword P@1',
      'non-paraphrase P@1 / s@5',
    ],
    rows,
  );
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { split: { type: 'string', default: 'train' }, json: { type: 'string' } },
  });
  const split = values.split === 'test' ? 'test' : 'train';
  const log = (line: string) => console.error(`  ${line}`);
  const variants = studyVariants();
  const results: SetResult[] = [];
  const groups = new Map<string, string[]>();
  for (const dir of positionals) groups.set(corpusKey(dir), [...(groups.get(corpusKey(dir)) ?? []), dir]);
  for (const dirs of groups.values()) {
    const sets = dirs.map((dir) => loadCollection(dir, split)).filter((c) => c.queries.length > 0);
    if (sets.length === 0) continue;
    results.push(...(await studySets(sets, isRealDocsCollection(dirs[0]!), variants, log)));
    if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 1));
  }
  console.log(studyTable(results));
}

void main();
