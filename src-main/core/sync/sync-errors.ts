/** Refusals of a sync that more than one gate gives (the service before it builds a connector, the engine itself). */
import { CairnError } from '../errors';

/** A direct-mode connection has no index: one code and one sentence wherever a sync of it is refused. */
export function directModeSyncError(name: string): CairnError {
  return new CairnError(
    'UNSUPPORTED',
    `"${name}" is in direct mode: it is searched live and has nothing to sync.`,
  );
}
