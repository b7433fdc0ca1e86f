/**
 * The rule ablation (`npm run eval -- --rule-ablation`): over one collection's index, each judged
 * query is searched with every ranking rule on (ranking-rules.ts ALL_RULES), then with each rule off
 * in turn, then with none, through the app's own HybridSearch and extractive answer. The searches
 * of one query share their database reads (memoizedReads: a statement with the same text and
 * parameters returns the rows it returned for that query), so a variant costs only what it
 * changes: a rerank rule, the rerank; a query-word tier, its BM25 scans. Channels a variant cannot
 * change are not scored again: the keyword channel only where a query-word tier differs, the
 * citation only on real-documents collections, the vector channel never.
 *
 * A rule stays only if it gains on the test split of at least two collections and costs none more
 * than 0.005 (issue #24): `ruleVerdicts` applies that, each variant against the all-rules run of
 * the same study, to the scores the rule acts on: a search rule to nDCG@10 and P@1 of the keyword
 * and hybrid channels (the scores `--compare` gates), a passage rule (PASSAGE_RULES: it changes
 * only what the extractive answer quotes) to the citation. The table shows every score of every
 * variant, a search rule's effect on the citation included.
 */
import type { SearchResponse } from '@shared/models';
import { buildExtractiveAnswer } from '../src-main/core/chat/extractive-answer';
import { retrieve } from '../src-main/core/chat/retrieval';
import type { Db } from '../src-main/core/db/database';
import type { Embedder } from '../src-main/core/embedding/embedder';
import { retrieveFromIndex } from '../src-main/core/search/index-retrieval';
import { prepareQuery } from '../src-main/core/search/query-text';
import { ALL_RULES, type RankingRules } from '../src-main/core/search/ranking-rules';
import { COMPARE_TOLERANCE } from './compare-results';
import { containsAnswer } from './real-docs/answer-text';
import { dedupe, mean, ndcgAt, precisionAt1, type Judgments } from './metrics';
import { hybridSearchFor } from './pipeline';
import { markdownTable, num } from './report';

export interface RuleVariant {
  name: string;
  rules: Readonly<RankingRules>;
}

/** The rules the app applies (a study's candidate, off in ALL_RULES, has nothing to ablate). */
const RULE_NAMES = (Object.keys(ALL_RULES) as (keyof RankingRules)[]).filter(
  (rule) => ALL_RULES[rule] !== false,
);

/** The rules of the extractive answer's passage choice: they change the citation and nothing else. */
export const PASSAGE_RULES: ReadonlySet<string> = new Set<keyof RankingRules>([
  'rarePassageTerms',
  'keyTermPassages',
  'passageReorder',
]);

/** Every rule on, each rule off alone, every rule off. */
export const RULE_VARIANTS: readonly RuleVariant[] = [
  { name: 'all rules', rules: ALL_RULES },
  ...RULE_NAMES.map((rule) => ({ name: `without ${rule}`, rules: { ...ALL_RULES, [rule]: false } })),
  {
    name: 'no rules',
    rules: Object.fromEntries(RULE_NAMES.map((rule) => [rule, false])) as unknown as RankingRules,
  },
];

/**
 * All rules and each of `rules` off alone (`npm run eval -- --ablate <rule,...>`): the study of one
 * candidate rule without the cost of every other variant.
 */
export function ruleVariantsFor(rules: readonly string[]): RuleVariant[] {
  const unknown = rules.filter((rule) => !(RULE_NAMES as string[]).includes(rule));
  if (unknown.length > 0)
    throw new Error(`Unknown ranking rule(s): ${unknown.join(', ')}. Rules: ${RULE_NAMES.join(', ')}`);
  return RULE_VARIANTS.filter(
    (v) => v.name === 'all rules' || rules.some((rule) => v.name === `without ${rule}`),
  );
}

export interface VariantScores {
  variant: string;
  keyword: { ndcgAt10: number; pAt1: number };
  hybrid: { ndcgAt10: number; pAt1: number };
  /** Real-documents collections: the extractive answer's first citation holds an answer string. */
  citation: number | null;
}

export interface CollectionAblation {
  collection: string;
  split: 'test' | 'train';
  queries: number;
  /** The plain BM25F reference on the same queries (the floor, printed beside). */
  reference: { ndcgAt10: number; pAt1: number };
  variants: VariantScores[];
}

export interface AblationQuery {
  text: string;
  judgments: Judgments;
  /** Answer strings (real-documents collections): the citation is scored when present. */
  answers?: readonly string[];
}

