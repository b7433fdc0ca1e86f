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
const MAX_CACHED = 200_000;
const cache = new Map<string, number>();

/**
 * Summed ln(1 + rank) of the term's o200k_base pieces. Latin words are looked up with the leading
 * space they carry inside running text (" protein" is one token, "protein" may not be).
 */
export function termSurprisal(term: string, spaced: boolean): number {
  const key = spaced ? ` ${term}` : term;
  let value = cache.get(key);
  if (value === undefined) {
    value = 0;
    for (const rank of encode(key)) value += Math.log1p(rank);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, value);
  }
  return value;
}
