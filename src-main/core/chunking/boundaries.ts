import type { MarkdownBlock } from './markdown-blocks';

/**
 * How good a place is for ending one piece and starting the next. Higher is better; `forbidden`
 * means never (inside a surrogate pair or grapheme, or inside a code block/table that fits in one chunk).
 */
export const Boundary = {
  forbidden: 0,
  char: 1,
  word: 2,
  clause: 3,
  line: 4,
  sentence: 5,
  block: 6,
} as const;

export type BoundaryLevel = (typeof Boundary)[keyof typeof Boundary];

// Full-width terminators end a sentence without a following space: 。！？；
const CJK_SENTENCE_END = new Set(['。', '！', '？', '；', '．']);
const LATIN_SENTENCE_END = new Set(['.', '!', '?']);
const CLOSERS = new Set(['"', "'", ')', ']', '”', '’', '」', '』', '）', '】', '》']);
const CJK_CLAUSE_END = new Set(['，', '、', '：']);
const LATIN_CLAUSE_END = new Set([',', ';', ':']);
const COMBINING_MARK = /\p{M}/u;

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0x3000 || code === 0xa0;
}

/** Han, kana and Hangul: scripts written without spaces, where any character edge is a word edge. */
function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff)
  );
}

/**
 * True when a cut at `pos` would split one user-perceived character: a surrogate pair, a
 * base + combining mark, a ZWJ emoji sequence, a skin-tone modifier or variation selector,
 * or a regional-indicator flag (https://unicode.org/reports/tr29/#Grapheme_Cluster_Boundaries).
 */
export function splitsCharacter(source: string, pos: number): boolean {
  if (pos <= 0 || pos >= source.length) return false;
  const prev = source.charCodeAt(pos - 1);
  const next = source.charCodeAt(pos);
  if (next >= 0xdc00 && next <= 0xdfff && prev >= 0xd800 && prev <= 0xdbff) return true;
  if (prev === 0x200d) return true;
  if (next < 0x300 || (next >= 0x3400 && next <= 0x9fff)) return false;
  if (next === 0x200d || (next >= 0xfe00 && next <= 0xfe0f)) return true;
  if (next >= 0xd800 && next <= 0xdbff) {
    const codePoint = source.codePointAt(pos)!;
    if (codePoint >= 0x1f3fb && codePoint <= 0x1f3ff) return true;
    if (codePoint >= 0xe0020 && codePoint <= 0xe007f) return true;
    if (codePoint >= 0x1f1e6 && codePoint <= 0x1f1ff && pos >= 2) {
      const before = source.codePointAt(pos - 2)!;
      return before >= 0x1f1e6 && before <= 0x1f1ff;
    }
    return false;
  }
  return COMBINING_MARK.test(source[pos]!);
}

/** Scores cut positions in one Markdown source, knowing its blocks. */
export class BoundaryScorer {
  private cursor = 0;

  /** @param protectUpTo code blocks, tables, list items and front matter at most this long are never cut inside. */
  constructor(
    private readonly source: string,
    private readonly blocks: readonly MarkdownBlock[],
    private readonly protectUpTo: number,
  ) {}

  levelAt(pos: number): BoundaryLevel {
    const { source } = this;
    if (pos <= 0 || pos >= source.length) return Boundary.block;
    if (splitsCharacter(source, pos)) return Boundary.forbidden;
    const block = this.blockAround(pos);
    if (block && (pos === block.start || pos === block.end)) return Boundary.block;
    if (block && pos > block.start && pos < block.end) {
      const fits = block.end - block.start <= this.protectUpTo;
      // A list item that fits in a chunk is never cut, like code and tables.
      if (block.kind === 'code' || block.kind === 'front-matter' || block.kind === 'list-item') {
        return fits ? Boundary.forbidden : this.lineLevel(pos);
      }
      // A table too long for one chunk is cut between rows only (the chunker repeats its header).
      if (block.kind === 'table')
        return fits || this.source.charCodeAt(pos - 1) !== 10 ? Boundary.forbidden : Boundary.line;
    }
    return this.proseLevel(pos);
  }

  /** Inside code and table rows only line edges mean something; sentences do not. */
  private lineLevel(pos: number): BoundaryLevel {
    const prev = this.source.charCodeAt(pos - 1);
    if (prev === 10) return Boundary.line;
    if (isSpace(prev) && !isSpace(this.source.charCodeAt(pos))) return Boundary.word;
    return Boundary.char;
  }

  private proseLevel(pos: number): BoundaryLevel {
    const { source } = this;
    const prev = source.charCodeAt(pos - 1);
    const next = source.charCodeAt(pos);
    if (!isSpace(next) && this.endsSentence(pos)) return Boundary.sentence;
    if (prev === 10) return Boundary.line;
    if (CJK_CLAUSE_END.has(source[pos - 1]!)) return Boundary.clause;
    if (isSpace(prev) && !isSpace(next))
      return pos >= 2 && LATIN_CLAUSE_END.has(source[pos - 2]!) ? Boundary.clause : Boundary.word;
    if (isCjk(prev) || isCjk(next)) return Boundary.word;
    return Boundary.char;
  }

  /** `pos` starts a new sentence: terminator, optional closing quotes, then (for . ! ?) whitespace. */
  private endsSentence(pos: number): boolean {
    const { source } = this;
    let at = pos - 1;
    let spaces = 0;
    while (at >= 0 && spaces < 8 && isSpace(source.charCodeAt(at))) {
      at--;
      spaces++;
    }
    for (let closers = 0; at >= 0 && closers < 3 && CLOSERS.has(source[at]!); closers++) at--;
    if (at < 0) return false;
    const terminator = source[at]!;
    return CJK_SENTENCE_END.has(terminator) || (spaces > 0 && LATIN_SENTENCE_END.has(terminator));
  }

  /** The block whose [start, end] holds `pos`, if any; cached because callers scan neighbouring positions. */
  private blockAround(pos: number): MarkdownBlock | undefined {
    const { blocks } = this;
    if (blocks.length === 0) return undefined;
    const cached = blocks[this.cursor]!;
    if (pos < cached.start || (this.cursor + 1 < blocks.length && pos >= blocks[this.cursor + 1]!.start)) {
      let low = 0;
      let high = blocks.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (blocks[mid]!.start <= pos) low = mid;
        else high = mid - 1;
      }
      this.cursor = low;
    }
    const block = blocks[this.cursor]!;
    return pos >= block.start && pos <= block.end ? block : undefined;
  }
}
