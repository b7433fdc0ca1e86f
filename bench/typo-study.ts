/**
 * `npx tsx bench/typo-study.ts <collection dir> [...]`: does the built-in embedder's vector tail
 * (character 3-5-grams hashed into the vector) make search tolerant of typos? Each collection is
 * indexed once through the real pipeline (as `npm run eval` indexes it); every test query is then
 * searched as written and with one typo in its longest Latin word (a letter dropped, doubled,
 * swapped with the next or replaced, chosen by a seeded generator), through the app's search with
 * its vector channel and without it (no query embedder), scored by nDCG@10 and P@1.
 *
 * A study (issue #26 item 1), not a test collection: the typos are generated, not what people type.
 */
import { resolve } from 'node:path';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import { loadCollection, type Collection } from './collection';
import { collectionDocuments, scoreRanking, averageScores } from './evaluate-collection';
import { MemoryConnector } from './memory-connector';
import { buildSemanticIndex, CONNECTION_ID, hybridSearchFor, openPipeline } from './pipeline';
import { machineFacts } from './process-stats';
import { currentCommit, markdownTable, num } from './report';
import { dedupe } from './metrics';

/** xorshift32: the same typos on every run. */
function generator(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The query with one edit in its longest Latin word of 5+ letters; null when it has none. */
export function withTypo(query: string, random: () => number): string | null {
  const words = [...query.matchAll(/[A-Za-z]{5,}/g)];
  if (words.length === 0) return null;
  const word = words.reduce((a, b) => (b[0].length > a[0].length ? b : a));
  const text = word[0];
  // Not the first letter: people rarely get it wrong, and a spell checker keys on it.
  const at = 1 + Math.floor(random() * (text.length - 1));
  const kind = Math.floor(random() * 4);
  const letter = LETTERS[Math.floor(random() * LETTERS.length)]!;
  const typo =
    kind === 0
      ? text.slice(0, at) + text.slice(at + 1)
      : kind === 1
        ? text.slice(0, at) + text[at] + text.slice(at)
        : kind === 2 && at < text.length - 1
          ? text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2)
          : text.slice(0, at) + (letter === text[at] ? 'x' : letter) + text.slice(at + 1);
  return query.slice(0, word.index) + typo + query.slice(word.index! + text.length);
}

async function study(collection: Collection): Promise<(string | number)[][]> {
  const embedder = new BuiltinEmbedder();
  const pipeline = await openPipeline({ embedder });
  try {
    const connector = new MemoryConnector();
    for (const document of collectionDocuments(collection.name, collection.corpus)) connector.put(document);
    const run = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
    await buildSemanticIndex(pipeline.db, embedder);
    if (run.status !== 'succeeded') throw new Error(`Indexing ${collection.name}: ${run.status}`);
    const withTail = hybridSearchFor(pipeline.db, embedder);
    const without = hybridSearchFor(pipeline.db, null);
    const random = generator(26);
    const variants = collection.queries.flatMap((q) => {
      const typo = withTypo(q.text, random);
      return typo ? [{ id: q.id, text: q.text, typo }] : [];
    });
    const rows: (string | number)[][] = [];
    for (const field of ['text', 'typo'] as const)
      for (const [label, search] of [
        ['with the vector tail (shipped)', withTail],
        ['without vectors', without],
      ] as const) {
        const scores = [];
        let empty = 0;
        for (const q of variants) {
          const found = await search.search({ query: q[field], k: 10 });
          if (found.documents.length === 0) empty += 1;
          const ranked = dedupe(found.documents.map((d) => d.best.externalId));
          scores.push(scoreRanking(ranked, collection.qrels.get(q.id)!));
        }
        const mean = averageScores(scores);
        rows.push([
          collection.name,
          field === 'text' ? 'as written' : 'one typo',
          label,
          variants.length,
          num(mean.ndcgAt10, 3),
          num(mean.pAt1, 3),
          empty,
        ]);
      }
    return rows;
  } finally {
    await pipeline.db.close();
  }
}

async function main(): Promise<void> {
  const dirs = process.argv.slice(2).map((dir) => resolve(dir));
  const machine = machineFacts();
  console.log(
    `typo study, commit ${currentCommit() ?? '?'}, load ${machine.loadAverage.join(' / ')}; ${dirs.join(', ')}`,
  );
  const rows: (string | number)[][] = [];
  for (const dir of dirs) rows.push(...(await study(loadCollection(dir, 'test'))));
  console.log(markdownTable(['collection', 'queries', 'search', 'n', 'nDCG@10', 'P@1', 'no result'], rows));
  console.log(`load at the end ${machineFacts().loadAverage.join(' / ')}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