/**
 * `db` whose `query` results are remembered until `clear()`: the same statement with the same
 * parameters returns (a copy of) the same result. Only for a study whose searches read an index
 * nothing writes to meanwhile.
 */
export function memoizedReads(db: Db): { db: Db; clear(): void } {
  const results = new Map<string, Promise<unknown>>();
  const keyOf = (sql: string, params: unknown) =>
    `${sql}\u0000${JSON.stringify(params ?? [], (_key, value: unknown) =>
      ArrayBuffer.isView(value) ? Array.from(value as Float32Array) : value,
    )}`;
  const memo = new Proxy(db, {
    get(target, property) {
      if (property === 'query')
        return (sql: string, params?: unknown[], options?: unknown) => {
          const key = keyOf(sql, params);
          let result = results.get(key);
          if (!result) {
            result = target.query(sql, params, options as never);
            results.set(key, result);
          }
          return result.then((r) => structuredClone(r));
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: memo, clear: () => results.clear() };
}

/**
 * Scores every variant on `queries` over the index in `db`. `hybridDocuments` turns a search
 * response into the ranked document ids exactly as the collection's own evaluation does;
 * `documentsOf` maps chunk ids to document ids.
 */
export async function ablateRules(
  db: Db,
  queryEmbedder: Embedder | null,
  queries: readonly AblationQuery[],
  options: {
    k: number;
    hybridDocuments: (response: SearchResponse) => string[];
    documentsOf: (chunkIds: readonly number[]) => string[];
    progress?: (done: number) => void;
    variants?: readonly RuleVariant[];
  },
): Promise<VariantScores[]> {
  const variants = options.variants ?? RULE_VARIANTS;
  const reads = memoizedReads(db);
  const searches = variants.map((v) => hybridSearchFor(reads.db, queryEmbedder, v.rules));
  const signal = new AbortController().signal;
  type Scored = { keyword: [number, number]; hybrid: [number, number]; citation: number | null };
  const scored: Scored[][] = variants.map(() => []);
  for (const [q, query] of queries.entries()) {
    reads.clear();
    let baseKeyword: [number, number] | null = null;
    for (const [v, variant] of variants.entries()) {
      const score = (ranked: readonly string[]): [number, number] => [
        ndcgAt(ranked, query.judgments, 10),
        precisionAt1(ranked, query.judgments),
      ];
      let keyword: [number, number] | null = baseKeyword;
      if (
        !keyword ||
        variant.rules.frameTier !== ALL_RULES.frameTier ||
        variant.rules.documentRanking !== ALL_RULES.documentRanking ||
        variant.rules.functionWordTier !== ALL_RULES.functionWordTier ||
        variant.rules.loneCharacterPairs !== ALL_RULES.loneCharacterPairs
      ) {
        const prepared = prepareQuery(query.text, variant.rules);
        const found = prepared
          ? await retrieveFromIndex(reads.db, { query: prepared, scope: null, vector: null }, variant.rules)
          : null;
        keyword = score(dedupe(options.documentsOf(found?.keyword ?? [])));
        if (v === 0) baseKeyword = keyword;
      }
      const search = searches[v]!;
      const response = await search.search({ query: query.text, k: options.k });
      let citation: number | null = null;
      if (query.answers) {
        const hits = await retrieve(search, [query.text], 10, signal);
        const first = buildExtractiveAnswer(query.text, hits, 'no-model', { rules: variant.rules })
          .sources[0];
        citation = first && containsAnswer(first.excerpt, query.answers) ? 1 : 0;
      }
      scored[v]!.push({ keyword, hybrid: score(options.hybridDocuments(response)), citation });
    }
    if ((q + 1) % 500 === 0) options.progress?.(q + 1);
  }
  return variants.map((variant, v) => {
    const all = scored[v]!;
    const pair = (pick: (s: Scored) => [number, number]) => ({
      ndcgAt10: mean(all.map((s) => pick(s)[0])),
      pAt1: mean(all.map((s) => pick(s)[1])),
    });
    return {
      variant: variant.name,
      keyword: pair((s) => s.keyword),
      hybrid: pair((s) => s.hybrid),
      citation: all.some((s) => s.citation !== null) ? mean(all.map((s) => s.citation ?? 0)) : null,
    };
  });
}

/** The scores a rule is judged on (see the file comment): `channel metric` → value. */
function measured(scores: VariantScores, passageRule: boolean): Map<string, number> {
  const values = new Map<string, number>();
  if (passageRule) {
    if (scores.citation !== null) values.set('citation', scores.citation);
    return values;
  }
  for (const channel of ['keyword', 'hybrid'] as const) {
    values.set(`${channel} nDCG@10`, scores[channel].ndcgAt10);
    values.set(`${channel} P@1`, scores[channel].pAt1);
  }
  return values;
}

export interface RuleVerdict {
  rule: string;
  /** Collections where the rule (all rules minus the rule off) raises some score and lowers none by more than the tolerance. */
  gainsOn: string[];
  /** Collections where it lowers some score by more than the tolerance, with the worst drop. */
  costsOn: { collection: string; score: string; diff: number }[];
  /** Collections where it changes no score at all. */
  inertOn: string[];
  keep: boolean;
}

/** The rule applied to each rule of the study (see the file comment). */
export function ruleVerdicts(ablations: readonly CollectionAblation[]): RuleVerdict[] {
  // Only the rules the study measured (`--ablate` may have chosen a few).
  const rules = RULE_VARIANTS.filter(
    (v) =>
      v.name.startsWith('without ') && ablations.some((c) => c.variants.some((s) => s.variant === v.name)),
  ).map((v) => v.name);
  return rules.map((variantName) => {
    const verdict: RuleVerdict = {
      rule: variantName.slice('without '.length),
      gainsOn: [],
      costsOn: [],
      inertOn: [],
      keep: false,
    };
    for (const c of ablations) {
      const base = c.variants.find((v) => v.variant === 'all rules');
      const without = c.variants.find((v) => v.variant === variantName);
      if (!base || !without) continue;
      const on = measured(base, PASSAGE_RULES.has(verdict.rule));
      const off = measured(without, PASSAGE_RULES.has(verdict.rule));
      if (on.size === 0) continue;
      // The rule's effect on each score: with it (all rules) minus without it.
      const effects = [...on].map(([score, value]) => ({ score, diff: value - (off.get(score) ?? value) }));
      const worst = effects.reduce((a, b) => (b.diff < a.diff ? b : a));
      if (worst.diff < -COMPARE_TOLERANCE)
        verdict.costsOn.push({ collection: c.collection, score: worst.score, diff: worst.diff });
      else if (effects.some((e) => e.diff > 1e-9)) verdict.gainsOn.push(c.collection);
      else if (effects.every((e) => Math.abs(e.diff) <= 1e-9)) verdict.inertOn.push(c.collection);
    }
    verdict.keep = verdict.gainsOn.length >= 2 && verdict.costsOn.length === 0;
    return verdict;
  });
}

const signed = (diff: number) => `${diff >= 0 ? '+' : ''}${diff.toFixed(3)}`;

/** Each collection's variants beside its all-rules run and the BM25F reference. */
export function ablationTable(ablations: readonly CollectionAblation[]): string {
  const rows: (string | number)[][] = [];
  for (const c of ablations) {
    const name = `${c.collection}${c.split === 'train' ? ' (train)' : ''}`;
    const base = c.variants.find((v) => v.variant === 'all rules')!;
    rows.push([
      name,
      c.queries,
      'BM25F reference',
      num(c.reference.ndcgAt10, 3),
      num(c.reference.pAt1, 3),
      '',
      '',
      '',
    ]);
    for (const v of c.variants) {
      const diff = (value: number, before: number) =>
        v === base ? num(value, 3) : `${num(value, 3)} (${signed(value - before)})`;
      rows.push([
        name,
        c.queries,
        v.variant,
        diff(v.keyword.ndcgAt10, base.keyword.ndcgAt10),
        diff(v.keyword.pAt1, base.keyword.pAt1),
        diff(v.hybrid.ndcgAt10, base.hybrid.ndcgAt10),
        diff(v.hybrid.pAt1, base.hybrid.pAt1),
        v.citation === null || base.citation === null ? '' : diff(v.citation, base.citation),
      ]);
    }
  }
  return markdownTable(
    [
      'collection',
      'queries',
      'variant',
      'keyword nDCG@10',
      'keyword P@1',
      'hybrid nDCG@10',
      'hybrid P@1',
      'citation',
    ],
    rows,
  );
}

export function verdictTable(verdicts: readonly RuleVerdict[]): string {
  return markdownTable(
    ['rule', 'gains on', 'costs > 0.005 on', 'changes nothing on', 'verdict'],
    verdicts.map((v) => [
      v.rule,
      v.gainsOn.join(', ') || '–',
      v.costsOn.map((c) => `${c.collection} (${c.score} ${signed(c.diff)})`).join(', ') || '–',
      v.inertOn.join(', ') || '–',
      v.keep ? 'keep' : 'remove',
    ]),
  );
}
