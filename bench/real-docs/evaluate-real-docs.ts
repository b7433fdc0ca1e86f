/**
 * A real-documents collection (bench/real-docs) through the app as a user runs it: the corpus
 * is written out as Markdown files and indexed by the real FolderConnector (`cairn add-folder`),
 * then each question goes through the app's HybridSearch (document ranking: P@1, success@5,
 * MRR@10, nDCG@10 per question type) and through `ask`'s extractive answer (the citation check:
 * does the first cited passage contain one of the answer strings?). The same questions are ranked
 * by the keyword and the vector channel alone (a document at its best chunk) and by the plain
 * BM25F reference over whole files (bm25f-reference.ts), scored the same way. Queries of only
 * function words, or of words found nowhere, must return nothing ("Nothing matches").
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SearchHit } from '@shared/models';
import { buildExtractiveAnswer } from '../../src-main/core/chat/extractive-answer';
import { retrieve } from '../../src-main/core/chat/retrieval';
import { FolderConnector } from '../../src-main/core/connectors/folder/folder-connector';
import type { Embedder } from '../../src-main/core/embedding/embedder';
import { Bm25fReference } from '../bm25f-reference';
import { containsAnswer } from './answer-text';
import { runTermTest, TERM_TOP, termCases, type TermTestResult } from './term-test';
import { channelRanker } from '../channel-rankings';
import type { Collection } from '../collection';
import { dedupe, mean, ndcgAt } from '../metrics';
import {
  appQueryEmbedder,
  buildSemanticIndex,
  CONNECTION_ID,
  hybridSearchFor,
  openPipeline,
} from '../pipeline';
import { markdownTable, num } from '../report';
import { ablateRules, type RuleVariant, type VariantScores } from '../rule-ablation';

export interface RealDocsAnswer {
  id: string;
  type: string;
  answers: string[];
}

/** Queries that must find nothing: function words only, or content words no page holds. */
export const NOTHING_MATCHES_QUERIES = [
  '的',
  '是什么',
  '怎么 如何',
  'what is the',
  'how does it',
  'xyzzy plugh',
  'qwertyuiopasdf',
];

/** Rankings scored for every question: the app's search, its two channels alone, the reference. */
export const REAL_DOCS_CHANNELS = ['hybrid', 'keyword', 'vector', 'bm25f', 'novector'] as const;
export type RealDocsChannel = (typeof REAL_DOCS_CHANNELS)[number];

export interface QuestionOutcome {
  id: string;
  type: string;
  text: string;
  /** Document ids in rank order (hybrid search, one per document). */
  ranked: string[];
  /** The first 10 documents of each channel (hybrid = `ranked`). */
  channels: Record<RealDocsChannel, string[]>;
  gold: string[];
  firstRelevantRank: number | null;
  citedDocument: string | null;
  citedPassage: string;
  citationContainsAnswer: boolean;
}

export interface TypeScores {
  type: string;
  questions: number;
  pAt1: number;
  successAt5: number;
  mrrAt10: number;
  ndcgAt10: number;
  /** Hybrid only: the extractive answer's first citation holds an answer string. */
  citation: number | null;
}

export interface ChannelScores {
  /** Every question of the split. */
  all: TypeScores;
  /** Every type but paraphrase. */
  overall: TypeScores;
  byType: TypeScores[];
}

export interface RealDocsResult {
  collection: string;
  split: 'test' | 'train';
  documents: number;
  chunks: number;
  indexSeconds: number;
  byType: TypeScores[];
  /** Every type but paraphrase (those are for a semantic model and reported apart). */
  overall: TypeScores;
  /** The same scores for each channel (byType and overall above are `channels.hybrid`'s). */
  channels: Record<RealDocsChannel, ChannelScores>;
  nothingMatches: { query: string; hits: number }[];
  outcomes: QuestionOutcome[];
  /** Each ranking rule off in turn over the same index (eval --rule-ablation, rule-ablation.ts). */
  ablation?: VariantScores[];
}

