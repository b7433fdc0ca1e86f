/**
 * The real-documents question sets and the documentation each is asked over. One collection per
 * set: the first set (questions.ts, over TiDB's docs-cn and TiKV's docs, sources.ts) and every
 * file in questions/, each exporting SOURCE ({name, repository, commit, licence, include(path)})
 * and QUESTIONS. A file whose SOURCE.name is 'real-docs' asks about the first set's corpus (gold
 * ids 'docs-cn/…', 'tikv/…'); any other names its own corpus, whose document ids are
 * '<SOURCE.name>/<path>'. The collection is named after the file.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { REAL_DOCS_QUESTIONS } from './questions';
import { REAL_DOCS_SOURCES, type RealDocsSource } from './sources';

export const QUESTIONS_DIR = join(import.meta.dirname, 'questions');
/** The SOURCE.name that means "the first set's corpus". */
export const FIRST_CORPUS = 'real-docs';

const sourceSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a lowercase name (it prefixes document ids)'),
  repository: z.string().regex(/^https:\/\/github\.com\/[^/]+\/[^/]+$/, 'https://github.com/<owner>/<name>'),
  commit: z.string().regex(/^[0-9a-f]{40}$/, 'a full 40-hex commit'),
  licence: z.string().min(1),
  include: z.custom<(path: string) => boolean>((v) => typeof v === 'function', 'a function of the path'),
});

const questionSchema = z.object({
  id: z.string().min(1),
  text: z.string().min(1),
  type: z.string().min(1),
  split: z.enum(['train', 'test']),
  gold: z.array(z.string().min(1)).min(1),
  answers: z.array(z.string().min(1)).min(1),
});

export type SetQuestion = z.infer<typeof questionSchema>;

export interface QuestionSet {
  /** Collection name: .cache/eval/<collection>. */
  collection: string;
  /** The file the questions come from, relative to the repository root. */
  file: string;
  sources: readonly RealDocsSource[];
  questions: readonly SetQuestion[];
}

export const FIRST_SET: QuestionSet = {
  collection: FIRST_CORPUS,
  file: 'bench/real-docs/questions.ts',
  sources: REAL_DOCS_SOURCES,
  questions: REAL_DOCS_QUESTIONS,
};

/** Validates one question file's exports; the error names the file and the field. */
export function questionSetOf(file: string, exports: Record<string, unknown>): QuestionSet {
  const where = (what: string, error: z.ZodError) =>
    new Error(
      `${file}: ${what}: ${error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
    );
  const source = sourceSchema.safeParse(exports.SOURCE);
  if (!source.success) throw where('SOURCE', source.error);
  const questions = z.array(questionSchema).min(1).safeParse(exports.QUESTIONS);
  if (!questions.success) throw where('QUESTIONS', questions.error);
  const ids = questions.data.map((q) => q.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) throw new Error(`${file}: question ids repeat: ${repeated.join(', ')}`);
  const s = source.data;
  return {
    collection: basename(file, '.ts'),
    file,
    sources: s.name === FIRST_CORPUS ? REAL_DOCS_SOURCES : [s],
    questions: questions.data,
  };
}

/** The first set, then every questions/*.ts in name order. */
export async function loadQuestionSets(): Promise<QuestionSet[]> {
  const files = readdirSync(QUESTIONS_DIR)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .sort();
  const sets = [FIRST_SET];
  for (const name of files) {
    const exports = (await import(pathToFileURL(join(QUESTIONS_DIR, name)).href)) as Record<string, unknown>;
    sets.push(questionSetOf(`bench/real-docs/questions/${name}`, exports));
  }
  return sets;
}
