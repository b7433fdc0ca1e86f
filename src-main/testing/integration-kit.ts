/** Small helpers shared by the integration tests that drive the real composition root. */
import type { Result } from '@shared/errors';
import type { SearchHit, SyncRunView } from '@shared/models';
import type { CairnInternals } from '../core/app/create-cairn';

/** The value of an ok Result; a failed one throws with its code and message (the test shows them). */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Starts one sync through the API and returns its finished run record. */
export async function syncToEnd(cairn: CairnInternals, connectionId: string): Promise<SyncRunView> {
  const { runId } = unwrap(await cairn.api.sync.start({ connectionId }));
  await cairn.whenIdle();
  const run = unwrap(await cairn.api.sync.runs({ connectionId, limit: 5 })).find(
    (candidate) => candidate.id === runId,
  );
  if (!run) throw new Error(`run ${runId} of ${connectionId} is missing`);
  return run;
}

export async function searchHits(cairn: CairnInternals, query: string, k = 10): Promise<SearchHit[]> {
  return unwrap(await cairn.api.search.query({ query, k })).hits;
}
