/**
 * Which chunks the index channels may return, and how deep each ranks before fusion. The scope
 * is built from the request's filters (search-filters.ts indexScope) and applied inside each
 * channel, so a channel's top 30 is the best of the documents in scope.
 */

/** Candidates per channel before fusion. */
export const CHANNEL_DEPTH = 30;

/** Which chunks a channel may return; a null field does not restrict (a null scope: every chunk). */
export interface ChannelScope {
  connectionIds: readonly string[] | null;
  /** The documents that pass the document filters (knowledge base, tag, date); null = no such filter. */
  documentIds: readonly number[] | null;
}

/** A scope of connections only (what callers without document filters pass). */
export function connectionScope(connectionIds: readonly string[] | null): ChannelScope | null {
  return connectionIds ? { connectionIds, documentIds: null } : null;
}

/** Whether the scope admits no chunk at all (then no channel runs a statement). */
export function scopeIsEmpty(scope: ChannelScope | null): boolean {
  return scope?.connectionIds?.length === 0 || scope?.documentIds?.length === 0;
}
