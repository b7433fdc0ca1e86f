/**
 * `npm run eval [-- <dir> ...] [-- --json] [-- --train] [-- --compare <results json>]`: retrieval
 * quality of the real pipeline on test collections (default: every collection in
 * <repoRoot>/../shared/eval, then the real-documents ones built under .cache/eval). Prints nDCG@10,
 * P@1, Recall@10, Recall@30 and MRR@10 for keyword-only, vector-only and hybrid beside the plain
 * BM25F reference computed here over whole records (bm25f-reference.ts, the floor) and the
 * published reference figures, checks the goals (keyword ≥ the BM25F reference; hybrid > the
 * better single channel), and writes bench-results/eval-<date>.json + latest-eval.json.
 * `--compare <file>` then prints the differences to that earlier results file and exits 1 when any
 * collection's nDCG@10 or P@1 dropped by more than 0.005 on a channel both runs measured;
 * `--compare <file> --current <file>` compares two results files without running anything.
 * The generated term test of each real-documents corpus runs on the test split unless
 * `--skip-term-test`.
 * `--rule-ablation` also scores each collection with each ranking rule off in turn over the same
 * index (rule-ablation.ts) and prints which rules earn their place; `--ablate <rule,...>` runs it
 * with only those rules off in turn (one candidate's study without every other variant's cost).
 * `--train` evaluates the train/ split instead: the one to tune on. `--fusion-study` also tries
 * a weighted RRF, its vector weight chosen on train/ and reported on the test queries
 * (a diagnostic for the hybrid goal; the app's fusion is unchanged). `--exact-vector` adds the
 * vector channel forced to an exact scan, to separate the HNSW index's loss from the embedder's.
 * The embedder is the built-in one unless CAIRN_EMBED_* variables name a provider (as for the CLI),
 * so a real model can be measured the same way where one is reachable.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbedder, embeddingSettingsFromEnv } from '../src-main/core/embedding/create-embedder';
import type { Embedder } from '../src-main/core/embedding/embedder';
import { dataDirLayout, resolveDataDir } from '../src-main/core/app/data-dir';
import { silentLogger } from '../src-main/core/logging/logger';
import { loadCatalog } from '../src-main/core/models/catalog';
import { LocalModels } from '../src-main/core/models/local-models';
import { ModelStore } from '../src-main/core/models/model-store';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import { spaceKey } from '../src-main/core/embedding/embedder';
import { loadCollection, readReferenceFigures, type Collection, type ReferenceFigure } from './collection';
import {
  averageScores,
  evaluateCollection,
  METHODS,
  scoreRanking,
  type CollectionResult,
  type MethodScores,
} from './evaluate-collection';
import { Bm25fReference } from './bm25f-reference';
import { COMPARE_TOLERANCE, compareResults, type ComparableResults } from './compare-results';
import { machineFacts } from './process-stats';
import {
  ablationTable,
  ruleVariantsFor,
  ruleVerdicts,
  verdictTable,
  type CollectionAblation,
} from './rule-ablation';
import { currentCommit, markdownTable, num, REPO_ROOT, writeResults } from './report';
import { findSharedReference } from '../src-main/testing/shared-reference';
import { DEFAULT_REAL_DOCS_DIR, EVAL_CACHE_DIR } from './real-docs/build-real-docs';
import type { TermTestResult } from './real-docs/term-test';
import {
  evaluateRealDocs,
  isRealDocsCollection,
  nothingMatchesLine,
  realDocsChannelTable,
  realDocsTable,
  termTestLines,
  type RealDocsResult,
} from './real-docs/evaluate-real-docs';

/** Every collection in the nearest `shared/eval` (CI places shared/ beside the clone). */
function defaultEvalRoot(): string {
  return findSharedReference(REPO_ROOT, 'eval') ?? resolve(REPO_ROOT, '..', 'shared', 'eval');
}

interface GoalCheck {
  goal: string;
  met: boolean;
  detail: string;
}

