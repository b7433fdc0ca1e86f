/**
 * Signed feature hashing ("the hashing trick", Weinberger et al. 2009, arXiv:0902.2206) of a text's
 * lexical features into a fixed-size vector. Pure and deterministic: the same text gives the same
 * vector on every machine, so vectors written by one version can be compared with later queries as
 * long as the feature set (and therefore the model name) is unchanged.
 */
import { analyzeText, type AnalyzedText } from '../text/analyzer';
import { TermPrior } from './term-prior';
import { l2Normalise } from './vector-math';

/** Relative weight of each feature family; 0 turns a family off. */
export interface HashFeatureWeights {
  /** Analysed words (Latin stems, CJK dictionary words), as in the keyword channel. */
  word: number;
  /** Adjacent word pairs: carries phrase and word-order evidence. */
  wordBigram: number;
  /** Character n-grams of each Latin-script token with boundary markers ("<acti", "tiv>"): typos, morphology. */
  charNgram: number;
  /** Single Han, kana or Hangul characters: the CJK equivalent of a stem. */
  cjkChar: number;
  /** The keyword channel's CJK unit bigrams (差旅, 1998年): robust to segmentation mistakes. */
  cjkBigram: number;
}

export interface HashFeatureOptions {
  weights: HashFeatureWeights;
  /** Smallest and largest character n-gram for Latin-script tokens. */
  charNgramMin: number;
  charNgramMax: number;
  /**
   * Term weighting by a frequency prior (term-prior.ts): weight = (surprisal / scale) ^ exponent.
   * Null weighs every term 1.
   */
  prior: { scale: number; exponent: number } | null;
  /** Segment Han/kana words with ICU (else CJK runs count only through `cjkChar`/`cjkBigram`). */
  segmentCjk: boolean;
}

const DIGITS_ONLY = /^\p{N}+$/u;
const CJK_CHAR = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]$/u;

/** Distinct seeds keep the families apart: the word "ab" and the bigram "ab" are different features. */
const SEED = {
  word: 0x9e3779b1,
  wordBigram: 0x85ebca6b,
  charNgram: 0xc2b2ae35,
  cjkChar: 0x27d4eb2f,
  cjkBigram: 0x165667b1,
} as const;

export type Family = keyof HashFeatureWeights;

const EMPTY_TEXT_FEATURE = 0x2545f491;

/**
 * Adds `text`'s features into `out` (zeroed by the caller) and L2-normalises it. A text with no
 * features (emoji, punctuation) gets one fixed unit vector instead of zeros, because cosine distance
 * to a zero vector is undefined (NaN in pgvector).
 */
export function hashFeatures(
  text: string | AnalyzedText,
  out: Float32Array,
  options: HashFeatureOptions,
): void {
  let any = false;
  forEachFeature(text, options, (family, bucket, value) => {
    out[bucket % out.length] += value * options.weights[family];
    any = true;
  });
  if (!any || out.every((value) => value === 0)) out[mix(EMPTY_TEXT_FEATURE) % out.length] = 1;
  l2Normalise(out);
}

/**
 * Calls `sink` once per distinct feature of each enabled family with its signed value before
 * family weighting: sublinear tf times the mean term prior of the words that produced it. `bucket`
 * is a non-negative 31-bit hash the caller reduces modulo its size. Split out so tuning can weigh
 * the families without re-analysing the text.
 */
export function forEachFeature(
  text: string | AnalyzedText,
  options: HashFeatureOptions,
  sink: (family: Family, bucket: number, value: number) => void,
): void {
  const bag = new FeatureBag();
  const { weights } = options;
  const termPrior = options.prior ? priorFor(options.prior) : null;
  const prior = (term: string, spaced: boolean) => (termPrior ? termPrior.weight(term, spaced) : 1);
  let previous: { token: string; weight: number } | null = null;
  // A caller may pass the analysis it already has (made with the same `segmentCjk`).
  const analysed = typeof text === 'string' ? analyzeText(text, { segment: options.segmentCjk }) : text;
  for (const word of analysed.words) {
    if (word.tokens.length === 0) continue;
    const weight = prior(word.surface, !word.cjk);
    if (word.cjk && !options.segmentCjk) continue;
    for (const token of word.tokens) {
      if (weights.word) bag.add('word', hashString(token, SEED.word), weight);
      if (weights.wordBigram && previous !== null)
        bag.add('wordBigram', hashPair(previous.token, token), (previous.weight + weight) / 2);
      previous = { token, weight };
      if (weights.charNgram && !word.cjk && !DIGITS_ONLY.test(token))
        addCharNgrams(bag, token, weight, options);
    }
  }
  if (weights.cjkChar || weights.cjkBigram) {
    for (const units of analysed.cjkRuns) {
      let previous = '';
      for (const unit of units) {
        if (weights.cjkChar && CJK_CHAR.test(unit))
          bag.add('cjkChar', hashString(unit, SEED.cjkChar), prior(unit, false));
        if (weights.cjkBigram && previous)
          bag.add('cjkBigram', hashString(previous + unit, SEED.cjkBigram), prior(previous + unit, false));
        previous = unit;
      }
    }
  }
  bag.emit(weights, sink);
}

