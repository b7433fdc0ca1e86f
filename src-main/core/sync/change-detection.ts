/**
 * Which listed documents need a fetch. A matching revision means unchanged without fetching; a
 * missing or different revision, or rows written by an older ANALYSIS_VERSION, means fetch and let
 * the content hash (and the version) decide. Deletions are
 * decided elsewhere, and only after a complete listing.
 */
import type { DocumentRef } from '../connectors/connector';
import { ANALYSIS_VERSION } from '../index/analysis-version';
import type { StoredDocumentState } from '../index/document-store';

export interface ChangePlan {
  /** New documents, or known ones whose revision differs or is unknown. */
  toFetch: DocumentRef[];
  /** Same non-null revision as stored: skipped without a fetch. */
  unchanged: DocumentRef[];
}

export function planChanges(listed: DocumentRef[], stored: Map<string, StoredDocumentState>): ChangePlan {
  const plan: ChangePlan = { toFetch: [], unchanged: [] };
  for (const ref of listed) {
    const state = stored.get(ref.externalId);
    // A document indexed by an older analysis (cleaning, chunking, keyword analysis) is rewritten.
    if (
      state &&
      ref.revision !== null &&
      ref.revision === state.revision &&
      state.contentHash &&
      state.analysisVersion === ANALYSIS_VERSION
    )
      plan.unchanged.push(ref);
    else plan.toFetch.push(ref);
  }
  return plan;
}

/** Stored documents the (complete) listing no longer has. */
export function goneUpstream(listedIds: Set<string>, stored: Map<string, StoredDocumentState>): string[] {
  return [...stored.keys()].filter((id) => !listedIds.has(id));
}

/**
 * The documents to fetch whose listed modified time is newer than the indexed copy's: recorded
 * before fetching, so a fetch that fails or is deferred leaves search results saying the source
 * changed since (DocumentStore.noteListedTimes).
 */
export function newerListings(
  toFetch: DocumentRef[],
  stored: Map<string, StoredDocumentState>,
): { externalId: string; listedAt: string }[] {
  const newer: { externalId: string; listedAt: string }[] = [];
  for (const ref of toFetch) {
    const state = stored.get(ref.externalId);
    const listed = ref.remoteUpdatedAt ? Date.parse(ref.remoteUpdatedAt) : NaN;
    if (!state || Number.isNaN(listed)) continue;
    const indexed = state.remoteUpdatedAt ? Date.parse(state.remoteUpdatedAt) : NaN;
    if (Number.isNaN(indexed) || listed > indexed)
      newer.push({ externalId: ref.externalId, listedAt: new Date(listed).toISOString() });
  }
  return newer;
}