export interface EvaluatedCollection extends CollectionResult {
  /** The plain BM25F reference over whole records (bm25f-reference.ts). */
  reference: MethodScores;
  references: ReferenceFigure[];
  goals: GoalCheck[];
}

/**
 * shared/eval's collections, then every collection built under .cache/eval (the real-documents
 * sets of npm run eval:build-real-docs and the public collections built by bench/public scripts;
 * none of them is shipped).
 */
function defaultCollections(log: (line: string) => void): string[] {
  const root = defaultEvalRoot();
  if (!existsSync(root))
    throw new Error(
      `No collections given and ${root} does not exist. Pass collection directories: npm run eval -- <dir> [<dir>...]`,
    );
  const collectionsIn = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => existsSync(join(dir, name, 'corpus.jsonl')))
          .sort()
          .map((name) => join(dir, name))
      : [];
  const built = collectionsIn(EVAL_CACHE_DIR);
  if (!built.includes(DEFAULT_REAL_DOCS_DIR))
    log(
      `real-docs is not built, so it is skipped. Build every real-documents collection from the pinned commits: ` +
        `npm run eval:build-real-docs (reads the mirrors, or --repo <source>=<git dir>)`,
    );
  return [...collectionsIn(root), ...built];
}

/** Real-documents collections grouped by identical corpus, so each corpus is indexed once. */
function byCorpus(dirs: readonly string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const dir of dirs) {
    const key = createHash('sha1')
      .update(readFileSync(join(dir, 'corpus.jsonl')))
      .digest('hex');
    groups.set(key, [...(groups.get(key) ?? []), dir]);
  }
  return [...groups.values()];
}

/** The reference's scores on the collection's judged queries (documents = records, no chunks). */
export function referenceScores(collection: Collection): MethodScores {
  const reference = new Bm25fReference(collection.corpus);
  return averageScores(
    collection.queries.map((q) => scoreRanking(reference.search(q.text, 30), collection.qrels.get(q.id)!)),
  );
}

const signed = (diff: number) => `${diff >= 0 ? '+' : ''}${diff.toFixed(3)}`;

function checkGoals(
  result: CollectionResult,
  reference: MethodScores,
  references: ReferenceFigure[],
): GoalCheck[] {
  const { keyword, vector, hybrid } = result.scores;
  const goals: GoalCheck[] = [];
  for (const metric of ['ndcgAt10', 'pAt1'] as const)
    goals.push({
      goal: `keyword ${metric === 'pAt1' ? 'P@1' : 'nDCG@10'} ≥ BM25F reference`,
      met: keyword[metric] - reference[metric] >= -0.0005,
      detail: `${num(keyword[metric], 3)} vs ${num(reference[metric], 3)}: ${signed(keyword[metric] - reference[metric])}`,
    });
  const bm25 = references.filter((r) => /bm25/i.test(r.system));
  if (bm25.length > 0 && result.split === 'test') {
    const best = bm25.reduce((a, b) => (b.ndcgAt10 > a.ndcgAt10 ? b : a));
    const diff = keyword.ndcgAt10 - best.ndcgAt10;
    goals.push({
      goal: 'keyword nDCG@10 ≥ best published BM25',
      met: diff >= -0.0005,
      detail: `${num(keyword.ndcgAt10, 3)} vs ${num(best.ndcgAt10, 3)} (${best.system}): ${diff >= 0 ? '+' : ''}${diff.toFixed(3)}`,
    });
  }
  const betterSingle = Math.max(keyword.ndcgAt10, vector.ndcgAt10);
  const diff = hybrid.ndcgAt10 - betterSingle;
  goals.push({
    goal: 'hybrid nDCG@10 > better single channel',
    met: diff > 0,
    detail: `${num(hybrid.ndcgAt10, 3)} vs ${num(betterSingle, 3)} (${keyword.ndcgAt10 >= vector.ndcgAt10 ? 'keyword' : 'vector'}): ${diff >= 0 ? '+' : ''}${diff.toFixed(3)}`,
  });
  return goals;
}

