/**
 * A corpus-independent stand-in for IDF. The built-in embedder has no corpus statistics (its
 * vectors must not change as the index grows), yet "the" must not weigh as much as "homocysteine".
 * Byte-pair encodings are built by merging the most frequent pairs first, so a token's rank in a
 * BPE vocabulary tracks how common it is on the web (roughly Zipf: log rank ≈ log of inverse
 * frequency), and a word the vocabulary has to split into pieces is rarer still. The prior of a term
 * is therefore the summed log rank of its pieces in OpenAI's o200k_base vocabulary, shipped offline
 * inside the `gpt-tokenizer` package (https://github.com/niieani/gpt-tokenizer).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { O200kEncoder } from './o200k-encoder';
import { RankTable } from './rank-table';

/** Cache bound: plenty for a vocabulary, small enough to never matter for memory. */
const MAX_CACHED = 100_000;

/** The rank table the build writes beside the bundle (scripts/build-cli.mjs). */
export const RANK_TABLE_FILE = 'o200k_base.ranks';

type Encode = (text: string) => number[];
let loaded: Encode | undefined;

/** o200k_base's `encode`, loaded once per process (`loadO200kEncode`). */
export function o200kEncode(): Encode {
  // Beside the chunk that holds this code (out/cli, out/main), as workers/worker-host.ts finds its worker.
  loaded ??= loadO200kEncode(join(dirname(fileURLToPath(import.meta.url)), RANK_TABLE_FILE));
  return loaded;
}

/**
 * o200k_base's `encode`: over the build's rank table when it is there and made from the installed
 * gpt-tokenizer (one file read), else gpt-tokenizer's own (its module and Map cost a one-shot
 * command ~1 s of CPU: docs/decisions/cli-startup.md). Both give the same tokens. Synchronous,
 * because weights are asked for inside the embedder's synchronous loop.
 */
export function loadO200kEncode(tableFile: string): Encode & { source: 'table' | 'gpt-tokenizer' } {
  const require = createRequire(import.meta.url);
  const packageJson = readFileSync(require.resolve('gpt-tokenizer/package.json'), 'utf8');
  const version = (JSON.parse(packageJson) as { version: string }).version;
  let table: RankTable | undefined;
  try {
    table = RankTable.read(readFileSync(tableFile));
  } catch {
    // From source (tests, tsx) there is no build output: gpt-tokenizer answers instead.
  }
  if (table && table.sourceVersion === version) {
    const encoder = new O200kEncoder(table);
    return Object.assign((text: string) => encoder.encode(text), { source: 'table' as const });
  }
  const { encode } = require('gpt-tokenizer/encoding/o200k_base') as { encode: Encode };
  return Object.assign((text: string) => encode(text), { source: 'gpt-tokenizer' as const });
}

/**
 * Weight of a term: (summed ln(1 + rank) of its o200k_base pieces / scale) ^ exponent, cached per
 * instance because the embedder asks for the same terms thousands of times per second. Latin words
 * are looked up with the leading space they carry in running text (" protein" is one token).
 */
export class TermPrior {
  private readonly spaced = new Map<string, number>();
  private readonly bare = new Map<string, number>();

  constructor(
    private readonly scale: number,
    private readonly exponent: number,
  ) {}

  weight(term: string, spaced: boolean): number {
    const cache = spaced ? this.spaced : this.bare;
    let value = cache.get(term);
    if (value === undefined) {
      let surprisal = 0;
      for (const rank of o200kEncode()(spaced ? ` ${term}` : term)) surprisal += Math.log1p(rank);
      value = Math.pow(surprisal / this.scale, this.exponent);
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(term, value);
    }
    return value;
  }
}
