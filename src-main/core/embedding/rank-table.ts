/**
 * OpenAI's o200k_base vocabulary as one flat binary file, generated at build time from
 * gpt-tokenizer's own rank table (scripts/build-cli.mjs) and read with one `readFileSync`: no
 * module to compile and no 200k-entry Map to build, which cost a one-shot `cairn search` ~1 s of
 * CPU and ~67 MB (docs/decisions/cli-startup.md). Lookups are binary searches over byte strings.
 *
 * gpt-tokenizer keeps two lookups and this keeps both apart, so that o200k-encoder.ts can ask
 * exactly what it asks: tokens whose bytes it stores as a string (found by a string key, i.e. by
 * valid UTF-8), and the 1,571 tokens it stores as raw bytes (found only by bytes that are not
 * valid UTF-8).
 *
 * Layout (little-endian): "CAIRNBPE", u32 format, u32 string count S, u32 bytes count B, u32 blob
 * length, u32 source-version length V, V bytes of gpt-tokenizer's version (padded to 4), then
 * Uint32 arrays: string offsets (S+1), string ranks (S), bytes offsets (B+1), bytes ranks (B), and
 * the blob. Each kind is sorted by its bytes.
 */

const MAGIC = 'CAIRNBPE';
const FORMAT = 1;
const encoder = new TextEncoder();
/** In a /u regex a surrogate pair is one code point: only a lone surrogate is Cs. */
export const LONE_SURROGATE = /\p{Cs}/u;

/** A sorted run of byte strings with their ranks. */
interface Section {
  offsets: Uint32Array;
  ranks: Uint32Array;
}

export class RankTable {
  private constructor(
    /** The gpt-tokenizer version the table was made from. */
    readonly sourceVersion: string,
    private readonly blob: Uint8Array,
    private readonly strings: Section,
    private readonly bytes: Section,
  ) {}

  /**
   * Builds the table from gpt-tokenizer's rank decoder (index = rank; a string, or the bytes of a
   * token that is not valid UTF-8). Throws on anything the lookups could not mirror exactly.
   */
  static build(decoder: readonly (string | readonly number[])[], sourceVersion: string): Uint8Array {
    const strings: [Uint8Array, number][] = [];
    const raw: [Uint8Array, number][] = [];
    decoder.forEach((value, rank) => {
      if (typeof value === 'string') {
        if (LONE_SURROGATE.test(value)) throw new Error(`rank ${rank} is not well-formed text`);
        strings.push([encoder.encode(value), rank]);
      } else raw.push([Uint8Array.from(value), rank]);
    });
    for (const entries of [strings, raw]) {
      entries.sort((a, b) => compare(a[0], 0, a[0].length, b[0]));
      for (let i = 1; i < entries.length; i++)
        if (compare(entries[i - 1]![0], 0, entries[i - 1]![0].length, entries[i]![0]) === 0)
          throw new Error(`rank ${entries[i]![1]} repeats the bytes of rank ${entries[i - 1]![1]}`);
    }
    const version = encoder.encode(sourceVersion);
    const versionBytes = Math.ceil(version.length / 4) * 4;
    const blobLength = [...strings, ...raw].reduce((sum, [bytes]) => sum + bytes.length, 0);
    const words = 2 * strings.length + 1 + 2 * raw.length + 1;
    const header = 8 + 5 * 4 + versionBytes;
    const out = new Uint8Array(header + words * 4 + blobLength);
    const view = new DataView(out.buffer);
    out.set(encoder.encode(MAGIC));
    [FORMAT, strings.length, raw.length, blobLength, version.length].forEach((value, i) =>
      view.setUint32(8 + i * 4, value, true),
    );
    out.set(version, 28);
    let word = header;
    let blob = header + words * 4;
    const blobStart = blob;
    for (const entries of [strings, raw]) {
      const ranksAt = word + (entries.length + 1) * 4;
      entries.forEach(([bytes, rank], i) => {
        view.setUint32(word + i * 4, blob - blobStart, true);
        view.setUint32(ranksAt + i * 4, rank, true);
        out.set(bytes, blob);
        blob += bytes.length;
      });
      view.setUint32(word + entries.length * 4, blob - blobStart, true);
      word = ranksAt + entries.length * 4;
    }
    return out;
  }

  /** Reads a table made by `build`; throws when the file is not one. */
  static read(file: Uint8Array): RankTable {
    const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
    if (new TextDecoder().decode(file.subarray(0, 8)) !== MAGIC || view.getUint32(8, true) !== FORMAT)
      throw new Error('not an o200k rank table of this format');
    const [stringCount, bytesCount, blobLength, versionLength] = [12, 16, 20, 24].map((at) =>
      view.getUint32(at, true),
    ) as [number, number, number, number];
    const sourceVersion = new TextDecoder().decode(file.subarray(28, 28 + versionLength));
    // Uint32Array views need 4-byte alignment: copy once if the buffer is not aligned.
    const aligned = file.byteOffset % 4 === 0 ? file : file.slice();
    let at = aligned.byteOffset + 28 + Math.ceil(versionLength / 4) * 4;
    const take = (count: number) => {
      const array = new Uint32Array(aligned.buffer, at, count);
      at += count * 4;
      return array;
    };
    const strings = { offsets: take(stringCount + 1), ranks: take(stringCount) };
    const bytes = { offsets: take(bytesCount + 1), ranks: take(bytesCount) };
    const blob = new Uint8Array(aligned.buffer, at, blobLength);
    if (at + blobLength > aligned.byteOffset + aligned.byteLength) throw new Error('truncated rank table');
    return new RankTable(sourceVersion, blob, strings, bytes);
  }

  /** The rank of a token gpt-tokenizer stores as text, by its UTF-8 bytes; -1 when none. */
  stringRank(key: Uint8Array, start = 0, end = key.length): number {
    return this.find(this.strings, key, start, end);
  }

  /** The rank of a token gpt-tokenizer stores as raw bytes; -1 when none. */
  bytesRank(key: Uint8Array, start = 0, end = key.length): number {
    return this.find(this.bytes, key, start, end);
  }

  private find({ offsets, ranks }: Section, key: Uint8Array, start: number, end: number): number {
    const { blob } = this;
    let low = 0;
    let high = ranks.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const from = offsets[mid]!;
      const cmp = compare(blob, from, offsets[mid + 1]!, key, start, end);
      if (cmp === 0) return ranks[mid]!;
      if (cmp < 0) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}

/** Byte order of a[aStart, aEnd) against b[bStart, bEnd): shorter first on a common prefix. */
function compare(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart = 0,
  bEnd = b.length,
): number {
  const length = Math.min(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < length; i++) {
    const diff = a[aStart + i]! - b[bStart + i]!;
    if (diff !== 0) return diff;
  }
  return aEnd - aStart - (bEnd - bStart);
}
