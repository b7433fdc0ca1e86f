/**
 * A corpus-independent stand-in for IDF. The built-in embedder has no corpus statistics (its
 * vectors must not change as the index grows), yet "the" must not weigh as much as "homocysteine".
 * Byte-pair encodings are built by merging the most frequent pairs first, so a token's rank in a
 * BPE vocabulary tracks how common it is on the web (roughly Zipf: log rank ≈ log of inverse
 * frequency), and a word the vocabulary has to split into pieces is rarer still. The prior of a term
 * is therefore the summed log rank of its pieces in OpenAI's o200k_base vocabulary, shipped offline
 * inside the `gpt-tokenizer` package (https://github.com/niieani/gpt-tokenizer).
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** Cache bound: plenty for a vocabulary, small enough to never matter for memory. */
const MAX_CACHED = 100_000;

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
      for (const rank of encode(spaced ? ` ${term}` : term)) surprisal += Math.log1p(rank);
      value = Math.pow(surprisal / this.scale, this.exponent);
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(term, value);
    }
    return value;
  }
}
