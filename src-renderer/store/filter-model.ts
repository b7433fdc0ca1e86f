/**
 * The filter bar's state and what it sends: plain data and pure functions, so the store, the bar
 * and the tests share one meaning. A date preset stays relative ("past week" means the week before
 * each search), and custom dates are the user's local days, `to` included.
 */
import type { Platform, SearchFilters } from '@shared/models';

export type DatePreset = 'any' | 'week' | 'month' | 'year' | 'custom';

export interface FilterState {
  connectionIds: string[];
  platforms: Platform[];
  knowledgeBases: string[];
  tags: string[];
  date: DatePreset;
  /** Custom range, local days as YYYY-MM-DD ('' = open); used when `date` is 'custom'. */
  from: string;
  to: string;
}

export const NO_FILTERS: FilterState = {
  connectionIds: [],
  platforms: [],
  knowledgeBases: [],
  tags: [],
  date: 'any',
  from: '',
  to: '',
};

/** The list fields, which the bar edits the same way. */
export type ListField = 'connectionIds' | 'platforms' | 'knowledgeBases' | 'tags';

function localDay(text: string, plusDays = 0): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + plusDays);
}

/** Whether the custom range is usable: from before or on to (either may be open). */
export function customRangeValid(state: Pick<FilterState, 'from' | 'to'>): boolean {
  const from = localDay(state.from);
  const to = localDay(state.to);
  return !(from && to && from > to);
}

/** The modified-date bounds for the state, at `now`. */
function dateBounds(state: FilterState, now: Date): Pick<SearchFilters, 'modifiedAfter' | 'modifiedBefore'> {
  if (state.date === 'any') return {};
  if (state.date === 'custom') {
    if (!customRangeValid(state)) return {};
    const from = localDay(state.from);
    const to = localDay(state.to, 1);
    return {
      ...(from ? { modifiedAfter: from.toISOString() } : {}),
      ...(to ? { modifiedBefore: to.toISOString() } : {}),
    };
  }
  const after = new Date(now);
  if (state.date === 'week') after.setDate(after.getDate() - 7);
  else if (state.date === 'month') after.setMonth(after.getMonth() - 1);
  else after.setFullYear(after.getFullYear() - 1);
  return { modifiedAfter: after.toISOString() };
}

/** The request's filters, or undefined when none is set (the request stays as it was before filters). */
export function requestFilters(state: FilterState, now = new Date()): SearchFilters | undefined {
  const filters: SearchFilters = {
    ...(state.connectionIds.length ? { connectionIds: state.connectionIds } : {}),
    ...(state.platforms.length ? { platforms: state.platforms } : {}),
    ...(state.knowledgeBases.length ? { knowledgeBases: state.knowledgeBases } : {}),
    ...(state.tags.length ? { tags: state.tags } : {}),
    ...dateBounds(state, now),
  };
  return Object.keys(filters).length > 0 ? filters : undefined;
}

/** Whether a date filter is chosen (a custom range with neither date is not one yet). */
export function dateActive(state: FilterState): boolean {
  return state.date !== 'any' && (state.date !== 'custom' || !!state.from || !!state.to);
}

/** How many filters are on (each list value counts, a date range counts once). */
export function activeFilterCount(state: FilterState): number {
  const dated = dateActive(state) ? 1 : 0;
  return (
    state.connectionIds.length +
    state.platforms.length +
    state.knowledgeBases.length +
    state.tags.length +
    dated
  );
}

/** `values` with `value` added, or removed when present. */
export function toggled<T>(values: readonly T[], value: T): T[] {
  return values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
}
