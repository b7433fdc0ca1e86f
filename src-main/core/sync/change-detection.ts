/**
 * Which listed documents need a fetch. A matching revision means unchanged without fetching; a
 * missing or different revision means fetch and let the content hash decide. Deletions are
 * decided elsewhere, and only after a complete listing.
 */
import type { DocumentRef } from '../connectors/connector';
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
    if (state && ref.revision !== null && ref.revision === state.revision && state.contentHash)
      plan.unchanged.push(ref);
    else plan.toFetch.push(ref);
  }
  return plan;
}

/** Stored documents the (complete) listing no longer has. */
export function goneUpstream(listedIds: Set<string>, stored: Map<string, StoredDocumentState>): string[] {
  return [...stored.keys()].filter((id) => !listedIds.has(id));
}
