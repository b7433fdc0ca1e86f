/**
 * Retrieval quality of the real pipeline on one collection: every record becomes a Markdown
 * document "# title\n\ntext" served by an in-memory connector, indexed by the SyncEngine
 * (chunker → built-in embedder → PgDocumentStore, in-memory PGlite), then every judged query runs
 * through the app's HybridSearch itself (with the app's vector tuning: similarity floor, fusion
 * weight, at most 3 chunks per document), and the keyword and vector rankings are read from the
 * statement it runs (index-retrieval.ts; the vector ranking without the similarity floor). A
 * document counts at its best-ranked chunk.
 */
import type { Embedder } from '../src-main/core/embedding/embedder';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import { retrieveFromIndex } from '../src-main/core/search/index-retrieval';
import { prepareQuery } from '../src-main/core/search/query-text';
import { channelRanker, type ChannelRankings } from './channel-rankings';
import type { Collection } from './collection';
import { MemoryConnector, type MemoryDocumentInput } from './memory-connector';
import { RRF_K, reciprocalRankFusion } from '../src-main/core/search/rrf';
import { bestWeight, VECTOR_WEIGHTS } from './fusion-study';
import { mean, ndcgAt, precisionAt1, recallAt, reciprocalRankAt, type Judgments } from './metrics';
import {
  appQueryEmbedder,
  buildSemanticIndex,
  CONNECTION_ID,
  hybridSearchFor,
  openPipeline,
} from './pipeline';
import { ablateRules, type RuleVariant, type VariantScores } from './rule-ablation';

/**
 * `hybrid` is the app's search as users get it with the evaluated embedder (appQueryEmbedder: with
 * the built-in one the app has no vectors and searches by keyword alone); `vector` is the vector
 * channel alone (with the built-in embedder a study of lexical vectors the app no longer writes).
 * `novector` is the app's search with no query embedder on the same index in the same run: with a
 * semantic model, what hybrid would be without its vectors; with the built-in embedder, hybrid itself.
 */
export type Method = 'keyword' | 'vector' | 'hybrid' | 'novector';
export const METHODS: readonly Method[] = ['keyword', 'vector', 'hybrid', 'novector'];

export interface MethodScores {
  ndcgAt10: number;
  /** Share of queries whose first document is relevant (absent from results written before it was added). */
  pAt1: number;
  recallAt10: number;
  recallAt30: number;
  mrrAt10: number;
}

export interface FusionStudy {
  /** Train nDCG@10 of hybrid for each vector-channel weight tried. */
  trainNdcgByWeight: { vectorWeight: number; ndcgAt10: number }[];
  chosenVectorWeight: number;
  /** Test scores of hybrid with the chosen weight. */
  test: MethodScores;
}

export interface CollectionResult {
  collection: string;
  split: 'test' | 'train';
  documents: number;
  chunks: number;
  queries: number;
  indexSeconds: number;
  querySeconds: number;
  scores: Record<Method, MethodScores>;
  /** Only with a tuning split (eval --fusion-study). */
  fusionStudy: FusionStudy | null;
  /** Vector channel forced to an exact scan (eval --exact-vector): what the HNSW index costs. */
  exactVector: MethodScores | null;
  /** Each ranking rule off in turn over the same index (eval --rule-ablation, rule-ablation.ts). */
  ablation?: VariantScores[];
}

/** Fused chunks kept (HybridSearch's largest k); enough for 30 distinct documents here. */
const HYBRID_DEPTH = 50;

export function documentMarkdown(title: string, text: string): string {
  return title.trim() ? `# ${title.trim()}\n\n${text}` : text;
}

/** Each record of a collection as the document the eval indexes: `# title` then its text. */
export function collectionDocuments(name: string, records: Collection['corpus']): MemoryDocumentInput[] {
  return records.map((record) => ({
    externalId: record.id,
    title: record.title || record.id,
    knowledgeBase: name,
    markdown: documentMarkdown(record.title, record.text),
  }));
}

