/**
 * One hybrid search, this checkout against another, interleaved in one process on one index (issue
 * #15): `npx tsx scripts/measure/search-ab.ts <dataDir> <other checkout> [--rounds n]`, e.g. a
 * `git worktree add --detach /tmp/base main` whose node_modules is a link to this one's. Each query
 * runs through both checkouts' HybridSearch, each first in turn; the first round warms up.
 * Medians of CPU time (process.cpuUsage: PGlite runs in this thread) and wall time, and whether both
 * returned the same hits in the same order. On a machine shared with other jobs only this
 * interleaved ratio means much: absolute times move with the load.
 */
import { resolve } from 'node:path';
import { openDatabase } from '../../src-main/core/db/database';
import { BuiltinEmbedder } from '../../src-main/core/embedding/builtin-embedder';
import { generateQueries } from '../../bench/corpus';
import { hybridSearchFor } from '../../bench/pipeline';

const [dataDir, other] = process.argv.slice(2);
if (!dataDir || !other) throw new Error('usage: search-ab.ts <dataDir> <other checkout> [--rounds n]');
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;

type Search = ReturnType<typeof hybridSearchFor>;
const otherPipeline = (await import(resolve(other, 'bench/pipeline.ts'))) as {
  hybridSearchFor: typeof hybridSearchFor;
};
const db = await openDatabase({ dataDir });
const embedder = new BuiltinEmbedder();
const searches: Record<'other' | 'this', Search> = {
  other: otherPipeline.hybridSearchFor(db, embedder),
  this: hybridSearchFor(db, embedder),
};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const times = {
  other: { cpu: [] as number[], wall: [] as number[] },
  this: { cpu: [] as number[], wall: [] as number[] },
};
let differing = 0;
const queries = generateQueries(200, 1);
for (let round = 0; round < rounds; round++)
  for (const [index, query] of queries.entries()) {
    const keys: Record<string, string> = {};
    // The side that runs second finds the query's pages and rows warm: an A/A run measured the
    // second 0.89x the first. So the order alternates from query to query and round to round.
    const order = (index + round) % 2 === 0 ? (['other', 'this'] as const) : (['this', 'other'] as const);
    for (const side of order) {
      const [cpu, wall] = [cpuMs(), performance.now()];
      const result = await searches[side].search({ query, k: 10 });
      if (round > 0) {
        times[side].cpu.push(cpuMs() - cpu);
        times[side].wall.push(performance.now() - wall);
      }
      keys[side] = JSON.stringify([result.hits.map((h) => h.key), result.documents.map((d) => d.best.key)]);
    }
    if (round === 0 && keys.other !== keys.this) differing += 1;
  }
await db.close();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
for (const side of ['other', 'this'] as const)
  console.log(
    `${side.padEnd(5)} CPU p50 ${median(times[side].cpu).toFixed(2)} ms, wall p50 ${median(times[side].wall).toFixed(2)} ms (${times[side].cpu.length} searches)`,
  );
console.log(
  `this / other: CPU ${(median(times.this.cpu) / median(times.other.cpu)).toFixed(2)}x, wall ${(median(times.this.wall) / median(times.other.wall)).toFixed(2)}x; ` +
    `queries whose hits or documents differ: ${differing} of ${queries.length}`,
);
