/**
 * Retrieval for one question: the hybrid search, then one passage per document paragraph. Direct
 * (live) hits can repeat what the index already found, and overlapping chunks can repeat each
 * other; giving the model the same text twice wastes budget and splits citations.
 */
import type { SearchHit } from '@shared/models';
import type { Logger } from '../logging/logger';
import type { SearchService } from '../search/search-service';

/**
 * Searches with each query (a follow-up's rewrite, then the question itself) and fuses the
 * rankings. Fusing instead of searching with the rewrite alone keeps a follow-up's own words in
 * charge when it has some: in question-rewriter.test.ts a rewrite alone pulled retrieval back to
 * the previous turn's passages. Earlier queries win ties.
 */
/** The distinct non-empty queries, trimmed, in order: what `retrieve` searches for. */
export function searchQueries(queries: string[]): string[] {
  return [...new Set(queries.map((q) => q.trim()).filter(Boolean))];
}

export async function retrieve(
  search: SearchService,
  queries: string[],
  k: number,
  signal: AbortSignal,
  logger?: Logger,
): Promise<SearchHit[]> {
  const unique = searchQueries(queries);
  const responses = await Promise.all(unique.map((query) => search.search({ query, k }, signal)));
  for (const warning of responses.flatMap((r) => r.warnings)) {
    logger?.warn('direct search failed; answering from the rest', {
      connectionId: warning.connectionId,
      code: warning.error.code,
    });
  }
  const ranked =
    responses.length === 1 ? responses[0]!.hits : fuseRankings(responses.map((r) => r.hits)).slice(0, k);
  return dedupeHits(ranked);
}

/** Reciprocal rank fusion (Cormack et al. 2009, k=60, as the hybrid search uses); earlier lists win ties. */
export function fuseRankings(lists: SearchHit[][], rrfK = 60): SearchHit[] {
  const fused = new Map<string, { hit: SearchHit; score: number; first: number }>();
  lists.forEach((hits, listIndex) => {
    hits.forEach((hit, rank) => {
      const entry = fused.get(hit.key) ?? { hit, score: 0, first: listIndex * 1000 + rank };
      entry.score += 1 / (rrfK + rank + 1);
      fused.set(hit.key, entry);
    });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first).map((entry) => entry.hit);
}

/**
 * Keeps the first (best-ranked) hit of each document paragraph. Two hits are the same paragraph
 * when they come from the same document and share offsets or text, or one's text contains the
 * other's (a live snippet inside an indexed chunk); then the fuller text is kept at the better rank.
 */
export function dedupeHits(hits: SearchHit[]): SearchHit[] {
  const kept: SearchHit[] = [];
  for (const hit of hits) {
    const text = normalise(hit.text);
    if (!text) continue;
    const index = kept.findIndex(
      (other) =>
        documentKey(other) === documentKey(hit) && samePassage(other, hit, normalise(other.text), text),
    );
    if (index === -1) kept.push(hit);
    else if (text.length > normalise(kept[index]!.text).length)
      kept[index] = { ...hit, score: kept[index]!.score };
  }
  return kept;
}

function documentKey(hit: SearchHit): string {
  return `${hit.connectionId}\u0000${hit.externalId}`;
}

function samePassage(a: SearchHit, b: SearchHit, aText: string, bText: string): boolean {
  if (a.charStart !== null && a.charStart === b.charStart && a.charEnd === b.charEnd) return true;
  return aText === bText || aText.includes(bText) || bText.includes(aText);
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