export function isRealDocsCollection(dir: string): boolean {
  return existsSync(join(dir, 'answers.jsonl'));
}

export function readAnswers(dir: string): Map<string, RealDocsAnswer> {
  const lines = readFileSync(join(dir, 'answers.jsonl'), 'utf8').split('\n').filter(Boolean);
  return new Map(lines.map((line) => JSON.parse(line) as RealDocsAnswer).map((a) => [a.id, a]));
}

function scoresOf(type: string, outcomes: QuestionOutcome[], channel: RealDocsChannel): TypeScores {
  const rankOf = (o: QuestionOutcome) => {
    const index = o.channels[channel].findIndex((id) => o.gold.includes(id));
    return index === -1 ? null : index + 1;
  };
  const ranks = outcomes.map(rankOf);
  return {
    type,
    questions: outcomes.length,
    pAt1: mean(ranks.map((r) => (r === 1 ? 1 : 0))),
    successAt5: mean(ranks.map((r) => (r !== null && r <= 5 ? 1 : 0))),
    mrrAt10: mean(ranks.map((r) => (r !== null && r <= 10 ? 1 / r : 0))),
    ndcgAt10: mean(
      outcomes.map((o) => ndcgAt(o.channels[channel], new Map(o.gold.map((id) => [id, 1])), 10)),
    ),
    citation: channel === 'hybrid' ? mean(outcomes.map((o) => (o.citationContainsAnswer ? 1 : 0))) : null,
  };
}

export function channelScores(outcomes: QuestionOutcome[], channel: RealDocsChannel): ChannelScores {
  const types = [...new Set(outcomes.map((o) => o.type))].sort();
  return {
    all: scoresOf('all', outcomes, channel),
    overall: scoresOf(
      'all but paraphrase',
      outcomes.filter((o) => o.type !== 'paraphrase'),
      channel,
    ),
    byType: types.map((type) =>
      scoresOf(
        type,
        outcomes.filter((o) => o.type === type),
        channel,
      ),
    ),
  };
}

export interface RealDocsGroupResult {
  results: RealDocsResult[];
  termTest: TermTestResult;
}

/**
 * Indexes the corpus the collections share once (they must hold the same corpus.jsonl: question
 * sets over one documentation), scores each collection's questions, and runs the corpus's term
 * test through the app's search and the BM25F reference.
 */
