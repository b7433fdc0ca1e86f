/**
 * Which chunks the index channels may return, and how deep each ranks before fusion. The scope
 * is built from the request's filters (search-filters.ts indexScope) and applied inside each
 * channel, so a channel's top 30 is the best of the documents in scope.
 */
import { MAX_K } from './top-k';

/** Candidates per channel before fusion (the first page's depth). */
export const CHANNEL_DEPTH = 30;

/**
 * Chunks each index channel ranks per document asked for, past the first page ("Show more", and
 * the date order over every match): room for several passages each.
 */
export const DEEP_CHUNKS_PER_DOCUMENT = 4;

/** The deepest either index channel ranks: MAX_K documents' worth of chunks (200). */
export const DEEPEST_CHANNEL_DEPTH = MAX_K * DEEP_CHUNKS_PER_DOCUMENT;

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
