/**
 * Grid search over the built-in embedder's feature-family weights on a collection's train split.
 * Features are extracted once per family; every weighting is then a linear combination, so a grid
 * of hundreds of weightings costs seconds, not re-analyses.
 *
 *   npx tsx bench/quality/tune.ts [name ...]      (always the train split)
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_HASH_FEATURES } from '../../src-main/core/embedding/builtin-embedder';
import {
  forEachFeature,
  type Family,
  type HashFeatureOptions,
} from '../../src-main/core/embedding/hash-features';
import { l2Normalise } from '../../src-main/core/embedding/vector-math';
import { analyze } from '../../src-main/core/text/analyzer';
import { Bm25Index } from './bm25';
import { loadCollection } from './collection';
import { meanMetrics, reciprocalRankFusion, scoreRanking } from './metrics';
import { defaultEvalDir, exactTop } from './quick-eval';

const FAMILIES: Family[] = ['word', 'wordBigram', 'charNgram', 'cjkChar', 'cjkBigram'];
const DIMENSIONS = 1024;

function familyVectors(text: string, options: HashFeatureOptions): Float32Array[] {
  const vectors = FAMILIES.map(() => new Float32Array(DIMENSIONS));
  forEachFeature(text, options, (family, bucket, value) => {
    vectors[FAMILIES.indexOf(family)]![bucket % DIMENSIONS] += value;
  });
  return vectors;
}

function combine(parts: Float32Array[], weights: number[]): Float32Array {
  const out = new Float32Array(DIMENSIONS);
  parts.forEach((part, f) => {
    const w = weights[f]!;
    if (w) for (let i = 0; i < DIMENSIONS; i++) out[i] += w * part[i];
  });
  return l2Normalise(out);
}

function main(): void {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      min: { type: 'string', default: '3' },
      max: { type: 'string', default: '5' },
      exponent: { type: 'string', default: '1' },
      'doc-exponent': { type: 'string' },
      segment: { type: 'string', default: 'true' },
      grid: { type: 'string', default: '0,0.25,0.5,1' },
    },
  });
  const options: HashFeatureOptions = {
    weights: { word: 1, wordBigram: 1, charNgram: 1, cjkChar: 1, cjkBigram: 1 },
    charNgramMin: Number(values.min),
    charNgramMax: Number(values.max),
    prior: Number(values.exponent) > 0 ? { scale: 10, exponent: Number(values.exponent) } : null,
    segmentCjk: values.segment !== 'false',
  };
  const grid = values.grid.split(',').map(Number);
  for (const name of positionals.length ? positionals : ['scifact', 'cmrc2018']) {
    const collection = loadCollection(join(defaultEvalDir(), name), 'train');
    const texts = collection.documents.map((doc) => `${doc.title}\n${doc.text}`);
    const bm25 = new Bm25Index(texts.map((text) => analyze(text)));
    const keywordRankings = collection.queries.map((q) =>
      bm25.search(analyze(q.text), 30).map((i) => collection.documents[i]!.id),
    );
    const docExponent = Number(values['doc-exponent'] ?? values.exponent);
    const docOptions: HashFeatureOptions = {
      ...options,
      prior: docExponent > 0 ? { scale: 10, exponent: docExponent } : null,
    };
    const docParts = texts.map((text) => familyVectors(text, docOptions));
    const queryParts = collection.queries.map((q) => familyVectors(q.text, options));
    const results: { weights: number[]; vector: number; hybrid: number }[] = [];
    const isCjk = name.startsWith('cmrc');
    for (const word of [1])
      for (const wordBigram of grid)
        for (const charNgram of isCjk ? [0] : grid)
          for (const cjkChar of isCjk ? grid : [0])
            for (const cjkBigram of isCjk ? grid : [0]) {
              const weights = [word, wordBigram, charNgram, cjkChar, cjkBigram];
              const docs = docParts.map((parts) => combine(parts, weights));
              const vector: number[] = [];
              const hybrid: number[] = [];
              collection.queries.forEach((query, qi) => {
                const relevant = collection.qrels.get(query.id)!;
                const ranking = exactTop(combine(queryParts[qi]!, weights), docs, 30).map(
                  (i) => collection.documents[i]!.id,
                );
                vector.push(scoreRanking(ranking, relevant).ndcg10);
                hybrid.push(
                  scoreRanking(reciprocalRankFusion([ranking, keywordRankings[qi]!]), relevant).ndcg10,
                );
              });
              const mean = (xs: number[]) =>
                meanMetrics(xs.map((ndcg10) => ({ ndcg10, recall10: 0, mrr10: 0 }))).ndcg10;
              results.push({ weights, vector: mean(vector), hybrid: mean(hybrid) });
            }
    const keyword = meanMetrics(
      collection.queries.map((q, qi) => scoreRanking(keywordRankings[qi]!, collection.qrels.get(q.id)!)),
    ).ndcg10;
    console.log(
      `${name} train (segment ${values.segment}, exponent ${values.exponent}, doc ${values['doc-exponent'] ?? 'same'}, n-grams ${values.min}-${values.max}): keyword nDCG@10 ${keyword.toFixed(4)}; defaults ${JSON.stringify(DEFAULT_HASH_FEATURES.weights)}`,
    );
    results.sort((a, b) => b.hybrid - a.hybrid);
    for (const r of results.slice(0, 12))
      console.log(
        `  ${FAMILIES.map((f, i) => `${f}=${r.weights[i]}`).join(' ')}  vector ${r.vector.toFixed(4)}  hybrid ${r.hybrid.toFixed(4)}`,
      );
  }
}

main();
