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
 * with consecutive pieces sharing about `overlap` characters. Each piece scans at most a few
 * chunk-sized windows, so the whole split is linear in the range's length.
 */
export function splitLongRange(
  source: string,
  start: number,
  end: number,
  options: SplitOptions,
  scorer: BoundaryScorer,
): PieceRange[] {
  const { chunkSize } = options;
  const pieces: PieceRange[] = [];
  let pieceStart = skipSpace(source, start, end);
  // First character no piece holds yet: every piece must take at least one, or ends would not advance.
  let unclaimed = pieceStart;
  while (end - pieceStart > chunkSize) {
    const cut = chooseCut(scorer, pieceStart, unclaimed, end, options);
    if (pieceStart < unclaimed && (cut === undefined || cut.early)) {
      // The overlap leaves no room for a clean cut (e.g. a code block follows): drop the overlap.
      pieceStart = unclaimed;
      continue;
    }
    const cutAt = cut?.pos ?? hardCut(source, pieceStart, chunkSize);
    pieces.push({ start: pieceStart, end: cutAt });
    unclaimed = skipSpace(source, cutAt, end);
    pieceStart = skipSpace(source, overlapStart(scorer, pieceStart, cutAt, options.overlap), end);
  }
  if (pieceStart < end) pieces.push({ start: pieceStart, end });
  return pieces;
}

/**
 * The cut for a piece starting at `pieceStart` that must take the character at `unclaimed`:
 * the best edge in the preferred window (the back half of the piece), else the best clean (line
 * or better) edge anywhere in reach, marked `early` when it leaves the piece short. Near the end
 * the window is centred on half of what remains, so the last two pieces come out balanced
 * rather than one full piece and a crumb.
 */
function chooseCut(
  scorer: BoundaryScorer,
  pieceStart: number,
  unclaimed: number,
  end: number,
  options: SplitOptions,
): { pos: number; early: boolean } | undefined {
  const { chunkSize, overlap } = options;
  const remaining = end - pieceStart;
  const limit = pieceStart + chunkSize;
  let low = pieceStart + Math.ceil(chunkSize / 2);
  let high = limit;
  let target = limit;
  if (remaining + overlap < 2 * chunkSize) {
    target = pieceStart + Math.ceil((remaining + overlap) / 2);
    low = target - Math.floor(chunkSize / 4);
    high = Math.min(limit, target + Math.floor(chunkSize / 4));
  }
  const floor = unclaimed + 1;
  low = Math.max(low, floor);
  const preferred = bestIn(scorer, low, high, Boundary.char, target);
  if (preferred && preferred.level >= Boundary.line) return { pos: preferred.pos, early: false };
  // A clean line or block edge elsewhere beats cutting mid-line (e.g. inside a table row),
  // unless it would leave a crumb of a piece while a word edge was on offer.
  // The preferred window holds no clean edge, so only what lies around it needs a look.
  const clean = better(
    bestIn(scorer, floor, low - 1, Boundary.line, target),
    bestIn(scorer, high + 1, limit, Boundary.line, target),
    target,
  );
  if (clean && (!preferred || clean.pos - pieceStart >= chunkSize / 4))
    return { pos: clean.pos, early: clean.pos < low };
  if (preferred) return { pos: preferred.pos, early: false };
  const any = bestIn(scorer, floor, limit, Boundary.char, target);
  return any && { pos: any.pos, early: any.pos < low };
}

function better(a: Candidate | undefined, b: Candidate | undefined, target: number): Candidate | undefined {
  if (!a || !b) return a ?? b;
  if (a.level !== b.level) return a.level > b.level ? a : b;
  return Math.abs(a.pos - target) <= Math.abs(b.pos - target) ? a : b;
}

/** The position in [from, to] with the highest level of at least `minLevel`, nearest `target` among equals. */
function bestIn(
  scorer: BoundaryScorer,
  from: number,
  to: number,
  minLevel: BoundaryLevel,
  target: number,
): Candidate | undefined {
  let best: Candidate | undefined;
  for (let pos = to; pos >= from; pos--) {
    const level = scorer.levelAt(pos);
    if (level < minLevel) continue;
    if (
      !best ||
      level > best.level ||
      (level === best.level && Math.abs(pos - target) < Math.abs(best.pos - target))
    )
      best = { pos, level };
    // Scanning away from a target at the window's end: the first top-level edge is the nearest one.
    if (level === Boundary.block && target >= to) break;
  }
  return best;
}

/**
 * Last resort when every position in reach is forbidden (e.g. a code block that fits but sits
 * across the window): cut at the size limit, moved back so that no character is split.
 */
function hardCut(source: string, pieceStart: number, chunkSize: number): number {
  const limit = pieceStart + chunkSize;
  for (let pos = limit; pos > pieceStart; pos--) if (!splitsCharacter(source, pos)) return pos;
  // One "character" longer than a chunk (e.g. thousands of stacked combining marks): keep only
  // surrogate pairs whole, so the chunk size still holds.
  const code = source.charCodeAt(limit);
  return code >= 0xdc00 && code <= 0xdfff ? limit - 1 : limit;
}

/**
 * Where the next piece starts: about `overlap` characters before the cut, moved (by at most a
 * quarter of the overlap) to the best nearby boundary so the repeated text starts on a word or
 * sentence. No overlap when no word edge lies there (inside a protected block, a URL, a long
 * unspaced token), rather than one starting mid-word.
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
    // The repeated text starts on a word at least: never mid-word, mid-URL or mid-row.
    if (level < Boundary.word) continue;
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