export function scoreRanking(ranked: readonly string[], judgments: Judgments): MethodScores {
  return {
    ndcgAt10: ndcgAt(ranked, judgments, 10),
    pAt1: precisionAt1(ranked, judgments),
    recallAt10: recallAt(ranked, judgments, 10),
    recallAt30: recallAt(ranked, judgments, 30),
    mrrAt10: reciprocalRankAt(ranked, judgments, 10),
  };
}

export function averageScores(all: MethodScores[]): MethodScores {
  return {
    ndcgAt10: mean(all.map((s) => s.ndcgAt10)),
    pAt1: mean(all.map((s) => s.pAt1)),
    recallAt10: mean(all.map((s) => s.recallAt10)),
    recallAt30: mean(all.map((s) => s.recallAt30)),
    mrrAt10: mean(all.map((s) => s.mrrAt10)),
  };
}

export async function evaluateCollection(
  collection: Collection,
  options: {
    embedder?: Embedder;
    log?: (line: string) => void;
    tuning?: Pick<Collection, 'queries' | 'qrels'>;
    exactVector?: boolean;
    ruleAblation?: boolean;
    /** The variants of the ablation (rule-ablation.ts ruleVariantsFor); every rule by default. */
    ruleVariants?: readonly RuleVariant[];
  } = {},
): Promise<CollectionResult> {
  const log = options.log ?? (() => {});
  const embedder = options.embedder ?? new BuiltinEmbedder();
  const pipeline = await openPipeline({ embedder });
  try {
    const connector = new MemoryConnector();
    for (const document of collectionDocuments(collection.name, collection.corpus)) connector.put(document);
    const indexStarted = performance.now();
    const run = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
    // The vectors, as the app builds them: in the background after the keyword index.
    await buildSemanticIndex(pipeline.db, embedder);
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    if (run.status !== 'succeeded')
      throw new Error(
        `Indexing ${collection.name} ${run.status}: ${JSON.stringify(run.error ?? run.errors.slice(0, 3))}`,
      );
    const counts = await pipeline.store.counts(CONNECTION_ID);
    log(
      `${collection.name}: indexed ${counts.documents} documents, ${counts.chunks} chunks in ${indexSeconds.toFixed(1)} s`,
    );

    const queryStarted = performance.now();
    const ranker = await channelRanker(pipeline.db, embedder);
    const { active, queryEmbedder } = ranker;
    const toDocuments = ranker.documentsOf;
    // The app's search as users get it with this embedder (keyword only for the built-in one).
    const search = hybridSearchFor(pipeline.db, appQueryEmbedder(queryEmbedder));
    const withoutVectors = hybridSearchFor(pipeline.db, null);
    const rankChannels = (queries: readonly { text: string }[], label: string) =>
      ranker.rank(queries, (done) => log(`${collection.name}: ${done}/${queries.length} ${label} queries`));
    const asKeys = (r: ChannelRankings) => ({
      vector: r.vector.map((id) => `chunk:${id}`),
      keyword: r.keyword.map((id) => `chunk:${id}`),
    });
    const fromKeys = (keys: string[]) =>
      toDocuments(keys.slice(0, HYBRID_DEPTH).map((key) => Number(key.slice('chunk:'.length))));

    const rankings = await rankChannels(collection.queries, 'test');
    const perMethod: Record<Method, MethodScores[]> = { keyword: [], vector: [], hybrid: [], novector: [] };
    for (const [i, query] of collection.queries.entries()) {
      const judgments = collection.qrels.get(query.id)!;
      const r = rankings[i]!;
      const fused = (await search.search({ query: query.text, k: HYBRID_DEPTH })).hits.map((hit) => hit.key);
      perMethod.keyword.push(scoreRanking(toDocuments(r.keyword), judgments));
      perMethod.vector.push(scoreRanking(toDocuments(r.vector), judgments));
      perMethod.hybrid.push(scoreRanking(fromKeys(fused), judgments));
      const plain = (await withoutVectors.search({ query: query.text, k: HYBRID_DEPTH })).hits.map(
        (hit) => hit.key,
      );
      perMethod.novector.push(scoreRanking(fromKeys(plain), judgments));
    }

    let fusionStudy: FusionStudy | null = null;
    if (options.tuning) {
      const tuning = options.tuning;
      const trainRankings = await rankChannels(tuning.queries, 'train');
      const meanNdcg = (
        weight: number,
        queries: readonly { id: string }[],
        all: ChannelRankings[],
        qrels: Collection['qrels'],
      ) =>
        mean(
          queries.map((q, i) =>
            ndcgAt(
              fromKeys(
                reciprocalRankFusion(asKeys(all[i]!), RRF_K, { vector: weight }).map((item) => item.key),
              ),
              qrels.get(q.id)!,
              10,
            ),
          ),
        );
      const trainNdcgByWeight = VECTOR_WEIGHTS.map((vectorWeight) => ({
        vectorWeight,
        ndcgAt10: meanNdcg(vectorWeight, tuning.queries, trainRankings, tuning.qrels),
      }));
      const chosenVectorWeight = bestWeight(
        new Map(trainNdcgByWeight.map((t) => [t.vectorWeight, t.ndcgAt10])),
      );
      const test = averageScores(
        collection.queries.map((q, i) =>
          scoreRanking(
            fromKeys(
              reciprocalRankFusion(asKeys(rankings[i]!), RRF_K, { vector: chosenVectorWeight }).map(
                (item) => item.key,
              ),
            ),
            collection.qrels.get(q.id)!,
          ),
        ),
      );
      fusionStudy = { trainNdcgByWeight, chosenVectorWeight, test };
      log(
        `${collection.name}: vector weight ${chosenVectorWeight} chosen on ${tuning.queries.length} train queries`,
      );
    }
    let exactVector: MethodScores | null = null;
    if (options.exactVector) {
      // Without index scans the planner can only answer ORDER BY distance by scanning every vector.
      await pipeline.db.exec('SET enable_indexscan = off');
      const scores: MethodScores[] = [];
      for (const [i, query] of collection.queries.entries()) {
        const p = prepareQuery(query.text);
        // The index statement with no keyword scan and no lexical candidates: the vector channel alone.
        const ids = p
          ? (
              await retrieveFromIndex(pipeline.db, {
                query: { keywordText: '', frameKeywordText: '' },
                scope: null,
                vector: { space: active, queryVector: queryEmbedder.vectorOf(p.text)! },
              })
            ).vector
          : [];
        scores.push(scoreRanking(toDocuments(ids), collection.qrels.get(collection.queries[i]!.id)!));
      }
      await pipeline.db.exec('RESET enable_indexscan');
      exactVector = averageScores(scores);
    }
    const querySeconds = (performance.now() - queryStarted) / 1000;
    log(`${collection.name}: queries done in ${querySeconds.toFixed(1)} s`);
    const ablation = options.ruleAblation
      ? await ablateRules(
          pipeline.db,
          appQueryEmbedder(queryEmbedder),
          collection.queries.map((q) => ({ text: q.text, judgments: collection.qrels.get(q.id)! })),
          {
            k: HYBRID_DEPTH,
            hybridDocuments: (response) => fromKeys(response.hits.map((hit) => hit.key)),
            documentsOf: toDocuments,
            progress: (done) =>
              log(`${collection.name}: rule ablation, ${done}/${collection.queries.length}`),
            ...(options.ruleVariants ? { variants: options.ruleVariants } : {}),
          },
        )
      : undefined;
    return {
      collection: collection.name,
      split: collection.split,
      documents: counts.documents,
      chunks: counts.chunks,
      queries: collection.queries.length,
      indexSeconds,
      querySeconds,
      scores: {
        keyword: averageScores(perMethod.keyword),
        vector: averageScores(perMethod.vector),
        hybrid: averageScores(perMethod.hybrid),
        novector: averageScores(perMethod.novector),
      },
      fusionStudy,
      exactVector,
      ...(ablation ? { ablation } : {}),
    };
  } finally {
    await pipeline.db.close();
  }
}
