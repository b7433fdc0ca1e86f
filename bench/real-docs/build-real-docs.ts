/**
 * `npm run eval:build-real-docs [-- --only <collection> ...] [--mirrors <dir>] [--repo <source>=<git dir>] [--out-root <dir>]`
 * builds every real-documents collection (question-sets.ts: the first set and each file in
 * questions/) into <out-root>/<collection> (default .cache/eval, outside git), from local clones
 * or bare git directories of the public repositories, read at their pinned commits with git:
 * corpus.jsonl (one record per included file, id = "<source>/<path>", the file verbatim: front
 * matter, shortcodes and HTML are what the pipeline must cope with), the questions split into
 * test (queries.jsonl, qrels.tsv, answers.jsonl: type and answer strings for the citation check)
 * and train/, and SOURCE.md (origin, commits, licence, the question file's commit).
 *
 * A repository https://github.com/<owner>/<name> is read from <mirrors>/<owner>+<name>/repo
 * (mirrors: --mirrors, else the nearest `.mirror` folder above the repository), or from the
 * directory given by --repo <source name>=<dir>.
 *
 * Checked before anything is written: every gold document is in the corpus, and every question
 * has an answer string in one of its gold documents. A question file from questions/ must be
 * committed, unchanged since, and (where a `main` branch exists) on main: questions are committed
 * before any search runs on their corpus, and the build is the first step of any search.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../report';
import { containsAnswer } from './answer-text';
import { FIRST_SET, loadQuestionSets, type QuestionSet, type SetQuestion } from './question-sets';
import type { RealDocsSource } from './sources';

export const EVAL_CACHE_DIR = join(REPO_ROOT, '.cache', 'eval');
export const DEFAULT_REAL_DOCS_DIR = join(EVAL_CACHE_DIR, FIRST_SET.collection);

function git(repo: string, args: string[], input?: string): Buffer {
  const result = spawnSync('git', ['-C', repo, ...args], { input, maxBuffer: 1 << 30 });
  if (result.status !== 0)
    throw new Error(`git ${args.join(' ')} in ${repo} failed: ${result.stderr.toString().trim()}`);
  return result.stdout;
}

/** Every included file at the pinned commit, read in one `git cat-file --batch`. */
export function readSource(repo: string, source: RealDocsSource): { path: string; text: string }[] {
  const hasCommit = spawnSync('git', ['-C', repo, 'cat-file', '-e', `${source.commit}^{commit}`]);
  if (hasCommit.status !== 0)
    throw new Error(`${repo} does not hold commit ${source.commit} of ${source.repository}.`);
  const paths = git(repo, ['ls-tree', '-r', '-z', '--name-only', source.commit])
    .toString('utf8')
    .split('\0')
    .filter((path) => path && source.include(path))
    .sort();
  const batch = git(
    repo,
    ['cat-file', '--batch'],
    paths.map((path) => `${source.commit}:${path}`).join('\n') + '\n',
  );
  const files: { path: string; text: string }[] = [];
  let offset = 0;
  for (const path of paths) {
    const headerEnd = batch.indexOf(10, offset);
    const header = batch.subarray(offset, headerEnd).toString('utf8');
    const size = Number(header.split(' ')[2]);
    if (!Number.isFinite(size)) throw new Error(`git cat-file: unexpected "${header}" for ${path}`);
    files.push({ path, text: batch.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8') });
    offset = headerEnd + 1 + size + 1;
  }
  return files;
}

/** The nearest `.mirror` folder above the repository (where `fetch` leaves bare git directories). */
export function defaultMirrors(): string | null {
  for (let dir = resolve(REPO_ROOT, '..'); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.mirror'))) return join(dir, '.mirror');
    if (dirname(dir) === dir) return null;
  }
}

export function mirrorOf(mirrors: string, repository: string): string {
  const [owner, name] = new URL(repository).pathname.split('/').filter(Boolean);
  return join(mirrors, `${owner}+${name}`, 'repo');
}

/** Problems that make a question unscorable: a gold id not in the corpus, no answer string in any gold page. */
export function questionProblems(
  questions: readonly SetQuestion[],
  textOf: ReadonlyMap<string, string>,
): string[] {
  const problems: string[] = [];
  for (const q of questions) {
    const missing = q.gold.filter((doc) => !textOf.has(doc));
    if (missing.length > 0)
      problems.push(`${q.id}: gold document(s) not in the corpus: ${missing.join(', ')}`);
    else if (!q.gold.some((doc) => containsAnswer(textOf.get(doc)!, q.answers)))
      problems.push(`${q.id}: no gold document contains any of ${JSON.stringify(q.answers)}`);
  }
  return problems;
}

/** The commit that last changed a question file; throws when it is uncommitted, changed, or not on main. */
export function questionFileCommit(file: string): string {
  const run = (args: string[]) => spawnSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' });
  const commit = run(['log', '-1', '--format=%H %cI', '--', file]).stdout.trim();
  if (!commit || run(['status', '--porcelain', '--', file]).stdout.trim())
    throw new Error(
      `${file} is not committed as it is: commit (and land) a question file before any search runs on its corpus.`,
    );
  const hasMain = run(['rev-parse', '--verify', '--quiet', 'main']).status === 0;
  if (hasMain && run(['merge-base', '--is-ancestor', commit.split(' ')[0]!, 'main']).status !== 0)
    throw new Error(`${file} at ${commit.split(' ')[0]} is not on main yet: land the questions first.`);
  return commit;
}

function jsonLines(records: readonly object[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

function writeSplit(dir: string, questions: readonly SetQuestion[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'queries.jsonl'), jsonLines(questions.map((q) => ({ id: q.id, text: q.text }))));
  writeFileSync(
    join(dir, 'qrels.tsv'),
    questions.flatMap((q) => q.gold.map((doc) => `${q.id}\t${doc}\t1\n`)).join(''),
  );
  writeFileSync(
    join(dir, 'answers.jsonl'),
    jsonLines(questions.map((q) => ({ id: q.id, type: q.type, answers: q.answers }))),
  );
}

export function buildQuestionSet(
  set: QuestionSet,
  repoOf: (source: RealDocsSource) => string,
  out: string,
  questionsCommit: string,
): { documents: number; questions: number } {
  const corpus: { id: string; title: string; text: string }[] = [];
  for (const source of set.sources)
    for (const file of readSource(repoOf(source), source))
      corpus.push({ id: `${source.name}/${file.path}`, title: '', text: file.text });
  const problems = questionProblems(set.questions, new Map(corpus.map((r) => [r.id, r.text])));
  if (problems.length > 0)
    throw new Error(
      `${set.file}: ${problems.length} question(s) cannot be scored:\n  ${problems.join('\n  ')}`,
    );
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'corpus.jsonl'), jsonLines(corpus));
  writeSplit(
    out,
    set.questions.filter((q) => q.split === 'test'),
  );
  writeSplit(
    join(out, 'train'),
    set.questions.filter((q) => q.split === 'train'),
  );
  const count = (split: string) => set.questions.filter((q) => q.split === split).length;
  writeFileSync(
    join(out, 'SOURCE.md'),
    [
      `# ${set.collection} (built by npm run eval:build-real-docs; not redistributable here)`,
      '',
      ...set.sources.map((s) => `- ${s.name}: ${s.repository} at ${s.commit} (${s.licence})`),
      '',
      `${corpus.length} documents. Questions, gold documents and answer strings: ${set.file} at ${questionsCommit}`,
      `(${set.questions.length}: ${count('test')} test, ${count('train')} train).`,
      '',
    ].join('\n'),
  );
  return { documents: corpus.length, questions: set.questions.length };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string', multiple: true },
      mirrors: { type: 'string' },
      repo: { type: 'string', multiple: true },
      'out-root': { type: 'string' },
    },
  });
  const mirrors = values.mirrors ? resolve(values.mirrors) : defaultMirrors();
  const given = new Map(
    (values.repo ?? []).map((pair) => {
      const [name, dir] = pair.split('=');
      if (!name || !dir) throw new Error(`--repo takes <source name>=<git dir>, got "${pair}"`);
      return [name, resolve(dir)];
    }),
  );
  const repoOf = (source: RealDocsSource) => {
    const dir = given.get(source.name) ?? (mirrors ? mirrorOf(mirrors, source.repository) : null);
    if (!dir || !existsSync(dir))
      throw new Error(
        `No git directory for ${source.name} (${source.repository}): pass --repo ${source.name}=<clone or bare git dir>` +
          (mirrors ? ` (looked in ${dir})` : ' or --mirrors <dir>'),
      );
    return dir;
  };
  const outRoot = resolve(values['out-root'] ?? EVAL_CACHE_DIR);
  const sets = (await loadQuestionSets()).filter((s) => !values.only || values.only.includes(s.collection));
  if (sets.length === 0) throw new Error(`No question set named ${values.only?.join(', ')}.`);
  for (const set of sets) {
    const commit =
      set === FIRST_SET
        ? git(REPO_ROOT, ['log', '-1', '--format=%H %cI', '--', set.file]).toString().trim()
        : questionFileCommit(set.file);
    const out = join(outRoot, set.collection);
    const built = buildQuestionSet(set, repoOf, out, commit);
    process.stdout.write(
      `${set.collection}: ${built.documents} documents, ${built.questions} questions → ${out}\n`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname))
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