export function resultsTable(collections: EvaluatedCollection[]): string {
  const rows: (string | number)[][] = [];
  for (const c of collections) {
    for (const method of METHODS) {
      const s = c.scores[method];
      rows.push([
        `${c.collection}${c.split === 'train' ? ' (train)' : ''}`,
        c.queries,
        method === 'novector' ? 'Cairn search, no vectors' : `Cairn ${method}`,
        num(s.ndcgAt10, 3),
        num(s.pAt1, 3),
        num(s.recallAt10, 3),
        num(s.recallAt30, 3),
        num(s.mrrAt10, 3),
      ]);
    }
    rows.push([
      `${c.collection}${c.split === 'train' ? ' (train)' : ''}`,
      c.queries,
      'BM25F reference (records)',
      num(c.reference.ndcgAt10, 3),
      num(c.reference.pAt1, 3),
      num(c.reference.recallAt10, 3),
      num(c.reference.recallAt30, 3),
      num(c.reference.mrrAt10, 3),
    ]);
    if (c.exactVector) {
      const s = c.exactVector;
      rows.push([
        c.collection,
        c.queries,
        'study: vector, exact scan (no HNSW)',
        num(s.ndcgAt10, 3),
        num(s.pAt1, 3),
        num(s.recallAt10, 3),
        num(s.recallAt30, 3),
        num(s.mrrAt10, 3),
      ]);
    }
    if (c.fusionStudy) {
      const s = c.fusionStudy.test;
      rows.push([
        c.collection,
        c.queries,
        `study: hybrid, vector weight ${c.fusionStudy.chosenVectorWeight} (chosen on train)`,
        num(s.ndcgAt10, 3),
        num(s.pAt1, 3),
        num(s.recallAt10, 3),
        num(s.recallAt30, 3),
        num(s.mrrAt10, 3),
      ]);
    }
    for (const ref of c.references)
      rows.push([c.collection, '', `ref: ${ref.system}`, ref.figure, '', '', '', '']);
  }
  return markdownTable(['collection', 'queries', 'system', 'nDCG@10', 'P@1', 'R@10', 'R@30', 'MRR@10'], rows);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      train: { type: 'boolean', default: false },
      'fusion-study': { type: 'boolean', default: false },
      'exact-vector': { type: 'boolean', default: false },
      compare: { type: 'string' },
      'skip-term-test': { type: 'boolean', default: false },
      'rule-ablation': { type: 'boolean', default: false },
      ablate: { type: 'string' },
      current: { type: 'string' },
    },
  });
  const log = (line: string) => process.stderr.write(`  ${line}\n`);
  const earlier = values.compare ? readResults(values.compare) : null;
  if (values.current) {
    if (!earlier) throw new Error('--current <results json> needs --compare <earlier results json>.');
    process.exitCode = printComparison(earlier, readResults(values.current), values.compare!);
    return;
  }
  const ruleVariants = values.ablate
    ? ruleVariantsFor(values.ablate.split(',').map((r) => r.trim()))
    : undefined;
  const ablationWanted = values['rule-ablation'] || ruleVariants !== undefined;
  const dirs = positionals.length > 0 ? positionals.map((p) => resolve(p)) : defaultCollections(log);
  const machine = machineFacts();
  const startedAt = new Date().toISOString();
  const commit = currentCommit();
  const settings = embeddingSettingsFromEnv(process.env);
  // Local models installed in the data directory (CAIRN_DATA_DIR, else the OS default) are measured
  // too, each in its own pass, whenever no CAIRN_EMBED_* provider was named.
  const local = new LocalModels({
    store: new ModelStore(dataDirLayout(resolveDataDir({ env: process.env }).path).models),
    catalog: loadCatalog(process.env),
    logger: silentLogger(),
  });
  const configured = settings ? createEmbedder(settings, {}, (id) => local.embedder(id)) : null;
  if (settings && !configured)
    throw new Error(
      `CAIRN_EMBED_PROVIDER=${settings.provider} names no semantic model (or its key is missing).`,
    );
  // Without one: the built-in lexical embedder, which the app no longer uses (keyword search only),
  // kept here as the reference its removal was measured against (the 'novector' rows).
  const embedders = configured
    ? [configured]
    : [
        new BuiltinEmbedder(),
        ...local.catalog.entries
          .filter((entry) => entry.kind === 'embedder' && local.installedIds().includes(entry.id))
          .map((entry) => local.embedder(entry.id)),
      ];
  try {
    for (const embedder of embedders) await evaluateWith(embedder, embedders.indexOf(embedder) === 0);
  } finally {
    await local.dispose();
  }

  async function evaluateWith(embedder: Embedder, primary: boolean): Promise<void> {
    log(`embedder: ${spaceKey(embedder.space)}`);
    log(
      `Cairn eval: ${dirs.join(', ')}; ${machine.cpus} cores, Node ${machine.node}, load ${machine.loadAverage.join(' / ')}`,
    );
    const collections: EvaluatedCollection[] = [];
    const realDocs: RealDocsResult[] = [];
    const termTests: TermTestResult[] = [];
    const split = values.train ? 'train' : 'test';
    for (const group of byCorpus(dirs.filter(isRealDocsCollection))) {
      const sets = group.map((dir) => loadCollection(dir, split)).filter((c) => c.queries.length > 0);
      if (sets.length === 0) continue;
      const { results, termTest } = await evaluateRealDocs(sets, {
        embedder,
        log,
        termTest: !values.train && !values['skip-term-test'],
        ruleAblation: ablationWanted,
        ...(ruleVariants ? { ruleVariants } : {}),
      });
      realDocs.push(...results);
      if (termTest.cases > 0) termTests.push(termTest);
    }
    for (const dir of dirs.filter((d) => !isRealDocsCollection(d))) {
      const collection = loadCollection(dir, split);
      const tuning =
        values['fusion-study'] && !values.train && existsSync(join(dir, 'train', 'qrels.tsv'))
          ? loadCollection(dir, 'train')
          : undefined;
      const reference = referenceScores(collection);
      const result = await evaluateCollection(collection, {
        embedder,
        log,
        exactVector: values['exact-vector'] ?? false,
        ruleAblation: ablationWanted,
        ...(ruleVariants ? { ruleVariants } : {}),
        ...(tuning ? { tuning } : {}),
      });
      const references = readReferenceFigures(dir);
      collections.push({
        ...result,
        reference,
        references,
        goals: checkGoals(result, reference, references),
      });
    }
    const ablations: CollectionAblation[] = [
      ...collections.flatMap((c) =>
        c.ablation
          ? [
              {
                collection: c.collection,
                split: c.split,
                queries: c.queries,
                reference: c.reference,
                variants: c.ablation,
              },
            ]
          : [],
      ),
      ...realDocs.flatMap((r) =>
        r.ablation
          ? [
              {
                collection: r.collection,
                split: r.split,
                queries: r.channels.hybrid.all.questions,
                reference: r.channels.bm25f.all,
                variants: r.ablation,
              },
            ]
          : [],
      ),
    ];
    const ruleAblation =
      ablations.length > 0 ? { collections: ablations, verdicts: ruleVerdicts(ablations) } : undefined;
    const results = {
      kind: 'eval',
      startedAt,
      finishedAt: new Date().toISOString(),
      commit,
      machine,
      loadAverageAtEnd: machineFacts().loadAverage,
      embedder: spaceKey(embedder.space),
      collections,
      realDocs,
      termTests,
      ...(ruleAblation ? { ruleAblation } : {}),
    };
    // The built-in (or CAIRN_EMBED_*) run is latest-eval.json; each installed local model gets its own file.
    const paths = writeResults(primary ? 'eval' : `eval-${embedder.space.model.split('@')[0]}`, results);
    if (values.json) {
      process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    } else {
      console.log(
        `\n## Eval ${startedAt.slice(0, 16).replace('T', ' ')} UTC, commit ${results.commit ?? '?'}`,
      );
      console.log(
        `embedder ${results.embedder}; ${machine.cpus} cores, Node ${machine.node}; load ${machine.loadAverage.join(' / ')} at start, ${results.loadAverageAtEnd.join(' / ')} at end\n`,
      );
      if (collections.length > 0) {
        console.log(resultsTable(collections));
        console.log('\n### Goals\n');
        console.log(
          markdownTable(
            ['collection', 'goal', 'status', 'detail'],
            collections.flatMap((c) =>
              c.goals.map((g) => [c.collection, g.goal, g.met ? 'met' : 'missed', g.detail]),
            ),
          ),
        );
      }
      if (realDocs.length > 0) {
        console.log(
          '\n### Real documents (hybrid search as shipped; citation = first source of the extractive answer)\n',
        );
        console.log(realDocsChannelTable(realDocs));
        console.log('');
        console.log(realDocsTable(realDocs));
        for (const line of new Set(realDocs.map(nothingMatchesLine))) console.log(`\n${line}`);
      }
      if (termTests.length > 0) {
        console.log(
          '\n### Term test (each title or heading of 2-4 CJK characters, alone, finds its document in the top 3)\n',
        );
        console.log(termTestLines(termTests));
      }
      if (ruleAblation) {
        console.log(
          '\n### Rule ablation (each rule off over the same index; diff to all rules; citation on real documents)\n',
        );
        console.log(ablationTable(ruleAblation.collections));
        console.log(
          '\nA rule is kept when it gains on at least two collections and costs none more than 0.005:\n',
        );
        console.log(verdictTable(ruleAblation.verdicts));
      }
      console.log(
        `\n${markdownTable(
          ['collection', 'docs', 'chunks', 'index s', 'query s'],
          [
            ...collections.map((c) => [
              c.collection,
              c.documents,
              c.chunks,
              num(c.indexSeconds, 1),
              num(c.querySeconds, 1),
            ]),
            ...realDocs.map((r) => [r.collection, r.documents, r.chunks, num(r.indexSeconds, 1), '–']),
          ],
        )}`,
      );
    }
    log(`Results: ${paths.join(', ')}`);
    if (earlier && primary) process.exitCode = printComparison(earlier, results, values.compare!);
  }
}

