/**
 * Filters on live (direct-mode) sources. A platform's search returns a title, a snippet and a
 * knowledge base name, never a modified time or tags, so:
 * - connection and platform filters pick which sources are asked;
 * - the knowledge base filter keeps the live hits whose platform-given name matches;
 * - with a date or tag filter a live source is not asked at all, and the response names it
 *   (`liveSkipped`): unfiltered live hits beside filtered local ones would look filtered and not be.
 */
import type { LiveFilterGap, SearchResponse } from '@shared/models';
import type { DirectResult, DirectSearchSource, DirectWarning } from './direct-channel';
import { connectionPasses, liveGaps, liveHitPasses, type CheckedFilters } from './search-filters';

export type SkippedSource = NonNullable<SearchResponse['liveSkipped']>[number];

const GAP_WORDS: Record<LiveFilterGap, string> = { modified: 'modified date', tags: 'tag' };

/** The one sentence that says why a live source was left out (the CLI and MCP print it as is). */
export function skippedSentence(name: string, gaps: readonly LiveFilterGap[]): string {
  const what = new Intl.ListFormat('en', { type: 'disjunction' }).format(gaps.map((gap) => GAP_WORDS[gap]));
  return `${name} was not searched: its live search cannot filter by ${what}.`;
}

/** The live sources to ask, and those a filter leaves out, named by `nameOf` (a connection id's name). */
export function liveSources(
  sources: DirectSearchSource[],
  filters: CheckedFilters,
  nameOf: (connectionId: string) => string,
): { sources: DirectSearchSource[]; skipped: SkippedSource[] } {
  const chosen = sources.filter((s) =>
    connectionPasses(filters, { id: s.connectionId, platform: s.platform }),
  );
  const gaps = liveGaps(filters);
  if (gaps.length === 0) return { sources: chosen, skipped: [] };
  return {
    sources: [],
    skipped: chosen.map((s) => ({
      connectionId: s.connectionId,
      filters: gaps,
      message: skippedSentence(nameOf(s.connectionId), gaps),
    })),
  };
}

/** The live hits that pass the knowledge base filter (by the name the platform gave, else the source's). */
export function keepLiveHits(
  found: { results: DirectResult[]; warnings: DirectWarning[] },
  filters: CheckedFilters,
): { results: DirectResult[]; warnings: DirectWarning[] } {
  if (!filters.knowledgeBases) return found;
  return {
    warnings: found.warnings,
    results: found.results.map((result) => ({
      source: result.source,
      hits: result.hits.filter((hit) =>
        liveHitPasses(filters, hit.knowledgeBase || result.source.knowledgeBaseFallback),
      ),
    })),
  };
}
