/**
 * Retrieval for one question: the hybrid search, then one passage per document paragraph. Direct
 * (live) hits can repeat what the index already found, and overlapping chunks can repeat each
 * other; giving the model the same text twice wastes budget and splits citations.
 */
import type { SearchHit } from '../../../src-shared/models';
import type { Logger } from '../logging/logger';
import type { SearchService } from '../search/search-service';

export async function retrieve(search: SearchService, query: string, k: number, signal: AbortSignal, logger?: Logger): Promise<SearchHit[]> {
  const response = await search.search({ query, k }, signal);
  for (const warning of response.warnings) logger?.warn('direct search failed; answering from the rest', { connectionId: warning.connectionId, code: warning.error.code });
  return dedupeHits(response.hits);
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
    const index = kept.findIndex((other) => documentKey(other) === documentKey(hit) && samePassage(other, hit, normalise(other.text), text));
    if (index === -1) kept.push(hit);
    else if (text.length > normalise(kept[index]!.text).length) kept[index] = { ...hit, score: kept[index]!.score };
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
