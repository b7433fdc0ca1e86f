/**
 * SentencePiece's "Precompiled" normaliser (the nmt_nfkc charsmap inside the tokenizer.json of
 * XLM-R family models: multilingual-e5, bge-m3, the bge rerankers), done the way the Rust
 * `tokenizers` crate does it (spm_precompiled): a Darts-clone double-array trie over UTF-8 bytes,
 * tried first on each grapheme cluster shorter than 6 bytes, then on each of its characters.
 *
 * Why: @huggingface/tokenizers ignores the charsmap and approximates it with a few regexes and
 * `normalize('NFKC')`, which differs from the reference on ZWJ (U+200D: emoji sequences break) and
 * on characters whose NFKC mapping changed after the charsmap was built. Measured over every code
 * point U+0000–U+2FFFF: 22 differences with the approximation, 0 with this (docs/decisions/local-models.md).
 * Use `withPrecompiledStripped`: it removes the step from the JSON given to the JS tokenizer and
 * returns this normaliser to run on the text first.
 */

export class PrecompiledNormalizer {
  private readonly trie: Uint32Array;
  private readonly normalized: Buffer;
  private readonly segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  private readonly cache = new Map<string, string>();

  constructor(base64: string) {
    const bytes = Buffer.from(base64, 'base64');
    const trieSize = bytes.readUInt32LE(0);
    this.trie = new Uint32Array(trieSize / 4);
    for (let i = 0; i < this.trie.length; i++) this.trie[i] = bytes.readUInt32LE(4 + i * 4);
    this.normalized = bytes.subarray(4 + trieSize);
  }

  /** The replacement of the first (shortest) prefix of `key` found in the trie, or null. */
  private transform(key: Uint8Array): string | null {
    const units = this.trie;
    const offset = (unit: number) => (unit >>> 10) << ((unit & (1 << 9)) >>> 6);
    let position = 0;
    let unit = units[position] ?? 0;
    position ^= offset(unit);
    for (const byte of key) {
      if (byte === 0) break;
      position ^= byte;
      const next = units[position];
      if (next === undefined || (next & 0x800000ff) >>> 0 !== byte) return null;
      unit = next;
      position ^= offset(unit);
      if ((unit >>> 8) & 1) {
        const start = (units[position] ?? 0) & 0x7fffffff;
        let end = start;
        while (end < this.normalized.length && this.normalized[end] !== 0) end++;
        return this.normalized.subarray(start, end).toString('utf8');
      }
    }
    return null;
  }

  normalize(text: string): string {
    let out = '';
    for (const { segment } of this.segmenter.segment(text)) {
      const cached = this.cache.get(segment);
      if (cached !== undefined) {
        out += cached;
        continue;
      }
      const bytes = Buffer.from(segment, 'utf8');
      let result = bytes.length < 6 ? this.transform(bytes) : null;
      if (result === null) {
        result = '';
        for (const char of segment) result += this.transform(Buffer.from(char, 'utf8')) ?? char;
      }
      if (this.cache.size < 50_000) this.cache.set(segment, result);
      out += result;
    }
    return out;
  }
}

interface NormalizerJson {
  type?: string;
  precompiled_charsmap?: string;
  normalizers?: NormalizerJson[];
}

/**
 * A copy of tokenizer.json without its leading Precompiled normaliser, and the function to apply
 * to every text before encoding (identity when there is none).
 */
export function withPrecompiledStripped<T extends { normalizer?: NormalizerJson | null }>(
  tokenizerJson: T,
): { json: T; pre: (text: string) => string } {
  const normalizer = tokenizerJson.normalizer;
  let charsmap: string | undefined;
  let rest: NormalizerJson | null = null;
  if (normalizer?.type === 'Precompiled') charsmap = normalizer.precompiled_charsmap;
  else if (normalizer?.type === 'Sequence' && normalizer.normalizers?.[0]?.type === 'Precompiled') {
    charsmap = normalizer.normalizers[0].precompiled_charsmap;
    rest = { ...normalizer, normalizers: normalizer.normalizers.slice(1) };
  }
  if (!charsmap) return { json: tokenizerJson, pre: (text) => text };
  const precompiled = new PrecompiledNormalizer(charsmap);
  return { json: { ...tokenizerJson, normalizer: rest }, pre: (text) => precompiled.normalize(text) };
}
