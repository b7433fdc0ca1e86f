/**
 * A run's document failures grouped by how they failed (one code, reason and sentence): a source
 * that fails wholesale (every document refused the same way) is one line with a count, in the run
 * card, not a row per document (a source that went away once listed 213 identical rows).
 */
import type { DocumentError, DocumentErrorGroup } from './models/sync';

/** Titles a group names (the rest are counted). */
const TITLES_PER_GROUP = 3;

export function groupErrors(errors: readonly DocumentError[]): DocumentErrorGroup[] {
  const groups = new Map<string, DocumentErrorGroup>();
  for (const error of errors) {
    const key = JSON.stringify([error.code, error.reason ?? null, error.skipped === true, error.message]);
    const group = groups.get(key);
    if (group) {
      group.count += 1;
      if (group.titles.length < TITLES_PER_GROUP) group.titles.push(error.title);
      continue;
    }
    groups.set(key, {
      code: error.code,
      message: error.message,
      ...(error.reason ? { reason: error.reason } : {}),
      ...(error.params ? { params: error.params } : {}),
      ...(error.skipped ? { skipped: true } : {}),
      count: 1,
      titles: [error.title],
    });
  }
  // Most first; equal counts keep the order they first failed in (Array.prototype.sort is stable).
  return [...groups.values()].sort((a, b) => b.count - a.count);
}
