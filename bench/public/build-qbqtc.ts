/**
 * `npm run eval:build-qbqtc [-- --repo <git dir>] [--out <dir>]` builds the QBQTC collection
 * (QQ Browser Query Title Corpus, CLUE benchmark: short queries typed into a search engine, each
 * judged against result titles 0/1/2) into .cache/eval/qbqtc, outside git, from a clone or bare
 * git directory of CLUEbenchmark/QBQTC read at the pinned commit.
 *
 * As a retrieval collection: the corpus is every distinct title of dev.json, test_public.json and
 * test.json (test.json's are unjudged distractors); a query's judgments are its titles' labels
 * (gain = label, 0 = judged not relevant); only queries with a title labelled 1 or 2 are kept.
 * test_public.json's queries are the test split, dev.json's the train split (minus any query that
 * is also a test query). Each record is a page title ({title, text: ''}): the eval indexes it as
 * a Markdown document whose only line is the title as its heading.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultMirrors, EVAL_CACHE_DIR, mirrorOf } from '../real-docs/build-real-docs';

export const QBQTC = {
  name: 'qbqtc',
  repository: 'https://github.com/CLUEbenchmark/QBQTC',
  commit: '37a90b8923ae3b23e55e16ed1e2a6389574d8837',
  licence:
    'no licence file in the repository; published by the CLUE benchmark for research evaluation (nothing of it is committed here)',
} as const;

interface Pair {
  query: string;
  title: string;
  label: number | null;
}

function readPairs(repo: string, commit: string, file: string): Pair[] {
  const shown = spawnSync('git', ['-C', repo, 'show', `${commit}:dataset/${file}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (shown.status !== 0) throw new Error(`git show ${file} in ${repo} failed: ${shown.stderr.trim()}`);
  return shown.stdout
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const r = JSON.parse(line) as { query: string; title: string; label?: string };
      return {
        query: r.query.trim(),
        title: r.title.trim(),
        label: r.label === undefined ? null : Number(r.label),
      };
    })
    .filter((p) => p.query && p.title);
}

export function buildQbqtc(
  repo: string,
  out: string,
  commit: string = QBQTC.commit,
): { documents: number; test: number; train: number } {
  const test = readPairs(repo, commit, 'test_public.json');
  const train = readPairs(repo, commit, 'dev.json');
  const unjudged = readPairs(repo, commit, 'test.json');
  const titles = [...new Set([...test, ...train, ...unjudged].map((p) => p.title))].sort();
  const idOf = new Map(titles.map((title, i) => [title, `t${String(i).padStart(5, '0')}`]));
  mkdirSync(join(out, 'train'), { recursive: true });
  writeFileSync(
    join(out, 'corpus.jsonl'),
    titles.map((title) => JSON.stringify({ id: idOf.get(title), title, text: '' })).join('\n') + '\n',
  );
  const testQueries = new Set(test.map((p) => p.query));
  const writeSplit = (dir: string, pairs: Pair[], prefix: string) => {
    const judged = new Map<string, Map<string, number>>();
    for (const p of pairs) {
      const j = judged.get(p.query) ?? new Map<string, number>();
      j.set(idOf.get(p.title)!, Math.max(j.get(idOf.get(p.title)!) ?? 0, p.label ?? 0));
      judged.set(p.query, j);
    }
    const kept = [...judged].filter(([, j]) => [...j.values()].some((g) => g > 0));
    writeFileSync(
      join(dir, 'queries.jsonl'),
      kept.map(([text], i) => JSON.stringify({ id: `${prefix}${i + 1}`, text })).join('\n') + '\n',
    );
    writeFileSync(
      join(dir, 'qrels.tsv'),
      kept
        .flatMap(([, j], i) => [...j].map(([doc, grade]) => `${prefix}${i + 1}\t${doc}\t${grade}\n`))
        .join(''),
    );
    return kept.length;
  };
  const testCount = writeSplit(out, test, 'q');
  const trainCount = writeSplit(
    join(out, 'train'),
    train.filter((p) => !testQueries.has(p.query)),
    'tq',
  );
  writeFileSync(
    join(out, 'SOURCE.md'),
    [
      '# qbqtc (built by npm run eval:build-qbqtc; not redistributable here)',
      '',
      `QBQTC, the QQ Browser Query Title Corpus of the CLUE benchmark: ${QBQTC.repository} at ${commit}.`,
      `Licence: ${QBQTC.licence}.`,
      '',
      `Corpus: ${titles.length} distinct result titles (dev.json, test_public.json, and test.json's unjudged ones).`,
      `Test: ${testCount} queries of test_public.json with a title labelled 1 or 2 (gain = label; 0 = judged not relevant).`,
      `Train (train/): ${trainCount} queries of dev.json, none of them a test query. Tune on train/ only.`,
      '',
    ].join('\n'),
  );
  return { documents: titles.length, test: testCount, train: trainCount };
}

function main(): void {
  const { values } = parseArgs({ options: { repo: { type: 'string' }, out: { type: 'string' } } });
  const repo = values.repo ? resolve(values.repo) : mirrorOf(defaultMirrors() ?? '.mirror', QBQTC.repository);
  if (!existsSync(repo))
    throw new Error(
      `No git directory at ${repo}: pass --repo <clone or bare git dir of ${QBQTC.repository}>.`,
    );
  const out = resolve(values.out ?? join(EVAL_CACHE_DIR, QBQTC.name));
  const built = buildQbqtc(repo, out);
  process.stdout.write(
    `qbqtc: ${built.documents} titles, ${built.test} test and ${built.train} train queries → ${out}\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) main();
