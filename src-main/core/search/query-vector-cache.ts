/**
 * The last query vectors, per embedding space. Search-as-you-type, "ask again" and a chat's
 * follow-ups repeat queries, and a query embedding costs a model run in a worker thread (local
 * models) or a network round trip (remote providers) while the built-in one costs nothing: a hit
 * skips it. Least recently used goes first; only vectors are kept (a failure is asked again).
 */
export class QueryVectorCache {
  private readonly entries = new Map<string, Float32Array>();

  constructor(private readonly capacity = 128) {}

  get(spaceId: number, text: string): Float32Array | undefined {
    const key = `${spaceId}\u0000${text}`;
    const vector = this.entries.get(key);
    if (vector) {
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      this.entries.delete(key);
      this.entries.set(key, vector);
    }
    return vector;
  }

  set(spaceId: number, text: string, vector: Float32Array): void {
    const key = `${spaceId}\u0000${text}`;
    this.entries.delete(key);
    this.entries.set(key, vector);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