export async function evaluateRealDocs(
  collections: readonly Collection[],
  options: {
    embedder: Embedder;
    log?: (line: string) => void;
    termTest?: boolean;
    ruleAblation?: boolean;
    /** The variants of the ablation (rule-ablation.ts ruleVariantsFor); every rule by default. */
    ruleVariants?: readonly RuleVariant[];
  },
): Promise<RealDocsGroupResult> {
  const log = options.log ?? (() => {});
  const corpus = collections[0]!.corpus;
  const corpusName = collections.map((c) => c.name).join(' + ');
  const root = mkdtempSync(join(tmpdir(), 'cairn-real-docs-'));
  const folder = join(root, 'real-docs');
  const pipeline = await openPipeline({ embedder: options.embedder });
  try {
    for (const record of corpus) {
      const path = join(folder, record.id);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, record.text);
    }
    const started = performance.now();
    const connector = new FolderConnector({ root: folder });
    const run = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
    // The vectors, as the app builds them: in the background after the keyword index.
    await buildSemanticIndex(pipeline.db, options.embedder);
    const indexSeconds = (performance.now() - started) / 1000;
    if (run.status !== 'succeeded')
      throw new Error(
        `Indexing ${corpusName} ${run.status}: ${JSON.stringify(run.error ?? run.errors.slice(0, 3))}`,
      );
    const counts = await pipeline.store.counts(CONNECTION_ID);
    log(
      `${corpusName}: indexed ${counts.documents} documents, ${counts.chunks} chunks in ${indexSeconds.toFixed(1)} s`,
    );

    const ranker = await channelRanker(pipeline.db, options.embedder);
    const reference = new Bm25fReference(corpus);
    // The app's search as users get it with this embedder (keyword only for the built-in one).
    const search = hybridSearchFor(pipeline.db, appQueryEmbedder(ranker.queryEmbedder));
    // The app's search with its vector channel skipped (no query embedder), on the same index.
    const withoutVectors = hybridSearchFor(pipeline.db, null);
    const signal = new AbortController().signal;
    const firstDocuments = (chunkIds: readonly number[]) => dedupe(ranker.documentsOf(chunkIds)).slice(0, 10);
    const nothingMatches: { query: string; hits: number }[] = [];
    for (const query of NOTHING_MATCHES_QUERIES)
      nothingMatches.push({ query, hits: (await search.search({ query, k: 10 })).hits.length });

    const results: RealDocsResult[] = [];
    for (const collection of collections) {
      const answers = readAnswers(
        collection.split === 'train' ? join(collection.dir, 'train') : collection.dir,
      );
      const channelRankings = await ranker.rank(collection.queries);
      const outcomes: QuestionOutcome[] = [];
      for (const [i, query] of collection.queries.entries()) {
        const judgments = collection.qrels.get(query.id)!;
        const response = await search.search({ query: query.text, k: 10 });
        const ranked = response.documents.map((d) => d.best.externalId);
        const plain = (await withoutVectors.search({ query: query.text, k: 10 })).documents.map(
          (d) => d.best.externalId,
        );
        const index = ranked.findIndex((id) => judgments.has(id));
        const hits: SearchHit[] = await retrieve(search, [query.text], 10, signal);
        const first = buildExtractiveAnswer(query.text, hits, 'no-model').sources[0];
        const answer = answers.get(query.id);
        outcomes.push({
          id: query.id,
          type: answer?.type ?? 'unknown',
          text: query.text,
          ranked,
          channels: {
            hybrid: ranked,
            keyword: firstDocuments(channelRankings[i]!.keyword),
            vector: firstDocuments(channelRankings[i]!.vector),
            bm25f: reference.search(query.text, 10),
            novector: plain,
          },
          gold: [...judgments.keys()],
          firstRelevantRank: index === -1 ? null : index + 1,
          citedDocument: first?.hit.externalId ?? null,
          citedPassage: first?.excerpt ?? '',
          citationContainsAnswer: first ? containsAnswer(first.excerpt, answer?.answers ?? []) : false,
        });
      }
      const channels = Object.fromEntries(
        REAL_DOCS_CHANNELS.map((channel) => [channel, channelScores(outcomes, channel)]),
      ) as Record<RealDocsChannel, ChannelScores>;
      const ablation = options.ruleAblation
        ? await ablateRules(
            pipeline.db,
            appQueryEmbedder(ranker.queryEmbedder),
            collection.queries.map((q) => ({
              text: q.text,
              judgments: collection.qrels.get(q.id)!,
              answers: answers.get(q.id)?.answers ?? [],
            })),
            {
              k: 10,
              hybridDocuments: (response) => response.documents.map((d) => d.best.externalId),
              documentsOf: ranker.documentsOf,
              ...(options.ruleVariants ? { variants: options.ruleVariants } : {}),
            },
          )
        : undefined;
      results.push({
        collection: collection.name,
        split: collection.split,
        documents: counts.documents,
        chunks: counts.chunks,
        indexSeconds,
        byType: channels.hybrid.byType,
        overall: channels.hybrid.overall,
        channels,
        nothingMatches,
        outcomes,
        ...(ablation ? { ablation } : {}),
      });
    }

    const cases = options.termTest === false ? [] : termCases(corpus);
    const termStarted = performance.now();
    const termTest = await runTermTest(corpusName, cases, {
      hybrid: async (term) =>
        (await search.search({ query: term, k: TERM_TOP })).documents.map((d) => d.best.externalId),
      bm25f: (term) => reference.search(term, TERM_TOP),
      novector: async (term) =>
        (await withoutVectors.search({ query: term, k: TERM_TOP })).documents.map((d) => d.best.externalId),
    });
    log(
      `${corpusName}: term test, ${cases.length} terms in ${((performance.now() - termStarted) / 1000).toFixed(1)} s`,
    );
    return { results, termTest };
  } finally {
    await pipeline.db.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The term test's pass rates, and the app's failures (at most `limit` listed). */
export function termTestLines(tests: readonly TermTestResult[], limit = 40): string {
  const lines = [
    markdownTable(
      [
        'corpus',
        'terms',
        'Cairn hybrid: a titled document in the top 3',
        'Cairn search, no vectors',
        'BM25F reference',
      ],
      tests.map((t) => [
        t.corpus,
        t.cases,
        num(t.passRate.hybrid, 3),
        num(t.passRate.novector, 3),
        num(t.passRate.bm25f, 3),
      ]),
    ),
  ];
  for (const t of tests) {
    const failures = t.failures.hybrid ?? [];
    if (failures.length === 0) continue;
    lines.push(
      `\n${t.corpus}: ${failures.length} term(s) failed in Cairn hybrid${failures.length > limit ? ` (first ${limit})` : ''}:`,
      ...failures
        .slice(0, limit)
        .map(
          (f) =>
            `- ${f.term}: expected ${f.expected.join(', ')}; top ${TERM_TOP}: ${f.got.join(', ') || 'nothing'}`,
        ),
    );
  }
  return lines.join('\n');
}

/** Per question type: the app's search (with the citation check) beside the BM25F reference. */
export function realDocsTable(results: readonly RealDocsResult[]): string {
  const rows: (string | number)[][] = [];
  for (const r of results) {
    const hybrid = r.channels.hybrid;
    const reference = r.channels.bm25f;
    for (const [i, s] of [...hybrid.byType, hybrid.overall, hybrid.all].entries()) {
      const ref = [...reference.byType, reference.overall, reference.all][i]!;
      rows.push([
        `${r.collection}${r.split === 'train' ? ' (train)' : ''}`,
        s.type,
        s.questions,
        num(s.pAt1, 2),
        num(s.successAt5, 2),
        num(s.mrrAt10, 2),
        num(s.citation, 2),
        `${num(ref.pAt1, 2)} / ${num(ref.successAt5, 2)}`,
      ]);
    }
  }
  return markdownTable(
    ['collection', 'type', 'questions', 'P@1', 'success@5', 'MRR@10', 'cited ⊇ answer', 'BM25F P@1 / s@5'],
    rows,
  );
}

/** Every channel on all questions and on all but the paraphrases. */
export function realDocsChannelTable(results: readonly RealDocsResult[]): string {
  const rows: (string | number)[][] = [];
  for (const r of results)
    for (const subset of ['all', 'overall'] as const)
      for (const channel of REAL_DOCS_CHANNELS) {
        const s = r.channels[channel][subset];
        rows.push([
          `${r.collection}${r.split === 'train' ? ' (train)' : ''}`,
          s.type,
          s.questions,
          channel === 'bm25f'
            ? 'BM25F reference (files)'
            : channel === 'novector'
              ? 'Cairn search, no vectors'
              : `Cairn ${channel}`,
          num(s.ndcgAt10, 3),
          num(s.pAt1, 2),
          num(s.successAt5, 2),
          num(s.mrrAt10, 2),
        ]);
      }
  return markdownTable(
    ['collection', 'questions of', 'n', 'system', 'nDCG@10', 'P@1', 'success@5', 'MRR@10'],
    rows,
  );
}

export function nothingMatchesLine(result: RealDocsResult): string {
  const empty = result.nothingMatches.filter((n) => n.hits === 0).length;
  return `"Nothing matches" queries answered with no hit: ${empty}/${result.nothingMatches.length} (${result.nothingMatches
    .map((n) => `${n.query}: ${n.hits}`)
    .join('; ')})`;
}