function readResults(path: string): ComparableResults {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ComparableResults;
  } catch (error) {
    throw new Error(`--compare/--current ${path}: not a results JSON (${(error as Error).message})`);
  }
}

/** Prints the differences to an earlier run; 1 when a compared score dropped by more than the tolerance. */
function printComparison(
  earlier: ComparableResults,
  current: ComparableResults,
  earlierPath: string,
): number {
  const { rows, onlyBefore, onlyAfter } = compareResults(earlier, current);
  console.log(
    `\n### Compared with ${earlierPath} (commit ${earlier.commit ?? '?'}; a drop > ${COMPARE_TOLERANCE} fails)\n`,
  );
  console.log(
    markdownTable(
      ['collection', 'channel', 'metric', 'before', 'now', 'diff', ''],
      rows.map((r) => [
        r.collection,
        r.channel,
        r.metric === 'pAt1' ? 'P@1' : 'nDCG@10',
        num(r.before, 3),
        num(r.after, 3),
        signed(r.diff),
        r.regressed ? 'DROP' : '',
      ]),
    ),
  );
  if (onlyBefore.length > 0)
    console.log(`\nOnly in the earlier run (not compared): ${onlyBefore.join('; ')}`);
  if (onlyAfter.length > 0) console.log(`\nOnly in this run (not compared): ${onlyAfter.join('; ')}`);
  const drops = rows.filter((r) => r.regressed);
  console.log(
    drops.length === 0
      ? `\nNo drop beyond ${COMPARE_TOLERANCE} in ${rows.length} compared scores.`
      : `\n${drops.length} of ${rows.length} compared scores dropped by more than ${COMPARE_TOLERANCE}.`,
  );
  return drops.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
