import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src-main/core/db/database';
import {
  memoizedReads,
  ruleVariantsFor,
  ruleVerdicts,
  type CollectionAblation,
  type VariantScores,
} from './rule-ablation';

const scores = (variant: string, hybridNdcg: number, citation: number | null = null): VariantScores => ({
  variant,
  keyword: { ndcgAt10: 0.5, pAt1: 0.4 },
  hybrid: { ndcgAt10: hybridNdcg, pAt1: 0.5 },
  citation,
});

const collection = (name: string, variants: VariantScores[]): CollectionAblation => ({
  collection: name,
  split: 'test',
  queries: 10,
  reference: { ndcgAt10: 0.4, pAt1: 0.3 },
  variants,
});

describe('ruleVerdicts', () => {
  it('keeps a rule that gains on two collections and costs none more than 0.005', () => {
    const verdicts = ruleVerdicts([
      collection('a', [scores('all rules', 0.6), scores('without functionWordTier', 0.58)]),
      collection('b', [scores('all rules', 0.6), scores('without functionWordTier', 0.599)]),
      collection('c', [scores('all rules', 0.6), scores('without functionWordTier', 0.604)]),
    ]);
    const phrase = verdicts.find((v) => v.rule === 'functionWordTier')!;
    expect(phrase).toMatchObject({ gainsOn: ['a', 'b'], costsOn: [], inertOn: [], keep: true });
  });

  it('removes a rule that costs one collection more than 0.005, gains on only one or changes nothing; each rule judged on the scores it acts on', () => {
    const verdicts = ruleVerdicts([
      collection('a', [
        scores('all rules', 0.6, 0.7),
        scores('without headingBonus', 0.5),
        scores('without frameTier', 0.59),
        scores('without keyTermPassages', 0.6, 0.6),
        scores('without functionWordTier', 0.6, 0.9),
      ]),
      collection('b', [
        scores('all rules', 0.6, 0.7),
        scores('without headingBonus', 0.61),
        scores('without frameTier', 0.6),
        scores('without keyTermPassages', 0.6, 0.7),
        scores('without functionWordTier', 0.6, 0.7),
      ]),
      // No citation here: a passage rule is not judged on this collection.
      collection('c', [scores('all rules', 0.6), scores('without keyTermPassages', 0.5)]),
    ]);
    const of = (rule: string) => verdicts.find((v) => v.rule === rule)!;
    expect(of('headingBonus').costsOn).toEqual([
      { collection: 'b', score: 'hybrid nDCG@10', diff: expect.closeTo(-0.01, 9) },
    ]);
    expect(of('headingBonus').keep).toBe(false);
    expect(of('frameTier')).toMatchObject({ gainsOn: ['a'], inertOn: ['b'], keep: false });
    // A passage rule is judged on the citation alone: the key-term rule gains on a only.
    expect(of('keyTermPassages')).toMatchObject({ gainsOn: ['a'], costsOn: [], inertOn: ['b'], keep: false });
    // A search rule on its rankings alone: the citation it costs on a is shown, not counted.
    expect(of('functionWordTier')).toMatchObject({ gainsOn: [], costsOn: [], inertOn: ['a', 'b'] });
  });
});

describe('ruleVariantsFor (--ablate)', () => {
  it('studies all rules and the named rules off alone, and judges only the rules studied', () => {
    const variants = ruleVariantsFor(['loneCharacterPairs']);
    expect(variants.map((v) => v.name)).toEqual(['all rules', 'without loneCharacterPairs']);
    expect(variants[1]!.rules).toMatchObject({ loneCharacterPairs: false, headingBonus: true });
    expect(() => ruleVariantsFor(['noSuchRule'])).toThrow(/noSuchRule/);
    const verdicts = ruleVerdicts([
      collection('a', [scores('all rules', 0.6), scores('without loneCharacterPairs', 0.58)]),
    ]);
    expect(verdicts.map((v) => v.rule)).toEqual(['loneCharacterPairs']);
  });
});

describe('memoizedReads', () => {
  let db: Db | null = null;
  afterEach(async () => {
    await db?.close();
    db = null;
  });

  it('answers a statement already run with the same parameters from memory until cleared', async () => {
    db = await openDatabase();
    await db.exec('CREATE TEMP TABLE t (n int); INSERT INTO t VALUES (1)');
    const reads = memoizedReads(db);
    const count = async (min: number) =>
      (await reads.db.query<{ c: number }>('SELECT count(*)::int AS c FROM t WHERE n >= $1', [min])).rows[0]!
        .c;
    expect(await count(0)).toBe(1);
    await db.exec('INSERT INTO t VALUES (2)');
    expect(await count(0)).toBe(1);
    // Other parameters are another statement.
    expect(await count(1)).toBe(2);
    reads.clear();
    expect(await count(0)).toBe(2);
  });
});
