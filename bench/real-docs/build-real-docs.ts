/**
 * `npm run eval:build-real-docs -- --docs-cn <git dir or clone> --tikv <git dir or clone> [--out <dir>]`
 * builds the real-documents eval collection (default .cache/eval/real-docs, outside git) from
 * local copies of the public repositories in sources.ts, read at their pinned commits with git:
 * corpus.jsonl (one record per Markdown file, id = "<source>/<path>", the file verbatim: front
 * matter, shortcodes and HTML are what the pipeline must cope with), our questions split into
 * test (queries.jsonl, qrels.tsv) and train/ (for tuning), and answers.jsonl (question type and
 * the answer string the citation check looks for).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../report';
import { REAL_DOCS_QUESTIONS, type RealDocsQuestion } from './questions';
import { REAL_DOCS_SOURCES, type RealDocsSource } from './sources';

export const DEFAULT_REAL_DOCS_DIR = join(REPO_ROOT, '.cache', 'eval', 'real-docs');

function git(repo: string, args: string[], input?: string): Buffer {
  const result = spawnSync('git', ['-C', repo, ...args], {
    input,
    maxBuffer: 1 << 30,
  });
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

function jsonLines(records: readonly object[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

function writeSplit(dir: string, questions: readonly RealDocsQuestion[]): void {
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

export function buildRealDocs(repos: Record<RealDocsSource['name'], string>, out: string): number {
  const corpus: { id: string; title: string; text: string }[] = [];
  for (const source of REAL_DOCS_SOURCES)
    for (const file of readSource(repos[source.name], source))
      corpus.push({ id: `${source.name}/${file.path}`, title: '', text: file.text });
  const textOf = new Map(corpus.map((r) => [r.id, r.text]));
  for (const q of REAL_DOCS_QUESTIONS) {
    for (const doc of q.gold)
      if (!textOf.has(doc)) throw new Error(`${q.id}: gold document ${doc} is not in the corpus.`);
    // An answer string that no gold page holds would make the citation check fail whatever we do.
    if (!q.gold.some((doc) => q.answers.some((a) => textOf.get(doc)!.includes(a))))
      throw new Error(`${q.id}: no gold document contains any of ${JSON.stringify(q.answers)}.`);
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'corpus.jsonl'), jsonLines(corpus));
  writeSplit(
    out,
    REAL_DOCS_QUESTIONS.filter((q) => q.split === 'test'),
  );
  writeSplit(
    join(out, 'train'),
    REAL_DOCS_QUESTIONS.filter((q) => q.split === 'train'),
  );
  writeFileSync(
    join(out, 'SOURCE.md'),
    [
      '# real-docs (built by npm run eval:build-real-docs; not redistributable here)',
      '',
      ...REAL_DOCS_SOURCES.map((s) => `- ${s.name}: ${s.repository} at ${s.commit} (${s.licence})`),
      '',
      `Questions, gold documents and answer strings: bench/real-docs/questions.ts (${REAL_DOCS_QUESTIONS.length}).`,
      '',
    ].join('\n'),
  );
  return corpus.length;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      'docs-cn': { type: 'string' },
      tikv: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const docsCn = values['docs-cn'];
  const tikv = values.tikv;
  if (!docsCn || !tikv) {
    process.stderr.write(
      `Usage: npm run eval:build-real-docs -- --docs-cn <git dir or clone of pingcap/docs-cn> --tikv <git dir or clone of tikv/website> [--out <dir>]\n` +
        REAL_DOCS_SOURCES.map((s) => `  ${s.name}: ${s.repository} at ${s.commit}\n`).join(''),
    );
    process.exit(2);
  }
  const out = resolve(values.out ?? DEFAULT_REAL_DOCS_DIR);
  const documents = buildRealDocs({ 'docs-cn': resolve(docsCn), tikv: resolve(tikv) }, out);
  process.stdout.write(
    `${documents} documents and ${REAL_DOCS_QUESTIONS.length} questions written to ${out}\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) main();
