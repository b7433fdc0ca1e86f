/** A bounded set of recently seen ids: "did this run/answer already finish?" without growing forever. */
export class RecentIds<T> {
  private readonly ids = new Set<T>();

  /** @param limit how many ids to remember. @default 500 */
  constructor(private readonly limit = 500) {}

  add(id: T): void {
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value as T);
  }

  has(id: T): boolean {
    return this.ids.has(id);
  }
}
