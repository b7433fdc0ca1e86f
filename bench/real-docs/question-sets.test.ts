import { describe, expect, it } from 'vitest';
import { FIRST_SET, loadQuestionSets, questionSetOf } from './question-sets';
import { REAL_DOCS_SOURCES } from './sources';

const SOURCE = {
  name: 'demo-docs',
  repository: 'https://github.com/example/docs',
  commit: 'a'.repeat(40),
  licence: 'Apache-2.0',
  include: (path: string) => path.endsWith('.md'),
};
const question = {
  id: 'd-01',
  text: '分区表',
  type: 'short-term',
  split: 'test',
  gold: ['demo-docs/a.md'],
  answers: ['分区'],
};

describe('questionSetOf', () => {
  it('names the collection after the file and reads its own corpus from SOURCE', () => {
    const set = questionSetOf('bench/real-docs/questions/demo-docs.ts', { SOURCE, QUESTIONS: [question] });
    expect(set.collection).toBe('demo-docs');
    expect(set.sources).toEqual([SOURCE]);
  });

  it("asks a SOURCE named 'real-docs' about the first set's corpus", () => {
    const set = questionSetOf('bench/real-docs/questions/fresh.ts', {
      SOURCE: { ...SOURCE, name: 'real-docs' },
      QUESTIONS: [question],
    });
    expect(set.sources).toBe(REAL_DOCS_SOURCES);
  });

  it('rejects a malformed file with the field named', () => {
    expect(() =>
      questionSetOf('q.ts', { SOURCE: { ...SOURCE, commit: 'main' }, QUESTIONS: [question] }),
    ).toThrow(/q\.ts: SOURCE: commit/);
    expect(() => questionSetOf('q.ts', { SOURCE, QUESTIONS: [{ ...question, split: 'dev' }] })).toThrow(
      /QUESTIONS: 0\.split/,
    );
    expect(() => questionSetOf('q.ts', { SOURCE, QUESTIONS: [question, question] })).toThrow(
      /ids repeat: d-01/,
    );
  });

  it('loads the first set and every committed question file', async () => {
    const sets = await loadQuestionSets();
    expect(sets[0]).toBe(FIRST_SET);
    for (const set of sets) expect(set.questions.length).toBeGreaterThan(0);
    expect(new Set(sets.map((s) => s.collection)).size).toBe(sets.length);
  });
});
