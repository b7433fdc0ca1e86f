/**
 * A full garbage collection at the few moments one very large document leaves tens of MB of
 * garbage behind (docs/decisions/large-documents.md, #25 item 5). V8 collects its old generation
 * only when that has grown well past what is live, so the read copies of an 18 MB file (its bytes,
 * decoded, normalised: ~130 MB of RSS) were still resident when PGlite's heap grew by ~90 MB for its
 * text, and each 500-row statement's promoted keyword texts and parameter literals piled up ~100 MB
 * more before a major GC came: the peak was the sum. Collected at those moments, the peak is the
 * largest of them instead. A collection costs tens of milliseconds with the heaps a sync has, next
 * to seconds for such a document's write, and ordinary documents never trigger one.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A document whose cleaned text is longer than this (characters) releases memory as it goes: ~4 MB of Chinese. */
export const RELEASE_MEMORY_CHARS = 1_500_000;

let collect: (() => void) | null | undefined;

/** V8's gc() without --expose-gc on the command line (Electron's main process has none). */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    collect = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    // Without it the peak is higher, never wrong.
    collect = null;
  }
  return collect;
}

/** Runs a full collection; false when the runtime offers none. */
export function releaseMemory(): boolean {
  const gc = collector();
  if (!gc) return false;
  gc();
  return true;
}
