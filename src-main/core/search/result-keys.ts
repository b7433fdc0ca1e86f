/**
 * The keys fusion ranks (SearchHit.key): `chunk:<id>` for an indexed chunk, `direct:<connectionId>:<externalId>`
 * for a live hit. Built and read only here, so no caller parses "chunk:" strings.
 */
export type ChunkKey = `chunk:${number}`;
export type DirectKey = `direct:${string}:${string}`;
export type ResultKey = ChunkKey | DirectKey;

export function chunkKey(chunkId: number): ChunkKey {
  return `chunk:${chunkId}`;
}

export function directKey(connectionId: string, externalId: string): DirectKey {
  return `direct:${connectionId}:${externalId}`;
}

/** The chunk id a key names, or null for a live hit's key. */
export function chunkIdOf(key: string): number | null {
  if (!key.startsWith('chunk:')) return null;
  const id = Number(key.slice('chunk:'.length));
  return Number.isSafeInteger(id) ? id : null;
}
