import { Boundary, splitsCharacter, type BoundaryLevel, type BoundaryScorer } from './boundaries';

export interface PieceRange {
  start: number;
  end: number;
}

export interface SplitOptions {
  chunkSize: number;
  overlap: number;
}

interface Candidate {
  pos: number;
  level: BoundaryLevel;
}

/**
 * Splits source[start, end) into pieces of at most `chunkSize` characters, each cut at the best
 * boundary in the back half of the window (block > sentence > line > clause > word > character),
 * with consecutive pieces sharing about `overlap` characters. Each window is scanned once, so the
 * whole split is linear in the range's length.
 */
export function splitLongRange(source: string, start: number, end: number, options: SplitOptions, scorer: BoundaryScorer): PieceRange[] {
  const { chunkSize } = options;
  const pieces: PieceRange[] = [];
  let pieceStart = skipSpace(source, start, end);
  let previousEnd = pieceStart;
  while (end - pieceStart > chunkSize) {
    let cut = chooseCut(scorer, pieceStart, previousEnd, end, options);
    if (cut === undefined && pieceStart < previousEnd) {
      // The overlap left no room to get past the previous piece (a protected block follows): drop it.
      pieceStart = skipSpace(source, previousEnd, end);
      cut = chooseCut(scorer, pieceStart, pieceStart, end, options);
    }
    cut ??= hardCut(source, pieceStart, chunkSize);
    pieces.push({ start: pieceStart, end: cut });
    previousEnd = cut;
    pieceStart = skipSpace(source, overlapStart(scorer, pieceStart, cut, options.overlap), end);
  }
  if (pieceStart < end) pieces.push({ start: pieceStart, end });
  return pieces;
}

/**
 * The cut for a piece starting at `pieceStart` that must end after `floor`. Near the end the
 * window is centred on half of what remains, so the last two pieces come out balanced rather
 * than one full piece and a crumb.
 */
function chooseCut(scorer: BoundaryScorer, pieceStart: number, floor: number, end: number, options: SplitOptions): number | undefined {
  const { chunkSize, overlap } = options;
  const remaining = end - pieceStart;
  let low = pieceStart + Math.ceil(chunkSize / 2);
  let high = pieceStart + chunkSize;
  let target = high;
  if (remaining + overlap < 2 * chunkSize) {
    target = pieceStart + Math.ceil((remaining + overlap) / 2);
    low = target - Math.floor(chunkSize / 4);
    high = Math.min(high, target + Math.floor(chunkSize / 4));
  }
  low = Math.max(low, floor + 1);
  const back = bestIn(scorer, low, high, Boundary.char, target);
  if (back && back.level >= Boundary.line) return back.pos;
  // A clean line or block edge earlier in the window beats cutting mid-line (e.g. inside a table row).
  const front = bestIn(scorer, floor + 1, low - 1, Boundary.line, low - 1);
  return (front ?? back ?? bestIn(scorer, floor + 1, low - 1, Boundary.char, low - 1))?.pos;
}

/** The position in [from, to] with the highest level of at least `minLevel`, nearest `target` among equals. */
function bestIn(scorer: BoundaryScorer, from: number, to: number, minLevel: BoundaryLevel, target: number): Candidate | undefined {
  let best: Candidate | undefined;
  for (let pos = to; pos >= from; pos--) {
    const level = scorer.levelAt(pos);
    if (level < minLevel) continue;
    if (!best || level > best.level || (level === best.level && Math.abs(pos - target) < Math.abs(best.pos - target))) best = { pos, level };
    // Scanning away from a target at the window's end: the first top-level edge is the nearest one.
    if (level === Boundary.block && target >= to) break;
  }
  return best;
}

/** Last resort when every position is forbidden: cut at the size limit, never inside a surrogate pair. */
function hardCut(source: string, pieceStart: number, chunkSize: number): number {
  const cut = pieceStart + chunkSize;
  if (!splitsCharacter(source, cut)) return cut;
  const isPairMiddle = (pos: number) => {
    const code = source.charCodeAt(pos);
    return code >= 0xdc00 && code <= 0xdfff && pos > 0 && source.charCodeAt(pos - 1) >= 0xd800 && source.charCodeAt(pos - 1) <= 0xdbff;
  };
  if (!isPairMiddle(cut)) return cut;
  return cut - 1 > pieceStart ? cut - 1 : cut + 1;
}

/**
 * Where the next piece starts: about `overlap` characters before the cut, moved (by at most a
 * quarter of the overlap) to the best nearby boundary so the repeated text starts on a word or
 * sentence. No overlap when nothing there may be cut (inside a protected block).
 */
function overlapStart(scorer: BoundaryScorer, pieceStart: number, cut: number, overlap: number): number {
  if (overlap <= 0) return cut;
  const target = cut - overlap;
  const slack = Math.floor(overlap / 4);
  const from = Math.max(pieceStart + 1, target - slack);
  const to = Math.min(cut - 1, target + slack);
  let best: Candidate | undefined;
  for (let pos = from; pos <= to; pos++) {
    const level = scorer.levelAt(pos);
    if (level === Boundary.forbidden) continue;
    const closer = best && Math.abs(pos - target) < Math.abs(best.pos - target);
    if (!best || level > best.level || (level === best.level && closer)) best = { pos, level };
  }
  return best ? best.pos : cut;
}

function skipSpace(source: string, from: number, end: number): number {
  let pos = from;
  while (pos < end && /\s/.test(source[pos]!)) pos++;
  return pos;
}