const priors = new Map<string, TermPrior>();

function priorFor(settings: { scale: number; exponent: number }): TermPrior {
  const key = `${settings.scale}/${settings.exponent}`;
  let prior = priors.get(key);
  if (!prior) priors.set(key, (prior = new TermPrior(settings.scale, settings.exponent)));
  return prior;
}

/**
 * Per family: how often each hashed feature occurred, and the summed prior of its occurrences. One
 * map from hash to slot and parallel arrays (three maps cost ~6 look-ups per feature, the largest
 * share of the embedder's hashing); slots are in first-occurrence order, as the maps iterated, so
 * every vector is bit-for-bit what it was.
 */
class FeatureBag {
  private readonly slots = new Map<number, number>();
  private readonly hashes: number[] = [];
  private readonly tf: number[] = [];
  private readonly weight: number[] = [];
  private readonly family: Family[] = [];

  add(family: Family, hash: number, weight: number): void {
    // Families hash with distinct seeds; a 32-bit clash across families is rare enough to share a slot.
    const slot = this.slots.get(hash);
    if (slot === undefined) {
      this.slots.set(hash, this.hashes.length);
      this.hashes.push(hash);
      this.tf.push(1);
      this.weight.push(weight);
      this.family.push(family);
    } else {
      this.tf[slot]!++;
      this.weight[slot]! += weight;
      this.family[slot] = family;
    }
  }

  emit(weights: HashFeatureWeights, sink: (family: Family, bucket: number, value: number) => void): void {
    for (let slot = 0; slot < this.hashes.length; slot++) {
      const family = this.family[slot]!;
      if (!weights[family]) continue;
      const tf = this.tf[slot]!;
      const mixed = mix(this.hashes[slot]!);
      // Sublinear tf (1 + ln tf): a word said ten times is stronger evidence, not ten times stronger.
      // The sign bit makes bucket collisions cancel in expectation instead of piling up.
      const value = (mixed & 0x80000000 ? -1 : 1) * (1 + Math.log(tf)) * (this.weight[slot]! / tf);
      sink(family, mixed & 0x7fffffff, value);
    }
  }
}

function addCharNgrams(bag: FeatureBag, token: string, weight: number, options: HashFeatureOptions): void {
  const marked = `<${token}>`;
  const length = marked.length;
  for (let start = 0; start < length; start++) {
    let hash: number = SEED.charNgram;
    for (let end = start; end < length && end - start < options.charNgramMax; end++) {
      hash = fnvStep(hash, marked.charCodeAt(end));
      const n = end - start + 1;
      // The whole marked token is already the word feature; skip it to avoid counting it twice.
      if (n >= options.charNgramMin && !(start === 0 && end === length - 1))
        bag.add('charNgram', hash, weight);
    }
  }
}

/** One FNV-1a step (http://www.isthe.com/chongo/tech/comp/fnv/) over a code unit or code point. */
function fnvStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 16777619) >>> 0;
}

function hashString(text: string, seed: number): number {
  let hash: number = seed;
  for (let i = 0; i < text.length; i++) hash = fnvStep(hash, text.charCodeAt(i));
  return hash;
}

function hashPair(first: string, second: string): number {
  return fnvStep(hashString(second, fnvStep(hashString(first, SEED.wordBigram), 0x20)), 0x1f);
}

/** MurmurHash3's finaliser spreads FNV's weak low bits before we pick a bucket and a sign. */
function mix(hash: number): number {
  let h = hash;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
