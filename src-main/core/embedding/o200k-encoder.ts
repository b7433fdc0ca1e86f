/**
 * gpt-tokenizer's `encode` for o200k_base (version pinned in package.json), token for token, over
 * the flat rank table of rank-table.ts instead of the package's 200k-entry Map. It follows
 * gpt-tokenizer's BytePairEncodingCore step by step: the same pre-tokenizing regex, a whole piece
 * looked up as text first, else byte-pair merging (lowest rank first, leftmost on a tie) where a
 * byte range is looked up as text when it is valid UTF-8 and as raw bytes otherwise. The
 * token-identity test (o200k-encoder.test.ts) compares it with gpt-tokenizer on every token of the
 * vocabulary and on generated text in many scripts.
 */
import { LONE_SURROGATE, type RankTable } from './rank-table';

// gpt-tokenizer's O200K_TOKEN_SPLIT_REGEX (encodingParams/constants); the test checks it is equal.
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
export const O200K_SPLIT = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
);

/** o200k_base's special tokens: `encode` refuses text holding one, as gpt-tokenizer does by default. */
export const O200K_SPECIAL_TOKENS = [
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  '<|im_start|>',
  '<|im_end|>',
  '<|im_sep|>',
  '<|endofprompt|>',
];
const SPECIAL = new RegExp(O200K_SPECIAL_TOKENS.map((token) => token.replace(/[|]/g, '\\|')).join('|'));

const textEncoder = new TextEncoder();

/**
 * Texts O200K_SPLIT keeps whole, checked without it: an optional space, then a Latin word of
 * lowercase letters after optional capitals, or capitals only, or CJK Unified Ideographs (all
 * \p{Lo}). Nearly every term the prior weighs is one of these, and the first run of O200K_SPLIT
 * costs ~0.1-0.3 s of regex compiling in a fresh process (docs/decisions/cli-startup.md).
 */
const ONE_PIECE = /^ ?(?:[A-Z]*[a-z]+|[A-Z]+|[\u4e00-\u9fff]+)$/;

export class O200kEncoder {
  constructor(private readonly table: RankTable) {}

  encode(text: string): number[] {
    const out: number[] = [];
    if (ONE_PIECE.test(text)) {
      this.piece(text, out);
      return out;
    }
    const special = SPECIAL.exec(text);
    if (special) throw new Error(`Disallowed special token found: ${special[0]}`);
    for (const [piece] of text.matchAll(O200K_SPLIT)) this.piece(piece, out);
    return out;
  }

  /** One pre-token: the whole piece when it is a token, else byte-pair merged. */
  private piece(piece: string, out: number[]): void {
    // A piece with a lone surrogate is no Map key there: it goes to merging as UTF-8 (U+FFFD).
    const bytes = textEncoder.encode(piece);
    const whole = LONE_SURROGATE.test(piece) ? -1 : this.table.stringRank(bytes);
    if (whole !== -1) out.push(whole);
    else this.merge(bytes, out);
  }

  private rank(piece: Uint8Array, start: number, end: number): number {
    const rank = isValidUtf8(piece, start, end)
      ? this.table.stringRank(piece, start, end)
      : this.table.bytesRank(piece, start, end);
    return rank === -1 ? Infinity : rank;
  }

  /** gpt-tokenizer's bytePairMerge. */
  private merge(piece: Uint8Array, out: number[]): void {
    const starts: number[] = [];
    const ranks: number[] = [];
    const pairRank = (i: number) =>
      i + 2 < starts.length ? this.rank(piece, starts[i]!, starts[i + 2]!) : Infinity;
    for (let i = 0; i <= piece.length; i++) {
      starts.push(i);
      ranks.push(i < piece.length - 1 ? this.rank(piece, i, i + 2) : Infinity);
    }
    while (starts.length > 1) {
      let lowest = Infinity;
      let at = -1;
      for (let i = 0; i < ranks.length - 1; i++)
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      if (at === -1) break;
      starts.splice(at + 1, 1);
      ranks.splice(at, 1);
      ranks[at] = pairRank(at);
      if (at > 0) ranks[at - 1] = pairRank(at - 1);
    }
    for (let i = 0; i < starts.length - 1; i++) {
      const rank = this.rank(piece, starts[i]!, starts[i + 1]!);
      if (rank === Infinity) throw new Error('The byte-pair encoding does not contain a value for a piece');
      out.push(rank);
    }
  }
}

/** gpt-tokenizer's isValidUTF8 (utfUtil.ts): strict UTF-8, no overlongs, no surrogates. */
function isValidUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const byte1 = bytes[i]!;
    let count: number;
    let codePoint: number;
    if (byte1 <= 0x7f) {
      count = 1;
      codePoint = byte1;
    } else if ((byte1 & 0xe0) === 0xc0) {
      if (byte1 <= 0xc1) return false;
      count = 2;
      codePoint = byte1 & 0x1f;
    } else if ((byte1 & 0xf0) === 0xe0) {
      count = 3;
      codePoint = byte1 & 0x0f;
    } else if ((byte1 & 0xf8) === 0xf0) {
      if (byte1 > 0xf4) return false;
      count = 4;
      codePoint = byte1 & 0x07;
    } else return false;
    if (i + count > end) return false;
    for (let j = 1; j < count; j++) {
      const byte = bytes[i + j]!;
      if ((byte & 0xc0) !== 0x80) return false;
      codePoint = (codePoint << 6) | (byte & 0x3f);
    }
    if ((count === 2 && codePoint < 0x80) || (count === 3 && codePoint < 0x800)) return false;
    if (count === 4 && codePoint < 0x10000) return false;
    if ((codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return false;
    i += count;
  }
  return true;
}
