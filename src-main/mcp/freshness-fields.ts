/**
 * The freshness of a cited copy as the MCP tools report it (search results and answer citations
 * alike): the same three fields with the same meaning, so a model reads them one way everywhere.
 */
import { z } from 'zod';
import type { Freshness } from '@shared/models';

/** Output schema fields; `liveWord` names what a live (unindexed) item is in the tool's terms. */
export function freshnessSchema(liveWord: 'result' | 'source') {
  return {
    edited_at: z
      .string()
      .nullable()
      .describe("The source's own last edit of the indexed copy (ISO 8601); null when unknown or live."),
    synced_at: z
      .string()
      .nullable()
      .describe(`When Cairn last confirmed this copy current (ISO 8601); null for a live ${liveWord}.`),
    changed_since_sync: z
      .boolean()
      .describe('The source is known to have changed since it was synced: the passage may be out of date.'),
  };
}

export function freshnessFields(freshness: Freshness | undefined): {
  edited_at: string | null;
  synced_at: string | null;
  changed_since_sync: boolean;
} {
  return {
    edited_at: freshness?.editedAt ?? null,
    synced_at: freshness?.syncedAt ?? null,
    changed_since_sync: freshness?.changed !== undefined,
  };
}
